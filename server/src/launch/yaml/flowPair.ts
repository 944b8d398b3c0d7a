/**
 * What removing one pair of a YAML flow mapping (`{a: 1, b: 2}`) takes away: the pair with the comma after it, or,
 * for the last pair, the comma before it, so the mapping stays valid; a pair alone on its line takes the line.
 */
export function flowPairExtent(text: string, keyStart: number, valueEnd: number): { start: number; end: number } {
  let after = valueEnd;
  while (/[ \t\r\n]/.test(text.charAt(after))) after++;
  if (text.charAt(after) === ',') {
    const lineStart = text.lastIndexOf('\n', keyStart - 1) + 1;
    const ownLine = /^[ \t]*$/.test(text.slice(lineStart, keyStart)) && /^[ \t]*\r?\n/.exec(text.slice(after + 1));
    if (ownLine) return { start: lineStart, end: after + 1 + ownLine[0].length };
    let end = after + 1;
    while (/[ \t]/.test(text.charAt(end))) end++;
    return { start: keyStart, end };
  }
  let before = keyStart - 1;
  while (before >= 0 && /[ \t\r\n]/.test(text.charAt(before))) before--;
  return { start: text.charAt(before) === ',' ? before : keyStart, end: valueEnd };
}
