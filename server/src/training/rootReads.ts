import { sameItems } from '../util/sameItems';

/**
 * Which top-level keys of a parsed config a computation read, and what it found there, so that the next version
 * of the document can reuse the result when it holds the same there. A keystroke inside one value (literalEdit.ts)
 * shares every untouched object with the previous version's parse, so a value below the top level is compared by
 * identity: the same object has the same contents. A key read and absent is recorded as absent; a list of the keys
 * (Object.keys, for…in) records that the whole key set was read.
 */
export class RootReads {
  private readonly values = new Map<PropertyKey, unknown>();
  private readonly present = new Map<PropertyKey, boolean>();
  private keys?: string[];
  /** The last root found to give the same answers (a parsed value is never changed). */
  private sameAs?: object;

  private constructor(private readonly root: object) {}

  /** `root` behind a view that records every read of its own keys into the returned `reads`. */
  static track(root: object): { view: object; reads: RootReads } {
    const reads = new RootReads(root);
    const view = new Proxy(root, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key);
        if (!reads.values.has(key)) reads.values.set(key, value);
        return value;
      },
      has: (target, key) => {
        const found = Reflect.has(target, key);
        if (!reads.present.has(key)) reads.present.set(key, found);
        return found;
      },
      // Object.keys asks for each key's descriptor to see that it is enumerable: that reads whether the key is
      // there, not its value (Object.entries and for…of read values through `get`).
      getOwnPropertyDescriptor: (target, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
        if (!reads.present.has(key)) reads.present.set(key, descriptor !== undefined);
        return descriptor;
      },
      ownKeys: (target) => {
        const keys = Reflect.ownKeys(target);
        reads.keys ??= keys.filter((k): k is string => typeof k === 'string');
        return keys;
      },
    });
    return { view, reads };
  }

  /** Whether every read made on the tracked root gives the same answer on `other`. */
  sameOn(other: object): boolean {
    // A keystroke asks twice (the estimate's checks, the DeepSpeed checks' world size): the second is free.
    if (other === this.root || other === this.sameAs) return true;
    let same = true;
    // forEach, not for…of: no [key, value] pair per read and keystroke.
    this.values.forEach((value, key) => (same &&= Object.is(Reflect.get(other, key), value)));
    this.present.forEach((found, key) => (same &&= Reflect.has(other, key) === found));
    if (same && this.keys) {
      const keys = Object.keys(other);
      same = sameItems(keys, this.keys);
    }
    if (same) this.sameAs = other;
    return same;
  }
}
