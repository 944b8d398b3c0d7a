import type { TextOp } from './fixData';

/** Replaces [start, end) of `text` by `newText`, keeping what is there now so the op can be checked and re-located. */
export function replaceText(text: string, start: number, end: number, newText: string): TextOp {
  return { op: 'replaceText', start, end, expect: text.slice(start, end), newText };
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && !/\s/.test(c);
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * Inserts `newText` at `at`. A bare insertion replaces nothing, so nothing would show where it belongs once
 * the text moved: it is anchored to the word it touches (else the next word on its line, else the one before),
 * which it replaces by itself.
 */
export function insertText(text: string, at: number, newText: string): TextOp {
  let start = at;
  let end = at;
  while (isWordChar(text[start - 1])) start--;
  while (isWordChar(text[end])) end++;
  if (start === end) {
    while (isBlank(text[end])) end++;
    while (isWordChar(text[end])) end++;
  }
  if (!isWordChar(text[end - 1])) {
    end = at;
    while (isBlank(text[start - 1])) start--;
    while (isWordChar(text[start - 1])) start--;
  }
  return replaceText(text, start, end, text.slice(start, at) + newText + text.slice(at, end));
}
