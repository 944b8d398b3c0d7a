import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionItem, Position, Range, TextEdit } from 'vscode-languageserver-types';

/** A document from text where `|` marks the cursor (the marker is removed). */
export function withCursor(marked: string, uri = 'file:///work/ds_config.json'): { document: TextDocument; position: Position; offset: number } {
  const offset = marked.indexOf('|');
  if (offset < 0) throw new Error('no | cursor marker in test text');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const document = TextDocument.create(uri, 'json', 1, text);
  return { document, position: document.positionAt(offset), offset };
}

export function editOf(item: CompletionItem): TextEdit {
  const edit = item.textEdit;
  if (!edit || !('range' in edit)) throw new Error(`item ${item.label} has no plain textEdit`);
  return edit;
}

/** Items in the order an editor shows them: by sortText, then label. */
export function sorted(items: CompletionItem[]): CompletionItem[] {
  return [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label) || a.label.localeCompare(b.label));
}

export function textIn(document: TextDocument, range: Range): string {
  return document.getText(range);
}

/** Applies an item's edits (snippet placeholders replaced by their defaults) and returns the new text. */
export function applyItem(document: TextDocument, item: CompletionItem): string {
  const edits = [editOf(item), ...(item.additionalTextEdits ?? [])].sort((a, b) => document.offsetAt(b.range.start) - document.offsetAt(a.range.start));
  let text = document.getText();
  for (const edit of edits) {
    const newText = edit.newText
      .replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1')
      .replace(/\$\{\d+:([^}]*)\}/g, '$1')
      .replace(/\$\d+/g, '');
    text = text.slice(0, document.offsetAt(edit.range.start)) + newText + text.slice(document.offsetAt(edit.range.end));
  }
  return text;
}
