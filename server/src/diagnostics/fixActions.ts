import type { Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver-types';
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
}

/**
 * The one way every domain turns fixes into quick fixes: one per fix that still applies to the document's
 * current text (re-located when made on another version), in the order given.
 */
export function quickFixActions(document: TextDocument, offered: OfferedFixes): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const fix of offered.fixes) {
    const edits = fixEdits(document, fix, offered.origin, offered.tree);
    if (!edits) continue;
    const action: CodeAction = { title: fix.title, kind: CodeActionKind.QuickFix, isPreferred: fix.preferred === true, edit: { changes: { [document.uri]: edits } } };
    if (offered.diagnostics?.length) action.diagnostics = offered.diagnostics;
    actions.push(action);
  }
  return actions;
}

/** The quick fixes carried in the diagnostics' data, each diagnostic's data checked before use. */
export function dataFixActions(document: TextDocument, diagnostics: Diagnostic[], tree?: Node): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const data = readDiagnosticData(diagnostic.data);
    if (data) actions.push(...quickFixActions(document, { origin: data, fixes: data.fixes, diagnostics: [diagnostic], tree }));
  }
  return actions;
}
