import type { TextDocument } from 'vscode-languageserver-textdocument';

interface Entry<T> {
  uri: string;
  version: number;
  text: string;
  value: T;
}

/**
 * Computes a value once per document version (parse once, answer many requests).
 * Keeps the most recently used `capacity` documents.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** The entry used last: one request asks for it many times, and then the LRU order needs no update. */
  private latest: Entry<T> | undefined;

  /**
   * `dropped`: told the length of a stale version's text once nothing here holds it any more, before the new
   * version is computed (the server collects the garbage of a huge one then, see server.ts).
   */
  constructor(
    private readonly compute: (document: TextDocument) => T,
    private readonly capacity = 32,
    private readonly dropped?: (length: number) => void,
  ) {}

  get(document: TextDocument): T {
    // No local variable holds `latest`: it is often the stale version, which must not live on during compute.
    if (this.latest && this.latest.uri === document.uri && isCurrent(this.latest, document)) return this.latest.value;
    const hit = this.current(document);
    if (hit) return hit.value;
    // A stale version goes before the new one is computed (and no local variable here holds it meanwhile):
    // both of a huge document would not fit together.
    this.dropStale(document);
    const value = this.compute(document);
    const entry = { uri: document.uri, version: document.version, text: document.getText(), value };
    this.entries.delete(document.uri);
    this.entries.set(document.uri, entry);
    this.latest = entry;
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  /** The cached entry of this version, made the most recently used; undefined when it is not cached. */
  private current(document: TextDocument): Entry<T> | undefined {
    const hit = this.entries.get(document.uri);
    if (!hit || !isCurrent(hit, document)) return undefined;
    this.entries.delete(document.uri);
    this.entries.set(document.uri, hit);
    this.latest = hit;
    return hit;
  }

  /** Drops the document's value when it is of another version (told to `dropped`): before a new one is made in slices, too. */
  dropStale(document: TextDocument): void {
    // Only the length is kept: `dropped` may collect the garbage, and a variable holding the entry would keep it.
    const length = this.staleLength(document);
    if (length === undefined) return;
    this.forget(document.uri);
    this.dropped?.(length);
  }

  private staleLength(document: TextDocument): number | undefined {
    const entry = this.entries.get(document.uri);
    return entry && !isCurrent(entry, document) ? entry.text.length : undefined;
  }

  /** Whether this version is cached, without computing it. */
  has(document: TextDocument): boolean {
    const hit = this.entries.get(document.uri);
    return !!hit && isCurrent(hit, document);
  }

  forget(uri: string): void {
    this.entries.delete(uri);
    if (this.latest?.uri === uri) this.latest = undefined;
  }

  /** Forget every document (what the values were computed from changed). */
  clear(): void {
    this.entries.clear();
    this.latest = undefined;
  }
}

/** The text check keeps tests and the CLI honest when they reuse a version number. */
function isCurrent(entry: Entry<unknown>, document: TextDocument): boolean {
  if (entry.version !== document.version) return false;
  const text = document.getText();
  return entry.text.length === text.length && entry.text === text;
}
