import type { Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionKind, type CodeAction, type Diagnostic, type SnippetTextEdit, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import { fixEdits } from './applyFix';
import type { FixOrigin, FixSpec } from './fixData';
import { readDiagnosticData } from './readDiagnosticData';

/** Fixes to offer: where they were made, and the diagnostics they resolve (none for fixes offered on a value). */
export interface OfferedFixes {
  origin: FixOrigin;
  fixes: FixSpec[];
  diagnostics?: Diagnostic[];
  /** The document's current parse tree, when the caller has it cached: JSON fixes then parse nothing more. */
  tree?: Node;
  /** Whether the editor applies snippet edits (LSP 3.18); a fix with a placeholder to fill in needs one. */
  snippetEdits?: boolean;
}

/**
 * The one way every domain turns fixes into quick fixes: one per fix that still applies to the document's
 * current text (re-located when made on another version), in the order given.
 */
export function quickFixActions(document: TextDocument, offered: OfferedFixes): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const fix of offered.fixes) {
    const placeholder = placeholderOf(fix);
    // A value the user must fill in is never written as if it were theirs: a snippet selects it, or no fix.
    if (placeholder !== undefined && !offered.snippetEdits) continue;
    const edits = fixEdits(document, fix, offered.origin, offered.tree);
    if (!edits) continue;
    const edit: WorkspaceEdit =
      placeholder === undefined
        ? { changes: { [document.uri]: edits } }
        : { documentChanges: [{ textDocument: { uri: document.uri, version: document.version }, edits: edits.map((e) => asSnippet(e, placeholder)) }] };
    const action: CodeAction = { title: fix.title, kind: CodeActionKind.QuickFix, isPreferred: fix.preferred === true, edit };
    if (offered.diagnostics?.length) action.diagnostics = offered.diagnostics;
    actions.push(action);
  }
  return actions;
}

/** The quick fixes carried in the diagnostics' data, each diagnostic's data checked before use. */
export function dataFixActions(document: TextDocument, diagnostics: Diagnostic[], tree?: Node, snippetEdits = false): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const data = readDiagnosticData(diagnostic.data);
    if (data) actions.push(...quickFixActions(document, { origin: data, fixes: data.fixes, diagnostics: [diagnostic], tree, snippetEdits }));
  }
  return actions;
}

/** The placeholder value a fix writes, if any (see JsonOp `set`): such a fix is never applied unseen. */
export function placeholderOf(fix: FixSpec): string | undefined {
  for (const op of fix.ops) if (op.op === 'set' && op.placeholder && typeof op.value === 'string') return op.value;
  return undefined;
}

/** An edit as a snippet: its text escaped, the placeholder's JSON string a tab stop that selects it. */
function asSnippet(edit: TextEdit, placeholder: string): SnippetTextEdit {
  const quoted = JSON.stringify(placeholder);
  const at = edit.newText.indexOf(quoted);
  const escape = (text: string): string => text.replace(/[\\$}]/g, '\\$&');
  const value =
    at < 0
      ? escape(edit.newText)
      : `${escape(edit.newText.slice(0, at))}"\${1:${escape(placeholder)}}"${escape(edit.newText.slice(at + quoted.length))}`;
  return { range: edit.range, snippet: { kind: 'snippet', value } };
}
