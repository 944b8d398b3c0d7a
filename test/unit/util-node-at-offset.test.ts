import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findNodeAtOffset, parseTree } from 'jsonc-parser';
import { nodeAtOffset } from '../../server/src/util/nodeAtOffset';
import { benchDocuments } from '../../bench/documents';

/** Every offset of `text`, and one past its end, answered as jsonc-parser's linear scan answers it. */
function assertSameAsLinearScan(text: string): void {
  const root = parseTree(text);
  assert.ok(root);
  for (let offset = -1; offset <= text.length + 1; offset++) {
    const expected = findNodeAtOffset(root, offset, false);
    assert.equal(nodeAtOffset(root, offset), expected, `offset ${offset}`);
  }
}

test('finds the same node as findNodeAtOffset at every offset of a config with nesting and arrays', () => {
  assertSameAsLinearScan('{\n  "a": 1,\n  "b": { "c": [1, 22, { "d": "x" }], "e": [] },\n  "f": {}\n}\n');
});

test('finds the same node on keys, colons, commas and whitespace of a syntax-broken config', () => {
  assertSameAsLinearScan('{ "a": , "b": [1, , 3], "c": { "d" } ');
});

test('finds the same node at every offset of the 2,000-line bench config (many groups, long arrays)', () => {
  const large = benchDocuments()[1].text;
  const root = parseTree(large)!;
  // Every 7th offset keeps the linear scan's quadratic cost out of the test's runtime.
  for (let offset = 0; offset < large.length; offset += 7) assert.equal(nodeAtOffset(root, offset), findNodeAtOffset(root, offset, false), `offset ${offset}`);
});

test('a scalar node is found with its parent chain intact (hover reads its path)', () => {
  const text = '{ "zero_optimization": { "stage": 3 } }';
  const node = nodeAtOffset(parseTree(text)!, text.indexOf('3'));
  assert.equal(node?.type, 'number');
  assert.equal(node?.parent?.children?.[0].value, 'stage');
});
