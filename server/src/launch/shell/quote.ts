/** A path as one shell word: single-quoted when bash would split or expand it (a space, `$`, `*`, a leading `~`, …). */
export function shellWord(path: string): string {
  return /^[\w./+:@%=,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
