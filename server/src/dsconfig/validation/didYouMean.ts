import { editDistance } from '../../util/editDistance';

/** Removes case, `-` and `_` differences: "Train-Batch-Size" and "train_batch_size" are the same intent. */
function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

/**
 * Known keys close enough to `key` to be what the user meant, best first (at most `max`).
 * Close = small edit distance relative to length, or the same words in another case/separator.
 */
export function didYouMean(key: string, known: Iterable<string>, max = 3): string[] {
  const wanted = normalize(key);
  const limit = Math.max(1, Math.min(4, Math.floor(wanted.length / 3)));
  const scored: { name: string; score: number }[] = [];
  for (const name of known) {
    if (name === key) continue;
    const candidate = normalize(name);
    let score = candidate === wanted ? 0 : editDistance(wanted, candidate, limit);
    // A half-typed long key ("stage3_prefetch") or a spelled-out short one ("offload_parameters") is likely meant.
    if (score > limit && Math.min(wanted.length, candidate.length) >= 6 && (candidate.startsWith(wanted) || wanted.startsWith(candidate))) score = limit;
    if (score <= limit) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}
