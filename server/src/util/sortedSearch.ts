/** How many entries of an ascending list are below `limit` (the index of the first one that is not), by binary search. */
export function countBelow(ascending: readonly number[], limit: number): number {
  let lo = 0;
  let hi = ascending.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ascending[mid] < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
