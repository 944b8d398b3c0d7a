import { createScanner, findNodeAtLocation, parseTree, type FormattingOptions, type JSONPath, type Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-types';
import { findProperty, findValue } from './jsonTree';
import { isTrivia, Token } from './jsoncTokens';

/**
 * Comment-preserving JSONC edits: set a value, insert a property, remove a property, rename a key.
 * jsonc-parser's `modify` moves a comment that trails the previous entry onto an inserted one, cuts it on
 * removal and reformats the line it inserts after; these edits locate everything with jsonc-parser's tree
 * and scanner and touch only the characters that have to change, in the file's own indentation and line ends.
 * Each returns the new text, or undefined when the edit does not apply to this text (path gone, a
 * non-object in the way), so callers never write a guess.
 */

/**
 * Indentation and line ends as the file already uses them, so inserted keys look hand-written: read from the
 * lines of its first 64 KiB, without a copy or a match object ("Fix all" asks once per fix, and a 4 MB config
 * has dozens).
 */
export function formattingOf(text: string): FormattingOptions {
  const head = Math.min(text.length, 64 * 1024);
  let crlf = false;
  let tabs = false;
  let width = Infinity;
  for (let newline = text.indexOf('\n'); newline >= 0 && newline < head; newline = text.indexOf('\n', newline + 1)) {
    if (text.charCodeAt(newline - 1) === 13) crlf = true;
    let end = newline + 1;
    while (end < head && (text[end] === ' ' || text[end] === '\t')) end++;
    // An indented line with text on it (a line of blanks says nothing).
    if (end === newline + 1 || end >= head || /\s/.test(text[end])) continue;
    if (text[newline + 1] === '\t') tabs = true;
    width = Math.min(width, end - newline - 1);
  }
  const eol = crlf ? '\r\n' : '\n';
  if (tabs) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: width === Infinity ? 2 : width, eol };
}

/** The tree jsonEdits works on (a BOM reads as a space). */
export function parseForEdit(text: string): Node | undefined {
  // A BOM is not JSON whitespace for jsonc-parser; a space keeps every offset the same.
  const source = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  return parseTree(source, [], { allowTrailingComma: true, disallowComments: false });
}

/** One level of indentation in `format`. */
export function unitOf(format: FormattingOptions): string {
  return format.insertSpaces ? ' '.repeat(format.tabSize ?? 2) : '\t';
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Leading whitespace of the line `offset` is on, and whether only whitespace precedes `offset` there. */
function indentAt(text: string, offset: number): { indent: string; alone: boolean } {
  const before = text.slice(lineStart(text, offset), offset);
  return { indent: /^[ \t]*/.exec(before)![0], alone: /^[ \t]*$/.test(before) };
}

/** One-line JSON with a space after `:` and `,`, like the one-line object it goes into. */
function renderInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(renderInline).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${renderInline(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A value as JSON laid out like the file: nested lines indented one step below `indent`. */
function render(value: unknown, indent: string, format: FormattingOptions): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  return JSON.stringify(value, null, unitOf(format)).replace(/\n/g, (format.eol ?? '\n') + indent);
}

/** The first non-trivia token after `offset`, and the first line break before it (comments skipped). */
function nextToken(text: string, offset: number): { kind: number; offset: number; lineBreak?: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let lineBreak: number | undefined;
  for (let kind: number = scanner.scan(); ; kind = scanner.scan()) {
    if (kind === Token.LineBreak) lineBreak ??= scanner.getTokenOffset();
    else if (!isTrivia(kind)) return { kind, offset: scanner.getTokenOffset(), lineBreak };
  }
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Offset just past the line ending at or after `offset` (or the end of the text). */
function pastLineBreak(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

/** Where a `// comment` that starts on the same line after `offset` ends (before its line break), else `offset`. */
function endOfLineComment(text: string, offset: number): number {
  const spaces = /^[ \t]*/.exec(text.slice(offset))![0].length;
  if (!text.startsWith('//', offset + spaces)) return offset;
  const newline = text.indexOf('\n', offset);
  const end = newline < 0 ? text.length : newline;
  return text[end - 1] === '\r' ? end - 1 : end;
}

export interface RemoveOptions {
  /** Also remove a `// comment` after the entry when the entry has its line to itself (it describes the entry). Default: keep it. */
  withLineComment?: boolean;
}

/**
 * Removes a property with its comma; comments on neighbouring lines stay. The object on the path is found as
 * DeepSpeed reads it (last of duplicate keys); within it the FIRST property with the key goes, so "remove the
 * ignored first duplicate" fixes work.
 */
export function removeProperty(text: string, path: JSONPath, options: RemoveOptions = {}, root: Node | undefined = parseForEdit(text)): string | undefined {
  const key = path[path.length - 1];
  const object = path.length > 0 && typeof key === 'string' ? findValue(root, path.slice(0, -1)) : undefined;
  if (object?.type !== 'object') return undefined;
  const siblings = object.children ?? [];
  const property = siblings.find((p) => p.children?.[0]?.value === key);
  if (!property) return undefined;
  const index = siblings.indexOf(property);
  const end = property.offset + property.length;
  const after = nextToken(text, end);
  const { alone } = indentAt(text, property.offset);
  if (after.kind === Token.Comma) {
    let commaEnd = after.offset + 1;
    if (options.withLineComment && alone) commaEnd = endOfLineComment(text, commaEnd);
    // Drop "key": value, plus the whole line when nothing else (no comment) shares it.
    const rest = nextToken(text, commaEnd);
    const restOfLine = text.slice(commaEnd, rest.lineBreak ?? commaEnd);
    if (alone && rest.lineBreak !== undefined && /^[ \t]*$/.test(restOfLine)) return splice(text, lineStart(text, property.offset), pastLineBreak(text, rest.lineBreak), '');
    // Something shares the line (a comment, or the next entry): remove just the entry, comma and spaces
    // (before it too when it was the last entry, so `"a": 1, "b": 2,}` keeps its style as `"a": 1,}`).
    let from = property.offset;
    if (index === siblings.length - 1 && !alone) while (text[from - 1] === ' ' || text[from - 1] === '\t') from--;
    return splice(text, from, commaEnd + /^[ \t]*/.exec(text.slice(commaEnd))![0].length, '');
  }
  const stop = options.withLineComment && alone ? endOfLineComment(text, end) : end;
  if (index > 0) {
    // Last entry: remove the comma after the previous one (keeping its trailing comment) and this entry's line.
    const previous = siblings[index - 1];
    const comma = nextToken(text, previous.offset + previous.length);
    if (comma.kind !== Token.Comma) return undefined;
    const next = nextToken(text, stop);
    const ownLine = alone && next.lineBreak !== undefined && /^[ \t]*$/.test(text.slice(stop, next.lineBreak));
    const start = lineStart(text, property.offset);
    const spacesBefore = /[ \t]*$/.exec(text.slice(comma.offset + 1, property.offset))![0].length;
    // On its own line: from the line break before it, so the previous entry's line (and its comment) stays whole.
    const from = ownLine ? Math.max(start - (text[start - 2] === '\r' ? 2 : 1), comma.offset + 1) : property.offset - spacesBefore;
    return splice(splice(text, from, stop, ''), comma.offset, comma.offset + 1, '');
  }
  // The only entry: leave the braces (and any comments inside them).
  const openEnd = object.offset + 1;
  const close = object.offset + object.length - 1;
  const rest = text.slice(openEnd, property.offset) + text.slice(stop, close);
  return splice(text, openEnd, close, /^\s*$/.test(rest) ? '' : rest);
}

/**
 * Sets a value: replaces it in place when the key exists (the last one, which DeepSpeed reads), else inserts
 * it into the deepest object on the path that exists, nesting the rest of the path into the new value.
 */
export function setValue(text: string, path: JSONPath, value: unknown, format: FormattingOptions = formattingOf(text), root: Node | undefined = parseForEdit(text)): string | undefined {
  if (!root || path.length === 0) return undefined;
  const existing = typeof path[path.length - 1] === 'string' ? findProperty(root, path)?.children?.[1] : findNodeAtLocation(root, path);
  if (existing) {
    // A value inside a one-line object (its key does not start its line) stays on that line.
    const key = existing.parent?.type === 'property' ? existing.parent : existing;
    const { indent, alone } = indentAt(text, key.offset);
    return splice(text, existing.offset, existing.offset + existing.length, alone ? render(value, indent, format) : renderInline(value));
  }
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const container = findValue(root, path.slice(0, depth));
    if (!container) continue;
    if (container.type !== 'object' || typeof path[depth] !== 'string') return undefined;
    let nested = value;
    for (let i = path.length - 1; i > depth; i--) nested = { [String(path[i])]: nested };
    return insertProperty(text, container, String(path[depth]), nested, format);
  }
  return undefined;
}

/** Renames the key at `path` (the last duplicate); only the key token changes, so its value and comments stay. */
export function renameKey(text: string, path: JSONPath, newKey: string, root: Node | undefined = parseForEdit(text)): string | undefined {
  const key = findProperty(root, path)?.children?.[0];
  return key && splice(text, key.offset, key.offset + key.length, JSON.stringify(newKey));
}

/** Inserts `"key": value` as the last property of `object`: on its own line when entries have lines, else inline. */
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
    // Only comments inside: the entry goes on the line after the last of them.
    const from = close - /\s*$/.exec(inner)![0].length;
    return splice(text, from, close, entry);
  }
  const end = last.offset + last.length;
  const after = nextToken(text, end);
  const hasComma = after.kind === Token.Comma;
  const { indent, alone } = indentAt(text, last.offset);
  const next = hasComma ? nextToken(text, after.offset + 1) : after;
  if (!alone || next.lineBreak === undefined) {
    // A one-line object: `{"a": 1}` → `{"a": 1, "key": value}`.
    const at = hasComma ? after.offset + 1 : end;
    return splice(text, at, at, `${hasComma ? ' ' : ', '}${JSON.stringify(key)}: ${renderInline(value)}${hasComma ? ',' : ''}`);
  }
  // One entry per line: the comma goes right after the last value, the new line after its trailing comment;
  // a trailing comma after the old last entry stays the file's style and moves to the new one.
  const entry = `${eol}${indent}${JSON.stringify(key)}: ${render(value, indent, format)}${hasComma ? ',' : ''}`;
  const withEntry = splice(text, next.lineBreak, next.lineBreak, entry);
  return hasComma ? withEntry : splice(withEntry, end, end, ',');
}

/** One minimal TextEdit turning `before` into `after` (common prefix and suffix left alone), so undo is one step. */
export function minimalEdit(document: TextDocument, before: string, after: string): TextEdit {
  const span = minimalSpan(before, after);
  return { range: { start: document.positionAt(span.start), end: document.positionAt(span.end) }, newText: span.newText };
}

/** The one span of `before` to replace to get `after`: [start, end) and its new text. */
export function minimalSpan(before: string, after: string): { start: number; end: number; newText: string } {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  // Never cut a CRLF pair or a surrogate pair in two: positions inside them are not representable.
  const splits = (offset: number) => offset > 0 && offset < before.length && ((before[offset - 1] === '\r' && before[offset] === '\n') || /[\ud800-\udbff]/.test(before[offset - 1]));
  while (splits(start)) start--;
  while (end > 0 && splits(before.length - end)) end--;
  return { start, end: before.length - end, newText: after.slice(start, after.length - end) };
}
