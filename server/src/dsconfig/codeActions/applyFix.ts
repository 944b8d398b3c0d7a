import { parseTree, type FormattingOptions } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-types';
import { findProperty } from '../parse';
import { removeProperty, setValue } from './jsonEdits';
import type { FixOp, FixSpec } from '../validation/fixTypes';

/** Indentation and line ends as the file already uses them, so inserted keys look hand-written. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = [...text.slice(0, 64 * 1024).matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]);
  if (indents.some((i) => i.startsWith('\t'))) return { insertSpaces: false, tabSize: 4, eol };
  const widths = indents.map((i) => i.length).filter((w) => w > 0);
  const tabSize = widths.length > 0 ? Math.max(1, Math.min(...widths)) : 2;
  return { insertSpaces: true, tabSize, eol };
}

/** One op on the text, or undefined when it no longer applies (the text changed since the diagnostic). */
function applyOp(text: string, op: FixOp): string | undefined {
  switch (op.op) {
    case 'set':
      return setValue(text, op.path, op.value, formattingOf(text));
    case 'remove':
      return removeProperty(text, op.path);
    case 'rename': {
      // Only the key token changes: the value, its comments and the key's position all stay.
      const key = findProperty(parseTree(text), op.path)?.children?.[0];
      if (!key) return undefined;
      return text.slice(0, key.offset) + JSON.stringify(op.newKey) + text.slice(key.offset + key.length);
    }
    case 'deleteText':
      if (text.substr(op.offset, op.length) !== op.expect) return undefined;
      return text.slice(0, op.offset) + text.slice(op.offset + op.length);
  }
}

/** The text after a whole fix, or undefined when any op no longer applies or nothing would change. */
export function applyFix(text: string, fix: FixSpec): string | undefined {
  let current = text;
  for (const op of fix.ops) {
    let next: string | undefined;
    try {
      next = applyOp(current, op);
    } catch {
      // A text the tree no longer describes (a concurrent edit): the fix simply does not apply.
      return undefined;
    }
    if (next === undefined) return undefined;
    current = next;
  }
  return current === text ? undefined : current;
}

/** One minimal TextEdit turning `before` into `after` (common prefix and suffix left alone). */
export function minimalEdit(document: TextDocument, before: string, after: string): TextEdit {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  // Never cut a CRLF pair or a surrogate pair in two: positions inside them are not representable.
  const splits = (offset: number) => offset > 0 && offset < before.length && ((before[offset - 1] === '\r' && before[offset] === '\n') || /[\ud800-\udbff]/.test(before[offset - 1]));
  while (splits(start)) start--;
  while (end > 0 && splits(before.length - end)) end--;
  return {
    range: { start: document.positionAt(start), end: document.positionAt(before.length - end) },
    newText: after.slice(start, after.length - end),
  };
}
