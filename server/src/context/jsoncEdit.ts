import { applyEdits, createScanner, modify, parseTree, type JSONPath, type Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-types';
import { findProperty, findValue } from '../dsconfig/parse';

/**
 * Comment-preserving JSONC edits. Values are replaced with jsonc-parser's `modify`; inserting and removing
 * whole properties is done line by line here, because `modify` moves a trailing `// comment` of the previous
 * property onto the inserted one and deletes it on removal. Positions always come from jsonc-parser's tree
 * and scanner, so strings that look like JSON never confuse the edit.
 */

/** Set `path` to `value`, or remove the property at `path` when value is undefined. */
export interface JsonChange {
  path: JSONPath;
  value: unknown;
}

// jsonc-parser's SyntaxKind is an ambient const enum, which isolatedModules cannot read.
const Token = { Comma: 5, LineComment: 12, BlockComment: 13, LineBreak: 14, Trivia: 15, EOF: 17 } as const;

/** Applies the changes in order; each one sees the text the previous one produced. */
export function applyJsonChanges(text: string, changes: JsonChange[]): string {
  let current = text;
  for (const change of changes) current = applyOne(current, change);
  return current;
}

/** One replacement covering only the changed span, so the editor keeps the cursor and undo is one step. */
export function minimalTextEdit(document: TextDocument, before: string, after: string): TextEdit | null {
  if (before === after) return null;
  let start = 0;
  const shortest = Math.min(before.length, after.length);
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  return {
    range: { start: document.positionAt(start), end: document.positionAt(endBefore) },
    newText: after.slice(start, endAfter),
  };
}

function parse(text: string): Node | undefined {
  // A BOM is not JSON whitespace for jsonc-parser; a space keeps every offset the same.
  const source = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  return parseTree(source, [], { allowTrailingComma: true, disallowComments: false });
}

function applyOne(text: string, change: JsonChange): string {
  const root = parse(text);
  if (!root || root.type !== 'object') return text;
  const property = findProperty(root, change.path);
  if (change.value === undefined) return property ? removeProperty(text, property) : text;
  if (property?.children?.[1]) {
    // DeepSpeed reads the last of duplicate keys, so that is the one to change; modify() would pick the first.
    const valueNode = property.children[1];
    const valueText = formatValue(change.value, indentUnit(text), lineIndent(text, property.offset), lineEnding(text));
    return text.slice(0, valueNode.offset) + valueText + text.slice(valueNode.offset + valueNode.length);
  }
  // Find the deepest existing object on the path and insert the rest there as one nested value.
  for (let depth = change.path.length - 1; depth >= 0; depth--) {
    const parent = findValue(root, change.path.slice(0, depth));
    if (!parent) continue;
    if (parent.type !== 'object') return replaceWithModify(text, change);
    let value = change.value;
    for (let i = change.path.length - 1; i > depth; i--) value = { [String(change.path[i])]: value };
    return insertProperty(text, parent, String(change.path[depth]), value);
  }
  return text;
}

/** For shapes the line-aware paths do not handle (a non-object in the way): jsonc-parser decides. */
function replaceWithModify(text: string, change: JsonChange): string {
  const unit = indentUnit(text);
  const edits = modify(text, change.path, change.value, {
    formattingOptions: { insertSpaces: !unit.startsWith('\t'), tabSize: unit.startsWith('\t') ? 4 : unit.length },
  });
  return applyEdits(text, edits);
}

/** Inserts `"key": value` as the last property of `object`, on its own line when the object spans lines. */
function insertProperty(text: string, object: Node, key: string, value: unknown): string {
  const properties = object.children ?? [];
  const unit = indentUnit(text);
  const closing = object.offset + object.length - 1;
  const multiLine = text.slice(object.offset, closing).includes('\n');
  if (properties.length === 0) {
    const outer = lineIndent(text, object.offset);
    const inner = outer + unit;
    const eol = lineEnding(text);
    const body = `"${key}": ${formatValue(value, unit, inner, eol)}`;
    const inside = text.slice(object.offset + 1, closing);
    if (inside.trim() === '') return text.slice(0, object.offset + 1) + `${eol}${inner}${body}${eol}${outer}` + text.slice(closing);
    // Only comments inside: keep them and put the property after them.
    return text.slice(0, closing) + `${inside.endsWith('\n') ? '' : eol}${inner}${body}${eol}${outer}` + text.slice(closing);
  }
  const last = properties[properties.length - 1];
  const comma = commaAfter(text, last.offset + last.length);
  if (!multiLine || !startsLine(text, last.offset)) {
    const body = `"${key}": ${formatInline(value)}`;
    if (comma !== undefined) return text.slice(0, comma + 1) + ` ${body},` + text.slice(comma + 1);
    const end = last.offset + last.length;
    return text.slice(0, end) + `, ${body}` + text.slice(end);
  }
  const indent = lineIndent(text, last.offset);
  const eol = lineEnding(text);
  const body = `"${key}": ${formatValue(value, unit, indent, eol)}`;
  const lineEnd = endOfLine(text, comma !== undefined ? comma + 1 : last.offset + last.length);
  // Keep the file's trailing-comma style: a trailing comma after the old last property moves to the new one.
  const inserted = `${eol}${indent}${body}${comma !== undefined ? ',' : ''}`;
  const end = last.offset + last.length;
  const withComma = comma !== undefined ? text : text.slice(0, end) + ',' + text.slice(end);
  const shift = comma !== undefined ? 0 : 1;
  return withComma.slice(0, lineEnd + shift) + inserted + withComma.slice(lineEnd + shift);
}

/**
 * Removes a property with its comma and a comment on the same line (which describes it). Comments on lines
 * of their own stay where they are.
 */
function removeProperty(text: string, property: Node): string {
  const object = property.parent;
  const siblings = object?.children ?? [property];
  const index = siblings.indexOf(property);
  const end = property.offset + property.length;
  const ownComma = commaAfter(text, end);
  const isLast = index === siblings.length - 1;
  let start = property.offset;
  let stop = ownComma !== undefined ? ownComma + 1 : end;
  let prefix = text;
  if (isLast && index > 0) {
    // The previous property's comma would become a trailing comma: drop it with this property.
    const previous = siblings[index - 1];
    const previousComma = commaAfter(text, previous.offset + previous.length);
    if (previousComma !== undefined && ownComma === undefined) {
      prefix = text.slice(0, previousComma) + text.slice(previousComma + 1);
      start -= 1;
      stop -= 1;
    }
  }
  const lineStart = startOfLine(prefix, start);
  const afterStop = prefix.slice(stop, endOfLine(prefix, stop));
  if (prefix.slice(lineStart, start).trim() === '' && /^\s*(\/\/.*)?$/.test(afterStop)) {
    // The property has its line(s) to itself: remove them whole.
    let lineEnd = endOfLine(prefix, stop);
    if (prefix.startsWith('\r\n', lineEnd)) lineEnd += 2;
    else if (prefix[lineEnd] === '\n') lineEnd += 1;
    return prefix.slice(0, lineStart) + prefix.slice(lineEnd);
  }
  // Inline object: remove the property and the spaces after its comma.
  while (stop < prefix.length && (prefix[stop] === ' ' || prefix[stop] === '\t')) stop++;
  if (isLast) while (start > 0 && (prefix[start - 1] === ' ' || prefix[start - 1] === '\t')) start--;
  return prefix.slice(0, start) + prefix.slice(stop);
}

/** Offset of the comma that follows `offset`, skipping whitespace and comments; undefined when none. */
function commaAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (let token: number = scanner.scan(); token !== Token.EOF; token = scanner.scan()) {
    if (token === Token.Comma) return scanner.getTokenOffset();
    if (token !== Token.Trivia && token !== Token.LineBreak && token !== Token.LineComment && token !== Token.BlockComment) return undefined;
  }
  return undefined;
}

function startOfLine(text: string, offset: number): number {
  const newline = text.lastIndexOf('\n', offset - 1);
  return newline + 1;
}

function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline < 0) return text.length;
  return text[newline - 1] === '\r' ? newline - 1 : newline;
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(startOfLine(text, offset), offset).trim() === '';
}

function lineIndent(text: string, offset: number): string {
  const start = startOfLine(text, offset);
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? '';
}

/** The file's indentation step: the smallest indentation of any line, or two spaces. */
function indentUnit(text: string): string {
  let best: string | undefined;
  for (const match of text.matchAll(/\n([ \t]+)\S/g)) {
    const indent = match[1];
    if (indent.startsWith('\t')) return '\t';
    if (!best || indent.length < best.length) best = indent;
  }
  return best ?? '  ';
}

/** One-line JSON with a space after `:` and `,`, for objects written on one line. */
function formatInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatInline).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${formatInline(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** JSON text of a value, nested lines indented one step below `indent`. */
function formatValue(value: unknown, unit: string, indent: string, eol = '\n'): string {
  const json = JSON.stringify(value, null, unit);
  return json.replace(/\n/g, `${eol}${indent}`);
}

/** The file's line ending, kept in everything inserted. */
function lineEnding(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
