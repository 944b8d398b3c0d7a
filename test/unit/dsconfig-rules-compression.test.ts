import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, diagnose, missingKeysOf } from './dsconfig-validation-helpers';

const compression = (section: Record<string, unknown>) => ({ train_micro_batch_size_per_gpu: 1, compression_training: section });
const missing = (config: object) => missingKeysOf(diagnose(config));

test('compression_training: different_groups, each group\'s params and their bit/ratio keys are read without defaults', () => {
  // compression/config.py:76 reads different_groups (:132) even when the technique is off.
  assert.deepEqual(missing(compression({ weight_quantization: { shared_parameters: { enabled: false } } })), [['missing-key', 'compression_training.weight_quantization', 'different_groups']]);
  // :145 reads each group's params; :135-138 assert start_bits and target_bits.
  assert.deepEqual(missing(compression({ weight_quantization: { shared_parameters: { enabled: true }, different_groups: { wq1: { params: { start_bits: 8 }, modules: ['attention'] }, wq2: { modules: ['x'] } } } })), [
    ['missing-key', 'compression_training.weight_quantization.different_groups.wq1.params', 'target_bits'],
    ['missing-key', 'compression_training.weight_quantization.different_groups.wq2', 'params'],
  ]);
  // :201 bits for activation quantization, dense_ratio for every pruning technique (:274, :328, :386, :440).
  assert.deepEqual(missing(compression({ activation_quantization: { different_groups: { aq1: { params: {} } } } })), [['missing-key', 'compression_training.activation_quantization.different_groups.aq1.params', 'bits']]);
  for (const pruning of ['sparse_pruning', 'row_pruning', 'head_pruning', 'channel_pruning']) {
    assert.deepEqual(codesOf(diagnose(compression({ [pruning]: { different_groups: { g: { params: {} } } } }))), ['missing-key'], pruning);
  }
  // An empty different_groups is what DeepSpeed itself fills in for an absent technique.
  assert.deepEqual(diagnose(compression({ row_pruning: { shared_parameters: { enabled: false }, different_groups: {} } })), []);
});

test('the compression config of DeepSpeed\'s own test is clean', () => {
  // tests/unit/compression/test_compression.py, get_ds_config()
  const config = {
    train_batch_size: 1,
    steps_per_print: 1,
    optimizer: { type: 'Adam', params: { lr: 0.00015 } },
    fp16: { enabled: true },
    compression_training: {
      weight_quantization: {
        shared_parameters: { enabled: true, quantizer_kernel: false, schedule_offset: 50, quantize_groups: 1, quantize_verbose: false, quantization_type: 'asymmetric', rounding: 'nearest', fp16_mixed_quantize: { enabled: false, quantize_change_ratio: 0.001 } },
        different_groups: {
          wq1: { params: { start_bits: 12, target_bits: 8, quantization_period: 50 }, modules: ['attention.self', 'intermediate'] },
          wq2: { params: { start_bits: 12, target_bits: 4, quantization_period: 50 }, modules: ['attention.output'] },
        },
      },
      activation_quantization: {
        shared_parameters: { enabled: true, quantization_type: 'asymmetric', range_calibration: 'dynamic', schedule_offset: 50 },
        different_groups: { aq1: { params: { bits: 8 }, modules: ['attention.output'] } },
      },
      sparse_pruning: { shared_parameters: { enabled: true, schedule_offset: 30, method: 'l1' }, different_groups: { sp1: { params: { dense_ratio: 0.5 }, modules: ['attention.self'] } } },
      row_pruning: { shared_parameters: { enabled: true, schedule_offset: 20, method: 'topk' }, different_groups: { rp1: { params: { dense_ratio: 0.5 }, modules: ['intermediate.dense'], related_modules: [['layer.\\w+.output.dense']] } } },
      head_pruning: {
        shared_parameters: { enabled: true, schedule_offset: 10, method: 'topk', num_heads: 12 },
        different_groups: { rp1: { params: { dense_ratio: 0.5 }, modules: ['attention.output.dense'], related_modules: [['self.query', 'self.key', 'self.value']] } },
      },
    },
  };
  assert.deepEqual(diagnose(config), []);
});
