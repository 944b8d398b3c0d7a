import { createScanner, findNodeAtLocation, parseTree, type FormattingOptions, type JSONPath, type Node } from 'jsonc-parser';
import { findProperty } from '../parse';

/**
 * Comment-preserving edits on a jsonc-parser tree. jsonc-parser's own `modify` drops a comment that trails the
 * previous entry when it removes a property, and reformats the whole line it inserts after; these helpers
 * touch only the characters that have to change, so every comment and the user's layout survive.
 */

// jsonc-parser's SyntaxKind is an ambient const enum (unreadable under isolatedModules).
const Token = { Comma: 5, LineComment: 12, BlockComment: 13, LineBreak: 14, Trivia: 15, EOF: 17 } as const;

function unitOf(format: FormattingOptions): string {
  return format.insertSpaces ? ' '.repeat(format.tabSize ?? 2) : '\t';
}

function lineStart(text: string, offset: number): number {
  return Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0);
}

/** Leading whitespace of the line `offset` is on, and whether only whitespace precedes `offset` there. */
function indentAt(text: string, offset: number): { indent: string; alone: boolean } {
  const start = lineStart(text, offset);
  const before = text.slice(start, offset);
  return { indent: /^[ \t]*/.exec(before)![0], alone: /^[ \t]*$/.test(before) };
}

/** A value as JSON, laid out like the file (multi-line objects indented from `indent`). */
export function render(value: unknown, indent: string, format: FormattingOptions, inline = false): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (inline) return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']');
  return JSON.stringify(value, null, unitOf(format)).replace(/\n/g, (format.eol ?? '\n') + indent);
}

/** The first non-trivia token after `offset`, and the first line break before it (comments skipped). */
function nextToken(text: string, offset: number): { kind: number; offset: number; lineBreak?: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let lineBreak: number | undefined;
  for (let kind: number = scanner.scan(); ; kind = scanner.scan()) {
    if (kind === Token.LineBreak) lineBreak ??= scanner.getTokenOffset();
    else if (kind !== Token.Trivia && kind !== Token.LineComment && kind !== Token.BlockComment) return { kind, offset: scanner.getTokenOffset(), lineBreak };
  }
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Removes a property (the first one with that key) with its comma; comments on neighbouring lines stay. */
export function removeProperty(text: string, path: JSONPath): string | undefined {
  const root = parseTree(text);
  const value = root && findNodeAtLocation(root, path);
  const property = value?.parent;
  const object = property?.parent;
  if (!property || property.type !== 'property' || !object) return undefined;
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  const end = property.offset + property.length;
  const after = nextToken(text, end);
  const { alone } = indentAt(text, property.offset);
  if (after.kind === Token.Comma) {
    // Drop "key": value, plus the whole line when nothing else (no comment) shares it.
    const commaEnd = after.offset + 1;
    const rest = nextToken(text, commaEnd);
    const restOfLine = text.slice(commaEnd, rest.lineBreak ?? commaEnd);
    if (alone && rest.lineBreak !== undefined && /^[ \t]*$/.test(restOfLine)) {
      const eolEnd = text.startsWith('\r\n', rest.lineBreak) ? rest.lineBreak + 2 : rest.lineBreak + 1;
      return splice(text, lineStart(text, property.offset), eolEnd, '');
    }
    // Something shares the line (a comment, or the next entry): remove just the entry, comma and spaces.
    return splice(text, property.offset, commaEnd + /^[ \t]*/.exec(text.slice(commaEnd))![0].length, '');
  }
  if (index > 0) {
    // Last entry: remove the comma after the previous one (keeping its trailing comment) and this entry's line.
    const previous = siblings[index - 1];
    const comma = nextToken(text, previous.offset + previous.length);
    if (comma.kind !== Token.Comma) return undefined;
    const ownLine = alone && after.lineBreak !== undefined && /^[ \t]*$/.test(text.slice(end, after.lineBreak));
    const spacesBefore = /[ \t]*$/.exec(text.slice(comma.offset + 1, property.offset))![0].length;
    const start = ownLine ? Math.max(lineStart(text, property.offset) - (text[lineStart(text, property.offset) - 2] === '\r' ? 2 : 1), comma.offset + 1) : property.offset - spacesBefore;
    const removed = splice(text, start, end, '');
    return splice(removed, comma.offset, comma.offset + 1, '');
  }
  // The only entry: leave the braces (and any comments inside them).
  const openEnd = object.offset + 1;
  const close = object.offset + object.length - 1;
  const inner = text.slice(openEnd, close);
  const withoutProperty = inner.slice(0, property.offset - openEnd) + inner.slice(end - openEnd);
  return splice(text, openEnd, close, /^\s*$/.test(withoutProperty) ? '' : withoutProperty);
}

/** Sets a value: replaces it in place when the key exists (the last one, which DeepSpeed reads), else inserts it. */
export function setValue(text: string, path: JSONPath, value: unknown, format: FormattingOptions): string | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  if (path.length === 0) return undefined;
  const existing = typeof path[path.length - 1] === 'string' ? findProperty(root, path)?.children?.[1] : findNodeAtLocation(root, path);
  if (existing) return splice(text, existing.offset, existing.offset + existing.length, render(value, indentAt(text, existing.offset).indent, format));
  // Insert into the deepest object that exists, nesting the rest of the path into the new value.
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const container = depth === 0 ? root : findProperty(root, path.slice(0, depth))?.children?.[1];
    if (!container) continue;
    if (container.type !== 'object' || typeof path[depth] !== 'string') return undefined;
    let nested = value;
    for (let i = path.length - 1; i > depth; i--) nested = { [String(path[i])]: nested };
    return insertProperty(text, container, String(path[depth]), nested, format);
  }
  return undefined;
}

function insertProperty(text: string, object: Node, key: string, value: unknown, format: FormattingOptions): string {
  const eol = format.eol ?? '\n';
  const children = object.children ?? [];
  const last = children[children.length - 1];
  const close = object.offset + object.length - 1;
  if (!last) {
    const base = indentAt(text, object.offset).indent;
    const child = base + unitOf(format);
    const inner = text.slice(object.offset + 1, close);
    const entry = `${eol}${child}${JSON.stringify(key)}: ${render(value, child, format)}${eol}${base}`;
    return /^\s*$/.test(inner) ? splice(text, object.offset + 1, close, entry) : splice(text, close, close, entry);
  }
  const end = last.offset + last.length;
  const after = nextToken(text, end);
  const hasComma = after.kind === Token.Comma;
  const { indent, alone } = indentAt(text, last.offset);
  const next = hasComma ? nextToken(text, after.offset + 1) : after;
  if (!alone || next.lineBreak === undefined) {
    // A one-line object: `{"a": 1}` → `{"a": 1, "key": value}`.
    const at = hasComma ? after.offset + 1 : end;
    return splice(text, at, at, `${hasComma ? ' ' : ', '}${JSON.stringify(key)}: ${render(value, indent, format, true)}${hasComma ? ',' : ''}`);
  }
  // One entry per line: the comma goes right after the last value, the new line after its trailing comment.
  const entry = `${eol}${indent}${JSON.stringify(key)}: ${render(value, indent, format)}${hasComma ? ',' : ''}`;
  const withEntry = splice(text, next.lineBreak, next.lineBreak, entry);
  return hasComma ? withEntry : splice(withEntry, end, end, ',');
}
