/**
 * The rejections DeepSpeed's unit tests expect that ZeRO Lens used to miss (scripts/deepspeed-oracle/REPORT.md),
 * each with the accepted neighbour it must not flag.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigText } from '../../server/src/dsconfig/parse';
import { codesOf, diagnose, errorsOf } from './dsconfig-validation-helpers';

const micro = '"train_micro_batch_size_per_gpu": 1';

test('Infinity, -Infinity and NaN are values Python reads, not syntax errors; 1e400 is infinite too', () => {
  const parsed = parseConfigText('{"a": Infinity, "b": -Infinity, "c": NaN, "d": 1e400, "e": [NaN]}');
  assert.deepEqual(parsed.syntaxErrors, []);
  const value = parsed.value as Record<string, unknown>;
  assert.equal(value.a, Infinity);
  assert.equal(value.b, -Infinity);
  assert.ok(Number.isNaN(value.c));
  assert.equal(value.d, Infinity);
  assert.ok(Number.isNaN((value.e as number[])[0]));
  assert.deepEqual(parsed.pythonNumbers.map((t) => t.text), ['Infinity', '-Infinity', 'NaN', 'NaN']);
  // -NaN is not something json.loads reads: still a syntax error.
  assert.ok(parseConfigText('{"a": -NaN}').syntaxErrors.length > 0);
});

test('fp16 loss-scale values that are not finite are refused (precision_config.py:130, :175)', () => {
  for (const [field, value] of [['loss_scale', 'Infinity'], ['loss_scale', 'NaN'], ['loss_scale_window', 'NaN'], ['min_loss_scale', 'Infinity']]) {
    const scale = field === 'loss_scale' ? '' : '"loss_scale": 0, ';
    const diagnostics = diagnose(`{${micro}, "fp16": {"enabled": true, ${scale}"${field}": ${value}}}`);
    const errors = errorsOf(diagnostics);
    assert.deepEqual(codesOf(errors), ['non-finite-number'], `${field}: ${value}`);
    assert.match(String(errors[0].message), /precision_config\.py:1(30|75)/);
  }
  // A float field takes inf: a warning that it is not JSON, not an error.
  const clip = diagnose(`{${micro}, "gradient_clipping": Infinity}`);
  assert.deepEqual(codesOf(errorsOf(clip)), []);
  assert.deepEqual(codesOf(clip), ['non-finite-number']);
  // An int field cannot hold it.
  assert.deepEqual(codesOf(errorsOf(diagnose(`{${micro}, "zero_optimization": {"stage": 2, "reduce_bucket_size": 1e400}}`))), ['non-finite-number']);
});

test('loss_scale_window and min_loss_scale as true/false are refused whether or not fp16 is on (precision_config.py:173)', () => {
  for (const enabled of [true, false]) {
    for (const field of ['loss_scale_window', 'min_loss_scale']) {
      const errors = errorsOf(diagnose(`{${micro}, "fp16": {"enabled": ${enabled}, "loss_scale": 0, "${field}": true}}`));
      assert.deepEqual(codesOf(errors), ['boolean-as-integer']);
      assert.doesNotMatch(String(errors[0].message), /reads it as 1/);
    }
  }
  // Other pydantic ints still read a bool as 1 (a warning).
  assert.deepEqual(codesOf(errorsOf(diagnose(`{${micro}, "fp16": {"enabled": true, "hysteresis": true}}`))), []);
});

test('Apex AMP with a 16-bit grad_accum_dtype raises NotImplementedError (engine.py:2000)', () => {
  const base = { train_batch_size: 1, amp: { enabled: true }, zero_optimization: { stage: 0 }, optimizer: { type: 'Adam', params: { lr: 0.001 } } };
  for (const dtype of ['fp16', 'bf16']) assert.deepEqual(codesOf(errorsOf(diagnose({ ...base, data_types: { grad_accum_dtype: dtype } }))), ['amp-grad-accum-dtype']);
  assert.deepEqual(codesOf(errorsOf(diagnose({ ...base, data_types: { grad_accum_dtype: 'fp32' } }))), []);
});

test('an odd allgather_bucket_size fails ZeRO-1/2 (stage_1_and_2.py:349), not ZeRO-3 or the BF16 optimizer', () => {
  const config = (stage: number, extra: object = {}) => ({ train_micro_batch_size_per_gpu: 2, zero_optimization: { stage, allgather_bucket_size: 1001 }, optimizer: { type: 'Adam', params: { lr: 0.001 } }, bf16: { enabled: true }, ...extra });
  assert.deepEqual(codesOf(errorsOf(diagnose(config(2)))), ['allgather-bucket-size-odd']);
  assert.deepEqual(codesOf(errorsOf(diagnose(config(1)))), ['allgather-bucket-size-odd']);
  assert.deepEqual(codesOf(errorsOf(diagnose(config(3)))), []);
  assert.deepEqual(codesOf(errorsOf(diagnose(config(1, { data_types: { grad_accum_dtype: 'fp32' } })))), []);
});

test("Comet's experiment_key is passed on unchecked: no pattern error", () => {
  assert.deepEqual(codesOf(errorsOf(diagnose({ train_batch_size: 2, comet: { enabled: true, experiment_key: 'some-experiment-key' } }))), []);
});
