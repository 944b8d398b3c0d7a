/**
 * The CLI's help texts, laid out from rows so that each option's description is one catalog message: the
 * left column (commands, flags) is written as is, the right one in the reader's language. A description's
 * `\n` starts a continuation line under it.
 */
export type HelpRow = readonly [left: string, right: string];

/** Rows with their descriptions starting at column `width` (the left column padded, or alone on its line). */
export function helpRows(rows: readonly HelpRow[], width: number, indent = '  '): string {
  const lines: string[] = [];
  for (const [left, right] of rows) {
    const [first = '', ...rest] = right.split('\n');
    const head = `${indent}${left}`;
    if (!first) lines.push(head);
    else lines.push(head.length < width ? `${head.padEnd(width)}${first}` : `${head} ${first}`);
    for (const line of rest) lines.push(`${' '.repeat(width)}${line}`);
  }
  return lines.join('\n') + '\n';
}
