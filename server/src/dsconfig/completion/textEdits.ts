import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';
import type { SchemaPath } from '../schemaIndex';
import type { Span } from './cursorContext';

export function rangeOf(document: TextDocument, span: Span): Range {
  return { start: document.positionAt(span.start), end: document.positionAt(span.end) };
}

/** The parsed value at a path (undefined when the half-typed document does not have it yet). */
export function instanceAt(value: unknown, path: SchemaPath): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
