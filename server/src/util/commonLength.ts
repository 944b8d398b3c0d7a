/**
 * How many characters `a` and `b` share from the start, up to `limit`: found by halving the span still in doubt
 * and comparing it as strings, since a string comparison runs in C++ and a loop over characters in JS (a keystroke
 * on a 1 KB config: 21 µs by characters in the server, a few µs so). Each character is compared about once.
 */
function commonPrefixLength(a: string, b: string, limit: number): number {
  return commonLength(a, b, limit, (s, from, to) => s.slice(from, to));
}

/** How many characters `a` and `b` share at the end, up to `limit`, as `commonPrefixLength`. */
function commonSuffixLength(a: string, b: string, limit: number): number {
  return commonLength(a, b, limit, (s, from, to) => s.slice(s.length - to, s.length - from));
}

function commonLength(a: string, b: string, limit: number, part: (s: string, from: number, to: number) => string): number {
  let same = 0;
  let upTo = limit;
  while (same < upTo) {
    const mid = (same + upTo + 1) >> 1;
    if (part(a, same, mid) === part(b, same, mid)) same = mid;
    else upTo = mid - 1;
  }
  return same;
}

/** How `after` differs from `before`: the length of their common start, and of their common end after it. */
export interface CommonEnds {
  start: number;
  tail: number;
}

/**
 * `before` and `after`'s common start and end. The last answer is kept for the same two texts: a keystroke's parse
 * (literalEdit.ts) and its rules' memo (ruleMemo.ts) both ask it, and each search slices strings the young
 * generation then collects.
 */
export function commonEnds(before: string, after: string): CommonEnds {
  if (last && last.before === before && last.after === after) return last.ends;
  const shorter = Math.min(before.length, after.length);
  const start = commonPrefixLength(before, after, shorter);
  const ends = { start, tail: commonSuffixLength(before, after, shorter - start) };
  // A huge text's previous version is not held on to: only the parse asks about texts that long (the rules' memo
  // stops at 256 KiB), so the answer would not be asked for again.
  last = after.length <= keptUpTo ? { before, after, ends } : undefined;
  return ends;
}

const keptUpTo = 256 * 1024;
let last: { before: string; after: string; ends: CommonEnds } | undefined;
