import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCount, formatGiB, formatGiBValue, formatGpuCount, GiB } from '../../server/src/protocol';

test('sizes have one rounding rule everywhere: one decimal, thousands grouped, tiny sizes not shown as zero', () => {
  assert.equal(formatGiB(0), '0 GiB');
  assert.equal(formatGiB(1_000), '< 0.1 GiB');
  assert.equal(formatGiB(0.049 * GiB), '< 0.1 GiB');
  assert.equal(formatGiB(0.05 * GiB), '0.1 GiB');
  assert.equal(formatGiB(1.234 * GiB), '1.2 GiB');
  assert.equal(formatGiB(19.24 * GiB), '19.2 GiB');
  assert.equal(formatGiB(999.94 * GiB), '999.9 GiB');
  assert.equal(formatGiB(1536 * GiB), '1,536 GiB');
  assert.equal(formatGiB(Number.NaN), '? GiB');
  assert.equal(formatGiBValue(80 * GiB), '80.0');
});

test('counts and GPU counts are written as people say them', () => {
  assert.equal(formatCount(8.19e9), '8.19B');
  assert.equal(formatCount(671e9), '671B');
  assert.equal(formatCount(125e6), '125M');
  assert.equal(formatCount(1.5e12), '1.5T');
  assert.equal(formatCount(950), '950');
  assert.equal(formatGpuCount(1, 1), '1 GPU');
  assert.equal(formatGpuCount(8, 2), '16 GPUs (2 nodes × 8)');
});
