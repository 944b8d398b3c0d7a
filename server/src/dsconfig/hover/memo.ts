import type { SchemaNode } from '../schemaIndex';

/** Entries kept per schema node: paths into long arrays must not grow a cache without bound. */
const maxEntriesPerNode = 256;

/**
 * Caches text derived from a schema node and a few plain facts (path, ZeRO stage, value). Schema nodes never
 * change, so an entry never goes stale; it saves rebuilding the same markdown on every hover and for every
 * completion item on every request.
 */
export class NodeMemo<T> {
  private readonly byNode = new WeakMap<SchemaNode, Map<string, T>>();

  get(node: SchemaNode, key: string, compute: () => T): T {
    let entries = this.byNode.get(node);
    if (!entries) {
      entries = new Map();
      this.byNode.set(node, entries);
    }
    if (entries.has(key)) return entries.get(key) as T;
    const value = compute();
    if (entries.size >= maxEntriesPerNode) entries.clear();
    entries.set(key, value);
    return value;
  }
}
