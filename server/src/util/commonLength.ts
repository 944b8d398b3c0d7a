/**
 * How many characters `a` and `b` share from the start, up to `limit`: found by halving the span still in doubt
 * and comparing it as strings, since a string comparison runs in C++ and a loop over characters in JS (a keystroke
 * on a 1 KB config: 21 µs by characters in the server, a few µs so). Each character is compared about once.
 */
export function commonPrefixLength(a: string, b: string, limit: number): number {
  return commonLength(a, b, limit, (s, from, to) => s.slice(from, to));
}

/** How many characters `a` and `b` share at the end, up to `limit`, as `commonPrefixLength`. */
export function commonSuffixLength(a: string, b: string, limit: number): number {
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
