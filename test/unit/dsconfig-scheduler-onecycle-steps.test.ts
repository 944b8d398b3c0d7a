import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, diagnose } from './dsconfig-validation-helpers';

const oneCycle = (params: Record<string, unknown>) => ({
  train_micro_batch_size_per_gpu: 1,
  optimizer: { type: 'AdamW', params: { lr: 1e-4 } },
  scheduler: { type: 'OneCycle', params: { cycle_min_lr: 1e-5, cycle_max_lr: 1e-3, ...params } },
});

test('OneCycle step sizes and stair counts may be fractions: DeepSpeed does float arithmetic with them (lr_schedules.py:495-497, 574-580)', () => {
  assert.deepEqual(codesOf(diagnose(oneCycle({ cycle_first_step_size: 1000.5, cycle_first_stair_count: 2.5, cycle_second_step_size: 10.5, decay_step_size: 10.5 }))), []);
});

test('OneCycle: a first step size of 0 is still refused (ValueError "must be positive")', () => {
  assert.deepEqual(codesOf(diagnose(oneCycle({ cycle_first_step_size: 0 }))), ['out-of-range']);
});
