import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, missingKeysOf } from './dsconfig-validation-helpers';

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
