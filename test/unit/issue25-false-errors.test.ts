/**
 * The false errors issue 25 found in real configs, each kept false: values DeepSpeed never checks, a key the
 * framework's own optimizer makes irrelevant, and a stage-only key that AutoTP reads at any stage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, configWith, diagnose, errorsOf, withCode } from './dsconfig-validation-helpers';

test('quantization_period 0 in a compression group is no error (never read when start and target bits are equal)', () => {
  const group = { params: { start_bits: 8, target_bits: 8, quantization_period: 0 }, modules: ['attention.self'] };
  const config = configWith({ compression_training: { weight_quantization: { shared_parameters: { enabled: true }, different_groups: { wq1: group } } } });
  assert.deepEqual(errorsOf(diagnose(config)).map((d) => d.message), []);
});

test('model_mask_name: null is a supported value, not a type error', () => {
  const config = configWith({ data_efficiency: { enabled: true, data_routing: { enabled: true, random_ltd: { enabled: true, model_mask_name: null, model_type: 'decoder' } } } });
  const at = diagnose(config).filter((d) => JSON.stringify(d.data ?? {}).includes('model_mask_name'));
  assert.deepEqual(codesOf(at), []);
});

test('max_grad_norm in optimizer params is a warning (a framework that passes its own optimizer never builds the block)', () => {
  const [d] = withCode(diagnose(configWith({ optimizer: { params: { max_grad_norm: 1.0 } } })), 'max-grad-norm-in-optimizer');
  assert.equal(d?.severity, DiagnosticSeverity.Warning);
  assert.match(String(d.message), /Megatron/);
});

test('stage3_gather_16bit_weights_on_model_save is not called ignored below ZeRO-3 when AutoTP is on (accelerate reads it on save)', () => {
  const gather = { zero_optimization: { stage: 2, stage3_gather_16bit_weights_on_model_save: true } };
  const ignored = (config: object) => diagnose(config).filter((d) => /stage3_gather_16bit_weights_on_model_save/.test(String(d.message)));
  assert.ok(ignored(configWith(gather)).length > 0, 'without AutoTP the key is ignored at stage 2');
  assert.deepEqual(codesOf(ignored(configWith({ ...gather, tensor_parallel: { autotp_size: 2 } }))), []);
});
