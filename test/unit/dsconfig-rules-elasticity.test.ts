import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, diagnose, fixed } from './dsconfig-validation-helpers';

const elastic = (settings: Record<string, unknown>) => ({ elasticity: { enabled: true, max_train_batch_size: 64, micro_batch_sizes: [2, 4], ...settings } });

test('elasticity: the version, model-parallel and per-node checks compute_elastic_config makes', () => {
  // elasticity.py:348 NotImplementedError for anything but 0.1 and 0.2; :301 ElasticityConfigError above 0.2.
  assert.deepEqual(codesOf(diagnose(elastic({ version: 0.15 }))), ['elasticity-invalid']);
  assert.deepEqual(codesOf(diagnose(elastic({ version: 0.3 }))), ['elasticity-invalid']);
  assert.deepEqual(codesOf(diagnose(elastic({ version: 'latest' }))), ['elasticity-invalid']);
  // :296 model parallelism needs 0.2.
  assert.deepEqual(codesOf(diagnose(elastic({ version: 0.1, model_parallel_size: 2 }))), ['elasticity-invalid']);
  // :145 num_gpus_per_node % model_parallel_size, also with num_gpus_per_node left at its default 1.
  assert.deepEqual(codesOf(diagnose(elastic({ num_gpus_per_node: 4, model_parallel_size: 3 }))), ['elasticity-invalid']);
  assert.deepEqual(codesOf(diagnose(elastic({ model_parallel_size: 2 }))), ['elasticity-invalid']);
  // Every use is float(version): a string "0.2" works (audit 12b).
  assert.deepEqual(diagnose(elastic({ version: '0.2' })), []);
  // Off, DeepSpeedConfig never calls compute_elastic_config.
  assert.deepEqual(diagnose({ train_micro_batch_size_per_gpu: 1, elasticity: { enabled: false, version: 0.15 } }), []);
});

test('elasticity: a micro batch written 2.0 is a float through json.load, which ElasticityConfig refuses', async () => {
  const text = '{"elasticity": {"enabled": true, "max_train_batch_size": 64, "micro_batch_sizes": [2.0, 4]}}';
  assert.deepEqual(codesOf(diagnose(text)), ['integer-written-as-float']);
  assert.equal(await fixed(text, 'Write it as 2'), text.replace('2.0', '2'));
});

test('an unsupported elasticity version is fixed to 0.2', async () => {
  const text = '{"elasticity": {"enabled": true, "max_train_batch_size": 64, "micro_batch_sizes": [2, 4], "version": 0.15}}';
  assert.equal(await fixed(text, 'Use version 0.2'), text.replace('0.15', '0.2'));
});

test('elasticity configs from DeepSpeed\'s own tests are clean', () => {
  // tests/unit/elasticity/test_elastic.py: the ds_config fixture (v0.1) and the model-parallel v0.2 case.
  assert.deepEqual(diagnose({ elasticity: { enabled: true, max_train_batch_size: 10000, micro_batch_sizes: [8, 12, 16, 17], min_gpus: 32, max_gpus: 1500, min_time: 20, version: 0.1 } }), []);
  assert.deepEqual(diagnose({ elasticity: { enabled: true, max_train_batch_size: 10000, micro_batch_sizes: [8, 12, 16, 17], min_gpus: 32, max_gpus: 1500, min_time: 20, version: 0.2, model_parallel_size: 4, num_gpus_per_node: 8 } }), []);
});
