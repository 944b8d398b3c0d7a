import type { CatalogEntry } from '../messages';

/**
 * The sidebar's model search: a query matches an entry when it is part of the entry's hub id, one of its
 * aliases (ModelScope ids, Instruct/Chat/-it releases, re-uploads) or its display name, ignoring case.
 * Pure, so the ranking is tested without a webview.
 */
export interface CatalogMatch {
  entry: CatalogEntry;
  /** The name the query matched: the display name, the id, or an alias. */
  matched: string;
}

/** Best first: an exact name, then a name the query starts (after the org), then any; display names before ids before aliases. */
function score(name: string, query: string, kind: number): number {
  const n = name.toLowerCase();
  const tail = n.slice(n.lastIndexOf('/') + 1);
  const exact = n === query || tail === query ? 0 : tail.startsWith(query) || n.startsWith(query) ? 1 : 2;
  return exact * 10 + kind;
}

export function searchCatalog(entries: readonly CatalogEntry[], query: string, limit = 100): CatalogMatch[] {
  const q = query.trim().toLowerCase();
  if (!q) return entries.slice(0, limit).map((entry) => ({ entry, matched: entry.displayName }));
  const found: Array<CatalogMatch & { score: number; order: number }> = [];
  entries.forEach((entry, order) => {
    const names: Array<[string, number]> = [[entry.displayName, 0], [entry.id, 1], ...(entry.aliases ?? []).map((a): [string, number] => [a, 2])];
    let best: { name: string; score: number } | undefined;
    for (const [name, kind] of names) {
      if (!name.toLowerCase().includes(q)) continue;
      const s = score(name, q, kind);
      if (!best || s < best.score) best = { name, score: s };
    }
    if (best) found.push({ entry, matched: best.name, score: best.score, order });
  });
  found.sort((a, b) => a.score - b.score || a.order - b.order);
  return found.slice(0, limit).map(({ entry, matched }) => ({ entry, matched }));
}
