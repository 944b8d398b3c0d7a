import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { Command, ShellIssue, ShellScript } from '../shell/types';
import { ScriptEditor } from '../edits/textEdits';
import { launchDiagnostic } from './launchDiagnostic';
import type { FixSpec } from '../../diagnostics/fixData';
import type { Translate } from '../../l10n';

function commandAround(script: ShellScript, offset: number): Command | undefined {
  return script.commands.find((c) => c.start <= offset && offset <= c.end);
}

function brokenContinuation(ctx: SourceContext, script: ShellScript, issue: Extract<ShellIssue, { kind: 'broken-continuation' }>, t: Translate): Diagnostic {
  const editor = new ScriptEditor(ctx);
  const gapText = ctx.document.getText().slice(issue.gapStart, issue.gapEnd);
  const fixes: FixSpec[] = [];
  if (gapText.trim() === '') {
    fixes.push({ id: 'remove-blank-line', title: t('Remove the blank line'), ops: [editor.replace(issue.gapStart, issue.gapEnd, '')], preferred: true });
  } else {
    // Comments cannot sit inside a continued command: move them above it, so nothing is lost.
    const command = commandAround(script, issue.backslash);
    const at = editor.lineStart(command ? command.start : issue.backslash);
    // Indented like the command's first line, ended like it (CRLF stays CRLF).
    const indent = editor.indentAt(at);
    const eol = editor.lineEndingAt(at);
    const kept = gapText.split('\n').filter((l) => l.trim() !== '').map((l) => indent + l.replace(/\r$/, '').trimStart() + eol).join('');
    fixes.push({ id: 'move-comment-above', title: t('Move the comment above the command'), ops: [editor.insert(at, kept), editor.replace(issue.gapStart, issue.gapEnd, '')], preferred: true });
  }
  const message = issue.reason === 'blank-line'
    ? t('A blank line after this backslash breaks the continuation: bash ends the command there and runs the lines below as a separate command (an environment prefix above it no longer applies).')
    : t('A comment line after this backslash breaks the continuation: bash ends the command there and runs the lines below as a separate command (an environment prefix above it no longer applies).');
  return launchDiagnostic(ctx, 'broken-continuation', issue.backslash, issue.backslash + 1, message, { reason: issue.reason, fixes });
}

/** What bash looks for when a quote or expansion opened at `start` never closes. */
function closers(t: Translate): Record<Exclude<Extract<ShellIssue, { kind: 'unterminated' }>['what'], 'heredoc'>, { opened: string; closer: string }> {
  return {
    'single-quote': { opened: t('This single quote'), closer: "'" },
    'double-quote': { opened: t('This double quote'), closer: '"' },
    backtick: { opened: t('This backtick'), closer: '`' },
    'command-substitution': { opened: t('This {0}', '$( … )'), closer: ')' },
    brace: { opened: t('This {0}', '${ … }'), closer: '}' },
  };
}

/**
 * The first quote or heredoc left open: everything after it is swallowed, so later problems (a config
 * "path" running to the end of the file) are its consequences and it must be said first.
 */
function unterminated(ctx: SourceContext, script: ShellScript, t: Translate): Diagnostic | undefined {
  const issue = script.issues.find((i): i is Extract<ShellIssue, { kind: 'unterminated' }> => i.kind === 'unterminated');
  if (!issue) return undefined;
  if (issue.what === 'heredoc') {
    const heredoc = script.heredocs.find((h) => h.start === issue.start);
    const message = heredoc
      ? t("The here-document '{0}' is never closed: bash takes the rest of the file as its text, so no command below it runs.", heredoc.delimiter)
      : t('The here-document is never closed: bash takes the rest of the file as its text, so no command below it runs.');
    return launchDiagnostic(ctx, 'unterminated-heredoc', issue.start, issue.start, message);
  }
  const { opened, closer } = closers(t)[issue.what];
  return launchDiagnostic(
    ctx,
    'unterminated-quote',
    issue.start,
    issue.start + 1,
    t('{0} is never closed: bash reads to the end of the file looking for the matching {1}, then stops with "unexpected EOF" and does not run this command.', opened, closer),
  );
}

/**
 * Windows line endings. The parser reads them as plain newlines, so every other check still applies, but
 * bash does not: it keeps each carriage return as a character, so a backslash escapes the CR instead of
 * the newline and the last word of each line ends in one. Said once, on the first such line.
 */
function carriageReturns(ctx: SourceContext, t: Translate): Diagnostic | undefined {
  const text = ctx.document.getText();
  const first = text.indexOf('\r\n');
  if (first < 0) return undefined;
  const lines = text.split('\r\n').length - 1;
  const lineStart = text.lastIndexOf('\n', first - 1) + 1;
  return launchDiagnostic(
    ctx,
    'crlf-line-endings',
    lineStart,
    first,
    t('Windows line endings (CRLF) on {0}: bash on Linux keeps each carriage return, so a backslash at a line end no longer continues the command and the last argument of each line ends in `\\r`; the launch fails with `$\'\\r\': command not found`. Switch the file to LF (CRLF in the status bar) or run `sed -i \'s/\\r$//\'`. Harmless only if git converts the file to LF where it runs.', lines === 1 ? t('1 line') : t('{0} lines', lines)),
    { lines },
  );
}

export function shellDiagnostics(ctx: SourceContext, script: ShellScript, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const crlf = carriageReturns(ctx, t);
  if (crlf) out.push(crlf);
  const open = unterminated(ctx, script, t);
  if (open) out.push(open);
  const editor = new ScriptEditor(ctx);
  for (const issue of script.issues) {
    // A backslash before a blank line that ends the command anyway (next line is a new command) is harmless.
    if (issue.kind === 'broken-continuation' && issue.joined) out.push(brokenContinuation(ctx, script, issue, t));
    else if (issue.kind === 'trailing-space') {
      out.push(
        launchDiagnostic(ctx, 'trailing-space-after-backslash', issue.backslash, issue.end, t('Space after the line-continuation backslash: bash escapes the space instead of the newline, so the command ends on this line.'), {
          fixes: [{ id: 'remove-trailing-space', title: t('Remove the trailing space'), ops: [editor.replace(issue.start, issue.end, '')], preferred: true }],
        }),
      );
    }
  }
  return out;
}
