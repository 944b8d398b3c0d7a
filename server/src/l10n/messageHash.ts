/**
 * The core bundles its catalogs keyed by a hash of the English text instead of the text itself: the text is in
 * the code already, where `t('…')` reads it, and as keys it took about 20 KiB of the VSIX a second time. The
 * build writes the hashed catalog (`scripts/l10n.ts core-bundle`); the source computes the same one at load
 * (`zhCnCatalog.ts`). Every message the code uses is checked against every catalog key for a shared hash
 * (test/unit/l10n-hashed-catalog.test.ts, and the build), so a hash names one message.
 */

/** FNV-1a over the key's UTF-16 code units, 32 bits, in base 36 (at most 7 characters). */
export function messageHash(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** A catalog (English key → text) keyed by `messageHash` instead; throws when two of `keys` share a hash. */
export function hashedCatalog(catalog: Readonly<Record<string, string>>, keys: readonly string[] = Object.keys(catalog)): Record<string, string> {
  const hashed: Record<string, string> = {};
  const named = new Map<string, string>();
  for (const key of keys) {
    const hash = messageHash(key);
    const other = named.get(hash);
    if (other !== undefined && other !== key) throw new Error(`messageHash: ${JSON.stringify(key)} and ${JSON.stringify(other)} share the hash ${hash}`);
    named.set(hash, key);
    if (Object.prototype.hasOwnProperty.call(catalog, key)) hashed[hash] = catalog[key];
  }
  return hashed;
}
