import { editDistance } from '../../util/editDistance';

/** The candidate a misspelt name probably meant (case and `-`/`_` aside, a third of its letters off at most). */
export function closest(written: string, candidates: Iterable<string>): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const w = squash(written);
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const limit = Math.max(1, Math.floor(squash(name).length / 3));
    const d = editDistance(w, squash(name), limit);
    if (d <= limit && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}
