import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, fixed, missingKeysOf } from './dsconfig-validation-helpers';

const zero3 = (weightQuantization: Record<string, unknown>) => ({
  fp16: { enabled: true },
  zero_optimization: { stage: 3, stage3_prefetch_bucket_size: 2 * 768 * 768, stage3_param_persistence_threshold: 768, stage3_max_live_parameters: 2 * 768 * 768 },
  steps_per_print: 2000,
  train_micro_batch_size_per_gpu: 1,
  wall_clock_breakdown: false,
  weight_quantization: weightQuantization,
});
const missing = (config: object) => missingKeysOf(diagnose(config));

test('weight_quantization: the Quantizer reads num_bits, symmetric, group_size and group_dim with no default', () => {
  // inference/quantization/utils.py:47-58, through zero.Init (partition_parameters.py:1232) or post-init quantization.
  assert.deepEqual(missing(zero3({ quantized_initialization: { group_size: 64 } })), [['missing-key', 'weight_quantization.quantized_initialization', 'num_bits,symmetric,group_dim']]);
  assert.deepEqual(missing(zero3({ post_init_quant: { fc: { num_bits: 4, group_size: 64 } } })), [['missing-key', 'weight_quantization.post_init_quant.fc', 'symmetric,group_dim']]);
  // Empty is the default: zero.Init tests it for truth and does not quantize.
  assert.deepEqual(diagnose(zero3({ quantized_initialization: {} })), []);
});

test('weight_quantization configs from DeepSpeed\'s own tests are clean', () => {
  // tests/unit/inference/quantization/test_intX_quantization.py, both helpers (OPT hidden size 768)
  const settings = { num_bits: 4, group_size: 32, group_dim: 1, symmetric: false };
  assert.deepEqual(diagnose(zero3({ quantized_initialization: settings })), []);
  assert.deepEqual(diagnose(zero3({ post_init_quant: { fc: settings, 'self_attn.q_proj': settings, 'self_attn.k_proj': settings, 'self_attn.v_proj': settings, 'self_attn.out_proj': settings } })), []);
});

test('quantized_initialization is read only by zero.Init (partition_parameters.py:348-350): below stage 3 a warning; post_init_quant works at any stage', async () => {
  const settings = { num_bits: 4, group_size: 32, group_dim: 1, symmetric: false };
  const atStage = (stage: number, weightQuantization: Record<string, unknown>) => ({ ...zero3(weightQuantization), zero_optimization: { stage } });
  const stage2 = diagnose(atStage(2, { quantized_initialization: settings }));
  assert.deepEqual(codesOf(stage2), ['ignored-at-stage']);
  assert.equal(stage2[0].severity, DiagnosticSeverity.Warning);
  assert.match(String(stage2[0].message), /only read by deepspeed\.zero\.Init.*"stage": 2 the weights are not quantized/);
  // No zero_optimization at all is stage 0: nothing enters zero.Init either.
  const { zero_optimization: _, ...noZero } = zero3({ quantized_initialization: settings });
  assert.deepEqual(codesOf(diagnose(noZero)), ['ignored-at-stage']);
  // {} is the default and means off; post_init_quant is read by _init_group_wise_weight_quantization at any stage (quantization.py:36-86).
  assert.deepEqual(diagnose(atStage(2, { quantized_initialization: {} })), []);
  assert.deepEqual(diagnose(atStage(1, { post_init_quant: { fc: settings } })), []);
  // "auto" is filled in by accelerate: the stage is not known, so no warning.
  assert.deepEqual(codesOf(diagnose({ ...zero3({ quantized_initialization: settings }), zero_optimization: { stage: 'auto' } })).filter((c) => c === 'ignored-at-stage'), []);
  const text = JSON.stringify(atStage(2, { quantized_initialization: settings }));
  assert.equal(await fixed(text, 'Switch to ZeRO stage 3'), text.replace('"stage":2', '"stage":3'));
});
