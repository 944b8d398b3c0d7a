import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { VersionedCache } from '../../server/src/util/documentCache';

/** A cache that counts how often it computes, and answers with the text and a serial number. */
function countingCache(capacity?: number) {
  let computed = 0;
  const cache = new VersionedCache((d: TextDocument) => `${d.getText()}#${++computed}`, capacity);
  return { cache, computed: () => computed };
}

const doc = (uri: string, version: number, text: string) => TextDocument.create(uri, 'json', version, text);

test('computes once per version, however often and in whatever order documents are asked for', () => {
  const { cache, computed } = countingCache();
  const a = doc('file:///a.json', 1, '{}');
  const b = doc('file:///b.json', 1, '[]');
  assert.equal(cache.get(a), '{}#1');
  assert.equal(cache.get(a), '{}#1');
  assert.equal(cache.get(b), '[]#2');
  assert.equal(cache.get(a), '{}#1');
  assert.equal(cache.get(b), '[]#2');
  assert.equal(computed(), 2);
  assert.equal(cache.has(a), true);
});

test('a new version, or other text under a reused version number, is computed again', () => {
  const { cache } = countingCache();
  const a = doc('file:///a.json', 1, '{}');
  cache.get(a);
  TextDocument.update(a, [{ text: '{ "x": 1 }' }], 2);
  assert.equal(cache.get(a), '{ "x": 1 }#2');
  assert.equal(cache.get(doc('file:///a.json', 2, '{ "x": 2 }')), '{ "x": 2 }#3', 'same version, other text (the CLI and tests reuse versions)');
  assert.equal(cache.has(doc('file:///a.json', 2, '{ "x": 1 }')), false);
});

test('forget and clear drop what was computed, including the entry used last', () => {
  const { cache } = countingCache();
  const a = doc('file:///a.json', 1, '{}');
  const b = doc('file:///b.json', 1, '[]');
  cache.get(b);
  cache.get(a);
  cache.forget('file:///a.json');
  assert.equal(cache.has(a), false);
  assert.equal(cache.get(a), '{}#3');
  assert.equal(cache.get(b), '[]#1', 'forgetting one document keeps the others');
  cache.clear();
  assert.equal(cache.get(b), '[]#4');
});

test('keeps the most recently used documents up to its capacity', () => {
  const { cache } = countingCache(2);
  const [a, b, c] = ['a', 'b', 'c'].map((n) => doc(`file:///${n}.json`, 1, n));
  cache.get(a);
  cache.get(b);
  cache.get(a); // a is now more recent than b
  cache.get(c); // evicts b
  assert.equal(cache.has(a), true);
  assert.equal(cache.has(b), false);
  assert.equal(cache.has(c), true);
});

test('a stale version is dropped, and said so with its length, before the new one is computed', () => {
  const events: string[] = [];
  const cache = new VersionedCache(
    (d: TextDocument) => {
      events.push(`compute ${d.version}`);
      return { value: d.getText() };
    },
    undefined,
    (length) => events.push(`dropped ${length}`),
  );
  const a = doc('file:///big.sh', 1, 'x'.repeat(10));
  const first = cache.get(a);
  assert.equal(cache.get(a), first, 'the same version is not computed again, and nothing is dropped');
  TextDocument.update(a, [{ text: 'y'.repeat(20) }], 2);
  assert.equal(cache.get(a).value, 'y'.repeat(20));
  assert.deepEqual(events, ['compute 1', 'dropped 10', 'compute 2']);
  cache.forget(a.uri);
  cache.get(a);
  assert.deepEqual(events.slice(3), ['compute 2'], 'a forgotten document is not stale: nothing to drop');
});

test('dropStale lets a stale version go and says so, before a new one is made elsewhere (in slices); the current one stays', () => {
  const dropped: number[] = [];
  const cache = new VersionedCache((d: TextDocument) => d.getText(), undefined, (length) => dropped.push(length));
  const a = doc('file:///big.sh', 1, 'x'.repeat(10));
  cache.get(a);
  cache.dropStale(a);
  assert.equal(cache.has(a), true, 'the current version is kept');
  TextDocument.update(a, [{ text: 'y'.repeat(20) }], 2);
  cache.dropStale(a);
  assert.deepEqual(dropped, [10]);
  cache.dropStale(a);
  assert.deepEqual(dropped, [10], 'nothing left to drop');
  assert.equal(cache.get(a), 'y'.repeat(20));
});
