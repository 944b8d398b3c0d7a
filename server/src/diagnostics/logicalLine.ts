/**
 * Logical lines: physical lines joined where one ends in a backslash (a continued shell command). In JSON
 * and YAML a line hardly ever ends in one, so there a logical line is a physical line.
 */

function continues(text: string, lineEnd: number): boolean {
  let end = lineEnd;
  if (text[end - 1] === '\r') end--;
  return text[end - 1] === '\\';
}

/** Where the logical line holding `offset` starts. */
export function logicalLineStart(text: string, offset: number): number {
  let start = text.lastIndexOf('\n', offset - 1) + 1;
  while (start > 0 && continues(text, start - 1)) start = text.lastIndexOf('\n', start - 2) + 1;
  return start;
}

/** Where the logical line holding `offset` ends (its last newline excluded). */
export function logicalLineEnd(text: string, offset: number): number {
  for (;;) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    if (!continues(text, nl)) return nl;
    offset = nl + 1;
  }
}
