import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CodeActionContext } from 'vscode-languageserver-types';
import { dataFixActions } from '../../diagnostics/fixActions';

/** The quick fixes our diagnostics carry in their data (stateless: everything is in the diagnostic). */
export function launchCodeActions(document: TextDocument, context: CodeActionContext): CodeAction[] {
  return dataFixActions(document, context.diagnostics.filter((d) => d.source === 'zero-lens'));
}
