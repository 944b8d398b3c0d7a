/**
 * The core bundles each catalog keyed by a hash of the English text (server/src/l10n/messageHash.ts): the
 * translator must give every message the core uses the catalog's text, in the build's table and in the one the
 * source computes at load, and no two messages may share a hash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundleTranslator } from '../../server/src/protocol/l10n';
import { hashedCatalog, messageHash } from '../../server/src/l10n/messageHash';
import { translator } from '../../server/src/l10n';
import { bundleLocales, coreBundle, coreSourceFiles, readBundle, scan } from '../../scripts/l10n';

const coreMessages = [...new Set(scan(coreSourceFiles()).messages.map((m) => m.key))];

test('the core’s catalog as the build writes it translates every message the core uses as the catalog does, and holds no other', () => {
  assert.ok(coreMessages.length > 1000, `${coreMessages.length} messages`);
  for (const locale of bundleLocales()) {
    const catalog = readBundle(locale);
    const table = coreBundle(locale);
    const t = bundleTranslator(table, messageHash);
    const translated = coreMessages.filter((key) => key in catalog);
    for (const key of coreMessages) assert.equal(t(key), catalog[key] || key, `${locale}: ${key}`);
    assert.equal(Object.keys(table).length, translated.length, `${locale}: one entry per translated message of the core`);
    // The sidebar's messages are the client's (dist/l10n): the core's table leaves them out.
    assert.ok(!Object.values(table).includes(catalog['Search the catalog (Hugging Face or ModelScope id)']), `${locale}: a client-only message`);
  }
});

test('the source’s catalog, hashed at load, translates every catalog key', () => {
  const catalog = readBundle('zh-cn');
  const t = translator('zh-cn');
  // Keys with a comment (`text/comment`) read as the object form asks for them; a key without arguments is its template.
  for (const [key, text] of Object.entries(catalog)) assert.equal(t(key), text || key, key);
  assert.equal(t('Not a message of ZeRO Lens {0}', 1), 'Not a message of ZeRO Lens 1', 'a missing entry reads in English');
});

test('a hash shared by two messages fails the table instead of translating one as the other', () => {
  const seen = new Map<string, string>();
  let pair: [string, string] | undefined;
  for (let i = 0; !pair; i++) {
    const key = `message ${i}`;
    const other = seen.get(messageHash(key));
    if (other !== undefined) pair = [other, key];
    else seen.set(messageHash(key), key);
  }
  assert.throws(() => hashedCatalog({ [pair[0]]: 'a', [pair[1]]: 'b' }), /share the hash/);
  assert.throws(() => hashedCatalog({ [pair[0]]: 'a' }, pair), /share the hash/, 'a message without a translation counts too');
  assert.deepEqual(hashedCatalog({ [pair[0]]: 'a', x: 'y' }, [pair[0]]), { [messageHash(pair[0])]: 'a' });
});
