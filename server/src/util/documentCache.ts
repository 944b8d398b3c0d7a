import type { TextDocument } from 'vscode-languageserver-textdocument';

/**
 * Computes a value once per document version (parse once, answer many requests).
 * Keeps the most recently used `capacity` documents.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: number; text: string; value: T }>();

  constructor(
    private readonly compute: (document: TextDocument) => T,
    private readonly capacity = 32,
  ) {}

  get(document: TextDocument): T {
    const hit = this.entries.get(document.uri);
    // The text check keeps tests and the CLI honest when they reuse a version number.
    if (hit && hit.version === document.version && hit.text.length === document.getText().length && hit.text === document.getText()) {
      this.entries.delete(document.uri);
      this.entries.set(document.uri, hit);
      return hit.value;
    }
    const value = this.compute(document);
    this.entries.delete(document.uri);
    this.entries.set(document.uri, { version: document.version, text: document.getText(), value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  /** Whether this version is cached, without computing it. */
  has(document: TextDocument): boolean {
    const hit = this.entries.get(document.uri);
    return !!hit && hit.version === document.version && hit.text === document.getText();
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }

  /** Forget every document (what the values were computed from changed). */
  clear(): void {
    this.entries.clear();
  }
}
