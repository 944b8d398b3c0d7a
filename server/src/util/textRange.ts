import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';

/** The range of a span of `document` given by offset and length: a jsonc-parser node, a formatting edit, a comment. */
export function rangeOfSpan(document: TextDocument, span: { offset: number; length: number }): Range {
  return { start: document.positionAt(span.offset), end: document.positionAt(span.offset + span.length) };
}
