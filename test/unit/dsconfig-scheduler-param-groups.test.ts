import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, diagnose, errorsOf } from './dsconfig-validation-helpers';

const withScheduler = (type: string, params: Record<string, unknown>) => ({
  train_micro_batch_size_per_gpu: 1,
  optimizer: { type: 'AdamW', params: { lr: 1e-4 } },
  scheduler: { type, params },
});

test('WarmupDecayLR takes a per-group list and a null warmup_max_lr (lr_schedules.py:278-285, 713-717)', () => {
  assert.deepEqual(codesOf(diagnose(withScheduler('WarmupDecayLR', { total_num_steps: 1000, warmup_min_lr: [0, 0], warmup_max_lr: null }))), []);
});

test('per-group lists for WarmupLR, OneCycle and LRRangeTest are clean; a negative entry is a warning (the scheduler writes it into the optimizer unchecked)', () => {
  assert.deepEqual(codesOf(diagnose(withScheduler('WarmupLR', { warmup_min_lr: [0, 0], warmup_max_lr: [1e-4, 2e-4] }))), []);
  assert.deepEqual(codesOf(diagnose(withScheduler('OneCycle', { cycle_min_lr: [1e-5, 1e-5], cycle_max_lr: 1e-3, cycle_min_mom: [0.85, 0.8], cycle_max_mom: 0.9 }))), []);
  assert.deepEqual(codesOf(diagnose(withScheduler('LRRangeTest', { lr_range_test_min_lr: [1e-5, 1e-5] }))), []);
  // _format_param checks only the list's length (lr_schedules.py:278-285); update_lr writes each entry as it is.
  const negative = diagnose(withScheduler('WarmupLR', { warmup_min_lr: [0, -1] }));
  assert.deepEqual(codesOf(negative), ['out-of-range']);
  assert.equal(errorsOf(negative).length, 0);
  assert.match(String(negative[0].message), /the scheduler writes it into the optimizer as given/);
});
