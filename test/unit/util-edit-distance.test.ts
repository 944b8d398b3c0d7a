import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editDistance } from '../../server/src/util/editDistance';

test('edit distance: insertions, deletions and substitutions cost 1 each', () => {
  assert.equal(editDistance('', ''), 0);
  assert.equal(editDistance('stage', 'stage'), 0);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('abc', ''), 3);
  assert.equal(editDistance('zero2', 'zero3'), 1);
  assert.equal(editDistance('zro2', 'zero2'), 1);
  assert.equal(editDistance('zero2_offload', 'zero2'), 8);
  assert.equal(editDistance('kitten', 'sitting'), 3);
});

test('edit distance: a swapped adjacent pair costs 1 (optimal string alignment), not 2', () => {
  assert.equal(editDistance('stgae', 'stage'), 1);
  assert.equal(editDistance('ab', 'ba'), 1);
  // OSA edits each substring at most once, so "ca" → "abc" is 3, not the 2 of unrestricted Damerau.
  assert.equal(editDistance('ca', 'abc'), 3);
});

test('edit distance: symmetric', () => {
  for (const [a, b] of [['offload_param', 'offload_parameters'], ['stgae', 'stage'], ['ds_config_zro2.json', 'ds_config_zero2.json']]) {
    assert.equal(editDistance(a, b), editDistance(b, a));
  }
});

test('edit distance: with a limit, anything farther answers limit + 1 and anything nearer is exact', () => {
  assert.equal(editDistance('learning_rate', 'stage', 2), 3);
  assert.equal(editDistance('abcdefgh', 'a', 3), 4, 'the length difference alone is over the limit');
  assert.equal(editDistance('stgae', 'stage', 1), 1);
  assert.equal(editDistance('kitten', 'sitting', 3), 3);
  assert.equal(editDistance('kitten', 'sitting', 2), 3);
});
