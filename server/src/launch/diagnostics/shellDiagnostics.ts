import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { Command, ShellIssue, ShellScript } from '../shell/types';
import { ScriptEditor } from '../edits/textEdits';
import { launchDiagnostic } from './codes';

function commandAround(script: ShellScript, offset: number): Command | undefined {
  return script.commands.find((c) => c.start <= offset && offset <= c.end);
}

function brokenContinuation(ctx: SourceContext, script: ShellScript, issue: Extract<ShellIssue, { kind: 'broken-continuation' }>): Diagnostic {
  const editor = new ScriptEditor(ctx);
  const what = issue.reason === 'blank-line' ? 'A blank line' : 'A comment line';
  const consequence = issue.joined
    ? 'bash ends the command there and runs the lines below as a separate command (an environment prefix above it no longer applies).'
    : 'bash ends the command there, so the backslash continues nothing.';
  const gapText = ctx.document.getText().slice(issue.gapStart, issue.gapEnd);
  const fixes = [];
  if (issue.joined && issue.reason === 'blank-line') {
    fixes.push({ title: 'Remove the blank line', edits: [editor.replace(issue.gapStart, issue.gapEnd, '')], preferred: true });
  } else if (issue.joined) {
    // Comments cannot sit inside a continued command: move them above it, so nothing is lost.
    const command = commandAround(script, issue.backslash);
    const at = editor.lineStart(command ? command.start : issue.backslash);
    const kept = gapText.split('\n').filter((l) => l.trim() !== '').map((l) => l.trimStart()).join('\n');
    fixes.push({ title: 'Move the comment above the command', edits: [editor.insert(at, kept + '\n'), editor.replace(issue.gapStart, issue.gapEnd, '')], preferred: true });
  } else {
    let s = issue.backslash;
    const text = ctx.document.getText();
    while (s > 0 && (text[s - 1] === ' ' || text[s - 1] === '\t')) s--;
    fixes.push({ title: 'Remove the trailing backslash', edits: [editor.replace(s, issue.backslash + 1, '')] });
  }
  return launchDiagnostic(ctx, 'broken-continuation', issue.backslash, issue.backslash + 1, `${what} after this backslash breaks the continuation: ${consequence}`, { reason: issue.reason, fixes });
}

export function shellDiagnostics(ctx: SourceContext, script: ShellScript): Diagnostic[] {
  const out: Diagnostic[] = [];
  const editor = new ScriptEditor(ctx);
  for (const issue of script.issues) {
    if (issue.kind === 'broken-continuation') out.push(brokenContinuation(ctx, script, issue));
    else if (issue.kind === 'trailing-space') {
      out.push(
        launchDiagnostic(ctx, 'trailing-space-after-backslash', issue.backslash, issue.end, 'Space after the line-continuation backslash: bash escapes the space instead of the newline, so the command ends on this line.', {
          fixes: [{ title: 'Remove the trailing space', edits: [editor.replace(issue.start, issue.end, '')], preferred: true }],
        }),
      );
    }
  }
  return out;
}
