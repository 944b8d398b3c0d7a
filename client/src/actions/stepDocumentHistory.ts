/**
 * Undo or redo in a document from outside its editor (the sidebar): VS Code's undo acts on the focused
 * editor, so the document's editor is shown and focused first, where the step can be seen.
 */
import * as vscode from 'vscode';

export async function stepDocumentHistory(uri: vscode.Uri, step: 'undo' | 'redo'): Promise<void> {
  const visible = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === uri.toString());
  if (visible) await vscode.window.showTextDocument(visible.document, { viewColumn: visible.viewColumn, preserveFocus: false });
  else await vscode.window.showTextDocument(uri, { preserveFocus: false, preview: false });
  await vscode.commands.executeCommand(step);
}
