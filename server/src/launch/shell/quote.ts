/**
 * A value as one shell word (a path, a model id): single-quoted when bash would split or expand it (a space, `$`,
 * `*`, a leading `~`, …). Completion writes config paths with it; `zero-lens estimate` its suggested flags.
 */
export function shellWord(value: string): string {
  return /^[\w./+:@%=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
