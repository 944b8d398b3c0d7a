import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, configWith, diagnose, errorsOf, fixed, withCode } from './dsconfig-validation-helpers';

type Severity = 'error' | 'warning' | 'information' | 'hint';
const severities: Record<Severity, DiagnosticSeverity> = { error: 1, warning: 2, information: 3, hint: 4 };

interface RuleCase {
  rule: string;
  code: string;
  severity: Severity;
  /** Changes to the base ZeRO-2 HF config that break the rule… */
  bad: Record<string, any>;
  /** …and a neighbouring config that keeps it. */
  good: Record<string, any>;
}

const Z = (zero: Record<string, any>) => ({ zero_optimization: zero });
/** Drops the base config's WarmupDecayLR arguments, for a torch scheduler. */
const noWarmup = { warmup_min_lr: undefined, warmup_max_lr: undefined, warmup_num_steps: undefined, total_num_steps: undefined };

const cases: RuleCase[] = [
  // §2.1 batch sizes
  { rule: 'batch triple not divisible', code: 'batch-size-mismatch', severity: 'error', bad: { train_batch_size: 30, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2 }, good: { train_batch_size: 32, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2 } },
  { rule: 'train_batch_size not a multiple of micro', code: 'batch-size-mismatch', severity: 'error', bad: { train_batch_size: 10, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: undefined }, good: { train_batch_size: 12, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: undefined } },
  { rule: 'neither train_batch_size nor micro', code: 'batch-size-missing', severity: 'error', bad: { train_batch_size: undefined, train_micro_batch_size_per_gpu: undefined, gradient_accumulation_steps: 4 }, good: { train_batch_size: undefined, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 4 } },
  // §3 precision
  { rule: 'fp16 and bf16 both on', code: 'fp16-and-bf16', severity: 'error', bad: { fp16: { enabled: true }, bf16: { enabled: true } }, good: { fp16: { enabled: false }, bf16: { enabled: true } } },
  { rule: 'fp16 and legacy bfloat16 both on', code: 'fp16-and-bf16', severity: 'error', bad: { bf16: undefined, fp16: { enabled: true }, bfloat16: { enabled: true } }, good: { bf16: undefined, fp16: { enabled: true }, bfloat16: { enabled: false } } },
  { rule: 'amp with ZeRO', code: 'amp-with-zero', severity: 'error', bad: { bf16: undefined, amp: { enabled: true, opt_level: 'O1' } }, good: { bf16: undefined, amp: { enabled: true, opt_level: 'O1' }, ...Z({ stage: 0 }) } },
  { rule: 'amp with fp16', code: 'amp-with-fp16-bf16', severity: 'error', bad: { bf16: undefined, fp16: { enabled: true }, amp: { enabled: true }, ...Z({ stage: 0 }) }, good: { bf16: undefined, fp16: { enabled: false }, amp: { enabled: true }, ...Z({ stage: 0 }) } },
  { rule: 'bf16 master weights without ZeRO', code: 'master-weights-without-zero', severity: 'error', bad: { bf16: { enabled: true, bf16_master_weights_and_grads: true }, ...Z({ stage: 0 }) }, good: { bf16: { enabled: true, bf16_master_weights_and_grads: true }, ...Z({ stage: 2, offload_optimizer: { device: 'cpu' } }) } },
  { rule: 'bf16 optimizer states without master weights', code: 'bf16-optimizer-states-without-master-weights', severity: 'error', bad: { bf16: { enabled: true, bf16_optimizer_states: true } }, good: { bf16: { enabled: true, bf16_optimizer_states: true, bf16_master_weights_and_grads: true } } },
  { rule: 'fp16 master weights without optimizer offload', code: 'master-weights-need-cpu-adam', severity: 'error', bad: { bf16: undefined, fp16: { enabled: true, fp16_master_weights_and_grads: true } }, good: { bf16: undefined, fp16: { enabled: true, fp16_master_weights_and_grads: true }, ...Z({ offload_optimizer: { device: 'cpu' } }) } },
  { rule: 'partial offload with a non-CPU-Adam optimizer', code: 'master-weights-need-cpu-adam', severity: 'error', bad: { optimizer: { type: 'Lion', params: { lr: 1e-4 } }, ...Z({ stage: 3, offload_optimizer: { device: 'cpu', ratio: 0.3 }, allgather_partitions: undefined, allgather_bucket_size: undefined }) }, good: { ...Z({ stage: 3, offload_optimizer: { device: 'cpu', ratio: 0.3 }, allgather_partitions: undefined, allgather_bucket_size: undefined }) } },
  { rule: 'param_dtype against the precision mode', code: 'param-dtype-mismatch', severity: 'error', bad: { bf16: { enabled: true }, data_types: { param_dtype: 'fp16' } }, good: { bf16: { enabled: true }, data_types: { param_dtype: 'bfloat16' } } },
  { rule: 'torch_autocast with quantized weights', code: 'autocast-with-quantized-weights', severity: 'error', bad: { torch_autocast: { enabled: true }, ...Z({ stage: 3, zero_quantized_weights: true, allgather_partitions: undefined, allgather_bucket_size: undefined }) }, good: { torch_autocast: { enabled: false }, ...Z({ stage: 3, zero_quantized_weights: true, allgather_partitions: undefined, allgather_bucket_size: undefined }) } },
  // §4 ZeRO
  { rule: 'offload_param below stage 3', code: 'offload-param-below-stage-3', severity: 'warning', bad: Z({ offload_param: { device: 'cpu', pin_memory: true } }), good: Z({ stage: 3, offload_param: { device: 'cpu', pin_memory: true }, allgather_partitions: undefined, allgather_bucket_size: undefined }) },
  { rule: 'partial optimizer offload below stage 3', code: 'partial-offload-below-stage-3', severity: 'error', bad: Z({ offload_optimizer: { device: 'cpu', ratio: 0.5 } }), good: Z({ offload_optimizer: { device: 'cpu', ratio: 1 } }) },
  { rule: 'optimizer "offloaded to nvme" below stage 3', code: 'nvme-below-stage-3', severity: 'information', bad: Z({ stage: 2, offload_optimizer: { device: 'nvme' } }), good: Z({ stage: 2, offload_optimizer: { device: 'cpu' } }) },
  { rule: 'nvme without nvme_path', code: 'nvme-without-path', severity: 'error', bad: Z({ stage: 3, offload_param: { device: 'nvme' }, allgather_partitions: undefined, allgather_bucket_size: undefined }), good: Z({ stage: 3, offload_param: { device: 'nvme', nvme_path: '/local_nvme' }, allgather_partitions: undefined, allgather_bucket_size: undefined }) },
  { rule: 'legacy boolean zero_optimization', code: 'zero-optimization-legacy-bool', severity: 'warning', bad: { zero_optimization: true }, good: Z({ stage: 1 }) },
  { rule: 'stage "auto"', code: 'stage-auto', severity: 'warning', bad: Z({ stage: 'auto' }), good: Z({ stage: 2 }) },
  { rule: 'legacy_stage1', code: 'legacy-stage1', severity: 'error', bad: Z({ stage: 1, legacy_stage1: true }), good: Z({ stage: 1, legacy_stage1: false }) },
  { rule: 'stage3_* key below stage 3', code: 'ignored-at-stage', severity: 'warning', bad: Z({ stage3_max_live_parameters: 1e9 }), good: Z({ stage: 3, stage3_max_live_parameters: 1e9, allgather_partitions: undefined, allgather_bucket_size: undefined }) },
  { rule: 'long and short alias both set', code: 'alias-both-set', severity: 'error', bad: Z({ stage: 3, stage3_prefetch_bucket_size: 5e7, prefetch_bucket_size: 5e7, allgather_partitions: undefined, allgather_bucket_size: undefined }), good: Z({ stage: 3, prefetch_bucket_size: 5e7, allgather_partitions: undefined, allgather_bucket_size: undefined }) },
  { rule: 'deprecated key with its replacement', code: 'deprecated-with-replacement', severity: 'error', bad: Z({ cpu_offload: true, offload_optimizer: { device: 'cpu' } }), good: Z({ offload_optimizer: { device: 'cpu' } }) },
  { rule: 'deprecated key alone', code: 'deprecated-key', severity: 'warning', bad: Z({ cpu_offload: true }), good: Z({ offload_optimizer: { device: 'cpu' } }) },
  // §5 optimizer
  { rule: 'max_grad_norm in optimizer params', code: 'max-grad-norm-in-optimizer', severity: 'warning', bad: { optimizer: { params: { max_grad_norm: 1.0 } } }, good: { gradient_clipping: 1.0 } },
  { rule: '1-bit optimizer with ZeRO', code: 'onebit-optimizer-with-zero', severity: 'error', bad: { optimizer: { type: 'OneBitAdam', params: { lr: 1e-4, freeze_step: 1000 } } }, good: { optimizer: { type: 'OneBitAdam', params: { lr: 1e-4, freeze_step: 1000 } }, ...Z({ stage: 0 }) } },
  { rule: 'Lamb with a static loss scale', code: 'lamb-static-loss-scale', severity: 'error', bad: { bf16: undefined, fp16: { enabled: true, loss_scale: 128 }, optimizer: { type: 'Lamb', params: { lr: 1e-3 } }, ...Z({ stage: 0 }) }, good: { bf16: undefined, fp16: { enabled: true, loss_scale: 0 }, optimizer: { type: 'Lamb', params: { lr: 1e-3 } }, ...Z({ stage: 0 }) } },
  { rule: 'untested optimizer with ZeRO', code: 'untested-optimizer-with-zero', severity: 'warning', bad: { optimizer: { type: 'SGD', params: { lr: 0.01 } } }, good: { optimizer: { type: 'SGD', params: { lr: 0.01 } }, zero_allow_untested_optimizer: true } },
  { rule: 'Muon with ZeRO-3 reduce-scatter', code: 'muon-reduce-scatter', severity: 'error', bad: { optimizer: { type: 'Muon', params: { lr: 0.02 } }, ...Z({ stage: 3, allgather_partitions: undefined, allgather_bucket_size: undefined }) }, good: { optimizer: { type: 'Muon', params: { lr: 0.02 } }, ...Z({ stage: 3, reduce_scatter: false, allgather_partitions: undefined, allgather_bucket_size: undefined }) } },
  { rule: 'Muon ns_method', code: 'muon-ns-method', severity: 'error', bad: { optimizer: { type: 'Muon', params: { lr: 0.02, ns_method: 'newton' } } }, good: { optimizer: { type: 'Muon', params: { lr: 0.02, ns_method: 'standard' } } } },
  // §10 parallelism and communication
  { rule: 'pipeline with ZeRO-2', code: 'pipeline-with-zero-2-3', severity: 'error', bad: { pipeline: { activation_checkpoint_interval: 1 } }, good: { pipeline: { activation_checkpoint_interval: 1 }, ...Z({ stage: 1 }) } },
  { rule: 'prescale_gradients with ZeRO-2 reduce-scatter', code: 'prescale-with-reduce-scatter', severity: 'error', bad: { prescale_gradients: true }, good: { prescale_gradients: true, ...Z({ reduce_scatter: false }) } },
  { rule: 'gradient_predivide_factor with ZeRO-3', code: 'predivide-with-reduce-scatter', severity: 'error', bad: { gradient_predivide_factor: 2.0, ...Z({ stage: 3, allgather_partitions: undefined, allgather_bucket_size: undefined }) }, good: { gradient_predivide_factor: 1.0, ...Z({ stage: 3, allgather_partitions: undefined, allgather_bucket_size: undefined }) } },
  { rule: 'gradient_allreduce_op sum with ZeRO-3', code: 'allreduce-sum-unsupported', severity: 'error', bad: { gradient_allreduce_op: 'sum', ...Z({ stage: 3, allgather_partitions: undefined, allgather_bucket_size: undefined }) }, good: { gradient_allreduce_op: 'sum' } },
  { rule: 'gradient_allreduce_op value', code: 'allreduce-op-invalid', severity: 'error', bad: { gradient_allreduce_op: 'avg' }, good: { gradient_allreduce_op: 'MEAN' } },
  { rule: 'unmanaged accumulation with overlap_comm at stage 1', code: 'unmanaged-grad-accumulation-conflict', severity: 'error', bad: { managed_gradient_accumulation: false, ...Z({ stage: 1 }) }, good: { managed_gradient_accumulation: false, ...Z({ stage: 2 }) } },
  { rule: 'AutoTP tp_size mismatch', code: 'autotp-size-mismatch', severity: 'error', bad: { tensor_parallel: { autotp_size: 4, tp: { tp_size: 2 } } }, good: { tensor_parallel: { autotp_size: 4, tp: { tp_size: 4 } } } },
  { rule: 'DeepCompile autotp with ZeRO passes', code: 'deepcompile-passes-conflict', severity: 'error', bad: { compile: { deepcompile: true, passes: ['autotp', 'z1'] } }, good: { compile: { deepcompile: true, passes: ['autotp'] } } },
  { rule: 'ZenFlow numeric select_interval with auto strategy', code: 'zenflow-interval-invalid', severity: 'error', bad: Z({ offload_optimizer: { device: 'cpu' }, zenflow: { select_strategy: 'auto', select_interval: 10 } }), good: Z({ offload_optimizer: { device: 'cpu' }, zenflow: { select_strategy: 'step', select_interval: 10, update_interval: 4 } }) },
  { rule: 'ZenFlow at stage 2 without optimizer offload', code: 'zenflow-needs-offload', severity: 'error', bad: Z({ zenflow: {} }), good: Z({ offload_optimizer: { device: 'cpu' }, zenflow: {} }) },
  { rule: 'ZenFlow offload without overlap_comm', code: 'zenflow-needs-overlap-comm', severity: 'error', bad: Z({ offload_optimizer: { device: 'cpu' }, overlap_comm: false, zenflow: { offload: true } }), good: Z({ offload_optimizer: { device: 'cpu' }, overlap_comm: true, zenflow: { offload: true } }) },
  // §8, §12 training features
  { rule: 'elasticity with batch keys', code: 'elasticity-with-batch-keys', severity: 'error', bad: { elasticity: { enabled: true, max_train_batch_size: 2000, micro_batch_sizes: [2, 4, 6] } }, good: { elasticity: { enabled: true, max_train_batch_size: 2000, micro_batch_sizes: [2, 4, 6], ignore_non_elastic_batch_info: true } } },
  { rule: 'elasticity min_gpus above max_gpus', code: 'elasticity-invalid', severity: 'error', bad: { elasticity: { enabled: true, max_train_batch_size: 2000, micro_batch_sizes: [2, 4], min_gpus: 16, max_gpus: 8, ignore_non_elastic_batch_info: true } }, good: { elasticity: { enabled: true, max_train_batch_size: 2000, micro_batch_sizes: [2, 4], min_gpus: 8, max_gpus: 16, ignore_non_elastic_batch_info: true } } },
  { rule: 'elasticity micro batch above the maximum', code: 'elasticity-invalid', severity: 'error', bad: { elasticity: { enabled: true, max_train_batch_size: 4, micro_batch_sizes: [2, 8], ignore_non_elastic_batch_info: true } }, good: { elasticity: { enabled: true, max_train_batch_size: 8, micro_batch_sizes: [2, 8], ignore_non_elastic_batch_info: true } } },
  { rule: 'contiguous memory without partitioning', code: 'contiguous-memory-without-partitioning', severity: 'warning', bad: { activation_checkpointing: { contiguous_memory_optimization: true, number_checkpoints: 4 } }, good: { activation_checkpointing: { contiguous_memory_optimization: true, partition_activations: true, number_checkpoints: 4 } } },
  // Case-insensitive string settings
  { rule: 'log_level', code: 'log-level-invalid', severity: 'error', bad: { log_level: 'verbose' }, good: { log_level: 'INFO' } },
  { rule: 'checkpoint.tag_validation', code: 'tag-validation-invalid', severity: 'error', bad: { checkpoint: { tag_validation: 'strict' } }, good: { checkpoint: { tag_validation: 'fail' } } },
  { rule: 'communication_data_type', code: 'communication-data-type-invalid', severity: 'error', bad: { communication_data_type: 'fp8' }, good: { communication_data_type: 'BF16' } },
  { rule: 'vocabulary_size', code: 'vocabulary-size-not-multiple-of-8', severity: 'information', bad: { vocabulary_size: 50257 }, good: { vocabulary_size: 50304 } },
  // "auto" and pydantic integers
  { rule: '"auto" in a pydantic key nobody fills', code: 'auto-dropped', severity: 'warning', bad: Z({ contiguous_gradients: 'auto' }), good: Z({ contiguous_gradients: true }) },
  { rule: '"auto" in a plain-dict key nobody fills', code: 'auto-not-filled', severity: 'error', bad: { steps_per_print: 'auto' }, good: { steps_per_print: 10 } },
  { rule: 'integer field with a fraction', code: 'integer-fraction', severity: 'error', bad: Z({ stage: 3, stage3_prefetch_bucket_size: 15099494.4, allgather_partitions: undefined, allgather_bucket_size: undefined }), good: Z({ stage: 3, stage3_prefetch_bucket_size: 15099494, allgather_partitions: undefined, allgather_bucket_size: undefined }) },
  { rule: 'integer field with an exponent string', code: 'integer-exponent-string', severity: 'error', bad: Z({ reduce_bucket_size: '5e8' }), good: Z({ reduce_bucket_size: 5e8 }) },
  { rule: 'integer field with a numeric string', code: 'integer-as-string', severity: 'hint', bad: Z({ reduce_bucket_size: '500000000' }), good: Z({ reduce_bucket_size: 500000000 }) },
  { rule: 'pydantic float field with a numeric string', code: 'number-as-string', severity: 'hint', bad: { fp16: { enabled: true, loss_scale: '0' } }, good: { fp16: { enabled: true, loss_scale: 0 } } },
  { rule: 'amp section without "enabled"', code: 'enabled-key-missing', severity: 'error', bad: { amp: { opt_level: 'O1' } }, good: { amp: { enabled: false, opt_level: 'O1' } } },
  { rule: 'progressive_layer_drop section without "enabled"', code: 'enabled-key-missing', severity: 'error', bad: { progressive_layer_drop: { theta: 0.5, gamma: 0.001 } }, good: { progressive_layer_drop: { enabled: true, theta: 0.5, gamma: 0.001 } } },
  { rule: 'dynamic loss scaling with a zero window', code: 'dynamic-loss-scale-setting', severity: 'error', bad: { bf16: undefined, fp16: { enabled: true, loss_scale: 0, loss_scale_window: 0 } }, good: { bf16: undefined, fp16: { enabled: true, loss_scale: 128, loss_scale_window: 0 } } },
  { rule: 'bf16 with fp32 accumulation without ZeRO', code: 'grad-accum-dtype-without-zero', severity: 'error', bad: { bf16: { enabled: true }, zero_optimization: { stage: 0 }, data_types: { grad_accum_dtype: 'fp32' } }, good: { bf16: { enabled: true }, zero_optimization: { stage: 1 }, data_types: { grad_accum_dtype: 'fp32' } } },
  { rule: 'param_dtype int8, which no training mode is', code: 'param-dtype-mismatch', severity: 'error', bad: { bf16: { enabled: true }, data_types: { param_dtype: 'int8' } }, good: { bf16: { enabled: true }, data_types: { param_dtype: 'bf16' } } },
  { rule: 'amsgrad with FusedAdam', code: 'amsgrad-unsupported', severity: 'error', bad: { optimizer: { type: 'AdamW', params: { lr: 1e-4, amsgrad: true } } }, good: { optimizer: { type: 'AdamW', params: { lr: 1e-4, amsgrad: true, torch_adam: true } } } },
  { rule: 'amsgrad with FusedLamb', code: 'amsgrad-unsupported', severity: 'error', bad: { optimizer: { type: 'Lamb', params: { lr: 1e-4, amsgrad: true } } }, good: { optimizer: { type: 'Lamb', params: { lr: 1e-4, amsgrad: false } } } },
  { rule: 'an Adam argument FusedAdam does not take', code: 'optimizer-argument-not-taken', severity: 'error', bad: { optimizer: { type: 'AdamW', params: { lr: 1e-4, fp32_optimizer_states: true } } }, good: { optimizer: { type: 'AdamW', params: { lr: 1e-4, fp32_optimizer_states: true } }, ...Z({ offload_optimizer: { device: 'cpu' } }) } },
  { rule: 'a torch scheduler that needs a Python function', code: 'scheduler-needs-python', severity: 'error', bad: { scheduler: { type: 'LambdaLR', params: { lr_lambda: 0.9, ...noWarmup } } }, good: { scheduler: { type: 'ExponentialLR', params: { gamma: 0.9, ...noWarmup } } } },
  { rule: 'progressive layer drop on without theta', code: 'enabled-key-missing', severity: 'error', bad: { progressive_layer_drop: { enabled: true, gamma: 0.001 } }, good: { progressive_layer_drop: { enabled: true, theta: 0.5, gamma: 0.001 } } },
  { rule: 'optimizer offload with ZeRO off', code: 'optimizer-offload-at-stage-0', severity: 'error', bad: Z({ stage: 0, offload_optimizer: { device: 'cpu' } }), good: Z({ stage: 0, offload_optimizer: { device: 'none' } }) },
  // Bools written as text or numbers
  { rule: 'pydantic bool written as a word', code: 'boolean-as-string', severity: 'warning', bad: Z({ overlap_comm: 'No' }), good: Z({ overlap_comm: false }) },
  { rule: 'plain-dict bool written as a word', code: 'boolean-as-string', severity: 'warning', bad: { wall_clock_breakdown: 'false' }, good: { wall_clock_breakdown: false } },
  { rule: 'plain-dict bool DeepSpeed asserts, written as a word', code: 'boolean-as-string', severity: 'error', bad: { expert_parallel: { enabled: true, validate_folding_routing: 'false' } }, good: { expert_parallel: { enabled: true, validate_folding_routing: false } } },
  { rule: 'pydantic bool written as 0 or 1', code: 'boolean-as-number', severity: 'hint', bad: Z({ contiguous_gradients: 1 }), good: Z({ contiguous_gradients: true }) },
  { rule: 'plain-dict bool written as 0 or 1', code: 'boolean-as-number', severity: 'warning', bad: { wall_clock_breakdown: 1 }, good: { wall_clock_breakdown: true } },
];

for (const c of cases) {
  test(`rule ${c.code}: ${c.rule}`, () => {
    const bad = diagnose(configWith(c.bad));
    const found = withCode(bad, c.code);
    assert.equal(found.length >= 1, true, `expected ${c.code} in ${JSON.stringify(bad.map((d) => [d.code, d.message]), null, 1)}`);
    assert.equal(found[0].severity, severities[c.severity]);
    assert.equal(found[0].source, 'zero-lens');
    assert.match(String(found[0].codeDescription?.href), /^https:\/\//);
    assert.ok(Array.isArray((found[0].data as { path: unknown }).path));

    const good = diagnose(configWith(c.good));
    assert.deepEqual(withCode(good, c.code), [], `did not expect ${c.code}`);
    assert.deepEqual(errorsOf(good).map((d) => [d.code, d.message]), [], 'the good config has no errors at all');
  });
}

test('batch triple: the implied world size is a hint with the numbers in data', () => {
  const [hint] = withCode(diagnose(configWith({ train_batch_size: 64, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2 })), 'batch-size-world-size');
  assert.equal(hint.severity, DiagnosticSeverity.Hint);
  assert.deepEqual((hint.data as Record<string, unknown>).worldSize, 8);
  assert.match(String(hint.message), /world size of 8 GPUs/);
});

test('batch triple: mismatch data carries the suggested train_batch_size', () => {
  const [mismatch] = withCode(diagnose(configWith({ train_batch_size: 30, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2 })), 'batch-size-mismatch');
  const data = mismatch.data as Record<string, unknown>;
  assert.equal(data.suggested, 32);
  assert.equal(data.micro, 4);
  assert.equal(data.gas, 2);
});

test('elasticity computes the batch keys itself: no batch triple checks', () => {
  const diagnostics = diagnose(configWith({ train_batch_size: 30, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2, elasticity: { enabled: true, max_train_batch_size: 2000, micro_batch_sizes: [2, 4], ignore_non_elastic_batch_info: true } }));
  assert.deepEqual(withCode(diagnostics, 'batch-size-mismatch'), []);
});

test('untested-optimizer stays quiet for names DeepSpeed cannot build at all (the schema reports those)', () => {
  const diagnostics = diagnose(configWith({ optimizer: { type: 'AdamWW', params: { lr: 1e-5 } } }));
  assert.deepEqual(withCode(diagnostics, 'untested-optimizer-with-zero'), []);
  assert.equal(withCode(diagnostics, 'invalid-value').length, 1);
  // DeepSpeed's own names match in any case; torch.optim names only exactly.
  assert.deepEqual(withCode(diagnose(configWith({ optimizer: { type: 'adamw', params: { lr: 1e-5 } } })), 'untested-optimizer-with-zero'), []);
  assert.equal(withCode(diagnose(configWith({ optimizer: { type: 'LAMB', params: { lr: 1e-5 } } })), 'untested-optimizer-with-zero').length, 1);
});

test('stage rules stay silent when the stage is "auto" (unknown until accelerate fills it)', () => {
  const diagnostics = diagnose(configWith(Z({ stage: 'auto', offload_param: { device: 'cpu' }, stage3_max_live_parameters: 1e9 })));
  assert.deepEqual(withCode(diagnostics, 'offload-param-below-stage-3'), []);
  assert.deepEqual(withCode(diagnostics, 'ignored-at-stage'), []);
  assert.equal(withCode(diagnostics, 'stage-auto').length, 1);
});

test('at stage 0 keys for other stages are hints, not warnings (presets keep their ZeRO block)', () => {
  const diagnostics = withCode(diagnose(configWith(Z({ stage: 0 }))), 'ignored-at-stage');
  assert.ok(diagnostics.length > 0);
  assert.ok(diagnostics.every((d) => d.severity === DiagnosticSeverity.Hint));
});

test('nvme_path is only needed where DeepSpeed reads it: ZeRO-3, or a stage not known yet', () => {
  const nvme = (stage: unknown) => withCode(diagnose(configWith(Z({ stage, offload_optimizer: { device: 'nvme' } }))), 'nvme-without-path');
  assert.equal(nvme(3).length, 1);
  assert.equal(nvme('auto').length, 1);
  assert.deepEqual(nvme(2), []);
  assert.deepEqual(nvme(1), []);
});

test('the deprecated cpu_offload: true is optimizer offload at every stage, as DeepSpeed turns it into one', () => {
  const masterWeights = { bf16: undefined, fp16: { enabled: true, fp16_master_weights_and_grads: true } };
  assert.deepEqual(withCode(diagnose(configWith({ ...masterWeights, ...Z({ cpu_offload: true }) })), 'master-weights-need-cpu-adam'), []);
  assert.equal(withCode(diagnose(configWith({ ...masterWeights, ...Z({ cpu_offload: false }) })), 'master-weights-need-cpu-adam').length, 1);
  const atStage3 = diagnose(configWith(Z({ stage: 3, cpu_offload: true, allgather_partitions: undefined, allgather_bucket_size: undefined })));
  assert.deepEqual(withCode(atStage3, 'ignored-at-stage'), []);
  assert.equal(withCode(atStage3, 'deprecated-key').length, 1);
});

test('ZenFlow: select_interval is compared with update_interval only in steps, and intervals are never quoted numbers', () => {
  const zenflow = (settings: Record<string, unknown>) => diagnose(configWith(Z({ offload_optimizer: { device: 'cpu' }, zenflow: settings })));
  assert.equal(withCode(zenflow({ select_strategy: 'step', select_interval: 1, update_interval: 4 }), 'zenflow-interval-invalid').length, 1);
  // An epoch holds many steps: DeepSpeed multiplies before it compares.
  assert.deepEqual(withCode(zenflow({ select_strategy: 'epoch', select_interval: 1, update_interval: 4 }), 'zenflow-interval-invalid'), []);
  // str | int keeps "4" a string, and ZenFlow refuses any string but "auto": an error, not a style hint.
  const quoted = zenflow({ update_interval: '4' });
  assert.deepEqual(withCode(quoted, 'integer-as-string'), []);
  assert.equal(withCode(quoted, 'invalid-type').length, 1);
});

test('ZenFlow: select_strategy is compared as written, so "Epoch" is the ValueError and not an epoch schedule (zenflow_config.py:54-55)', async () => {
  const zenflow = (settings: Record<string, unknown>) => diagnose(configWith(Z({ offload_optimizer: { device: 'cpu' }, zenflow: settings })));
  // "Step" with a short select_interval: one error, the strategy DeepSpeed refuses; no interval rule for a "step" schedule it never runs.
  for (const settings of [{ select_strategy: 'Step', select_interval: 1, update_interval: 4 }, { select_strategy: 'Epoch' }, { select_strategy: 'AUTO', select_interval: 3 }]) {
    const diagnostics = zenflow(settings);
    assert.deepEqual(codesOf(errorsOf(diagnostics)), ['invalid-value'], JSON.stringify(settings));
    assert.deepEqual((diagnostics[0].data as { path: string[] }).path, ['zero_optimization', 'zenflow', 'select_strategy']);
  }
  const text = JSON.stringify(configWith(Z({ offload_optimizer: { device: 'cpu' }, zenflow: { select_strategy: 'Epoch', select_interval: 1 } })));
  assert.equal(await fixed(text, 'Use "epoch"'), text.replace('"Epoch"', '"epoch"'));
});

test('An enum that lists "auto" as a DeepSpeed value offers it: ZenFlow "AUTO" gets the preferred "auto" (zenflow_config.py:54-55), AutoEP score_apply too', async () => {
  const fixesOf = (config: object) => {
    const [error] = errorsOf(diagnose(configWith(config)));
    return { message: String(error.message), fixes: (error.data as { fixes: { title: string; preferred?: boolean }[] }).fixes.map((f) => [f.title, !!f.preferred]) };
  };
  const zenflow = fixesOf(Z({ offload_optimizer: { device: 'cpu' }, zenflow: { select_strategy: 'AUTO' } }));
  assert.deepEqual(zenflow.fixes, [['Use "auto"', true], ['Use "step"', false], ['Use "epoch"', false]]);
  assert.equal(zenflow.message, '"select_strategy" must be one of "auto", "step", "epoch"; got the string "AUTO".');
  // auto_ep_config.py:148-151 lists "auto" among score_apply's values.
  assert.deepEqual(fixesOf({ expert_parallel: { enabled: true, score_apply: 'Auto' } }).fixes, [['Use "auto"', true], ['Use "pre"', false], ['Use "post"', false]]);
  // The HF placeholder is still no suggestion: stage says "or \"auto\"" and offers only DeepSpeed's stages.
  const stage = fixesOf({ zero_optimization: { stage: 'four' } });
  assert.deepEqual(stage.fixes.map(([title]) => title), ['Use 0', 'Use 1', 'Use 2', 'Use 3']);
  assert.match(stage.message, /one of 0, 1, 2, 3 or "auto"/);
  const text = JSON.stringify(configWith(Z({ offload_optimizer: { device: 'cpu' }, zenflow: { select_strategy: 'AUTO' } })));
  assert.equal(await fixed(text, 'Use "auto"'), text.replace('"AUTO"', '"auto"'));
});

test('seq_parallel_communication_data_type may be null, like communication_data_type', () => {
  assert.deepEqual(errorsOf(diagnose(configWith({ seq_parallel_communication_data_type: null }))), []);
  assert.equal(errorsOf(diagnose(configWith({ seq_parallel_communication_data_type: 'fp8' }))).length, 1);
});

test('a deprecated key beside its replacement: pydantic asserts, a plain-dict reader takes the new key', () => {
  const bothBf16 = diagnose(configWith({ bf16: { enabled: true }, bfloat16: { enabled: false } }));
  assert.deepEqual(withCode(bothBf16, 'deprecated-with-replacement'), []);
  const [ignored] = withCode(bothBf16, 'deprecated-key');
  assert.equal(ignored.severity, DiagnosticSeverity.Warning);
  assert.match(String(ignored.message), /DeepSpeed reads "bf16" and ignores this key/);
  assert.deepEqual(withCode(diagnose(configWith({ aio: { thread_count: 2, intra_op_parallelism: 2 } })), 'deprecated-with-replacement'), []);
  // The replacement written under its short name still makes the pydantic pair.
  const short = diagnose(configWith(Z({ stage: 3, stage3_gather_fp16_weights_on_model_save: true, gather_16bit_weights_on_model_save: true, allgather_partitions: undefined, allgather_bucket_size: undefined })));
  const [pair] = withCode(short, 'deprecated-with-replacement');
  assert.match(String(pair?.message), /"zero_optimization.gather_16bit_weights_on_model_save" is also set/);
});

test('loss_scale_window and min_loss_scale are only checked where DeepSpeed checks them: fp16 on, dynamic scaling', () => {
  const fp16 = (settings: Record<string, unknown>) => withCode(diagnose(configWith({ bf16: undefined, fp16: settings })), 'dynamic-loss-scale-setting');
  assert.equal(fp16({ enabled: true, min_loss_scale: 0 }).length, 1);
  assert.equal(fp16({ enabled: 'auto', min_loss_scale: 0 })[0]?.severity, DiagnosticSeverity.Warning);
  assert.deepEqual(fp16({ enabled: false, min_loss_scale: 0, loss_scale_window: 0 }), []);
  assert.deepEqual(fp16({ enabled: true, loss_scale: 128, min_loss_scale: 0 }), []);
  assert.deepEqual(errorsOf(diagnose(configWith({ bf16: undefined, fp16: { enabled: false, loss_scale_window: 0 } }))), []);
});

test('a null batch key counts as left out, as DeepSpeed tests "is not None"', () => {
  const batch = (keys: Record<string, unknown>) => diagnose({ ...keys });
  assert.equal(withCode(batch({ train_batch_size: null, gradient_accumulation_steps: 4 }), 'batch-size-missing').length, 1);
  assert.equal(withCode(batch({ train_micro_batch_size_per_gpu: null }), 'batch-size-missing').length, 1);
  assert.equal(withCode(batch({ train_batch_size: 30, train_micro_batch_size_per_gpu: null, gradient_accumulation_steps: 4 }), 'batch-size-mismatch').length, 1);
});

test('a partial offload ratio below stage 3 is one error, not also a key "ignored at this stage"', () => {
  const d = diagnose(configWith(Z({ stage: 2, offload_optimizer: { device: 'cpu', ratio: 0.5 } })));
  const atRatio = d.filter((x) => (x.data as any).path?.join('.') === 'zero_optimization.offload_optimizer.ratio');
  assert.deepEqual(atRatio.map((x) => x.code), ['partial-offload-below-stage-3']);
});

test('Adam, Lion and Adagrad arguments are checked against the class DeepSpeed builds for the config', () => {
  const notTaken = (optimizer: Record<string, unknown>, zero: Record<string, unknown> = {}) =>
    withCode(diagnose(configWith({ optimizer, ...Z(zero) })), 'optimizer-argument-not-taken').map((d) => `${(d.data as any).built}:${(d.data as any).path.at(-1)}`);
  const offload = { offload_optimizer: { device: 'cpu' } };
  assert.deepEqual(notTaken({ type: 'AdamW', params: { set_grad_none: true } }, offload), ['DeepSpeedCPUAdam:set_grad_none']);
  assert.deepEqual(notTaken({ type: 'AdamW', params: { set_grad_none: true } }), []);
  assert.deepEqual(notTaken({ type: 'Adam', params: { torch_adam: true, bias_correction: true, adam_w_mode: false } }), ['torch.optim.Adam/AdamW:bias_correction']);
  assert.deepEqual(notTaken({ type: 'Lion', params: { fp32_optimizer_states: true } }), ['FusedLion:fp32_optimizer_states']);
  assert.deepEqual(notTaken({ type: 'Adagrad', params: { lr_decay: 0.1 } }, offload), ['DeepSpeedCPUAdagrad:lr_decay']);
  assert.deepEqual(notTaken({ type: 'Adagrad', params: { amsgrad: false } }), ['torch.optim.Adagrad:amsgrad']);
});

test('ZenFlow offload: overlap_comm is on by default only at stage 3', () => {
  const zenflow = (zero: Record<string, unknown>) => withCode(diagnose({ train_micro_batch_size_per_gpu: 1, zero_optimization: { offload_optimizer: { device: 'cpu' }, zenflow: { offload: true }, ...zero } }), 'zenflow-needs-overlap-comm');
  assert.equal(zenflow({ stage: 2 }).length, 1);
  assert.match(String(zenflow({ stage: 1 })[0]?.message), /off by default at stage 1/);
  assert.deepEqual(zenflow({ stage: 3 }), []);
  assert.equal(zenflow({ stage: 3, overlap_comm: false }).length, 1);
});

test('tensor_parallel as DeepSpeed reads it: names in any case, unknown presets fall back, dtype never from JSON', () => {
  const tp = (settings: Record<string, unknown>) => diagnose(configWith({ tensor_parallel: settings }));
  const at = (d: ReturnType<typeof tp>, key: string) => d.filter((x) => (x.data as any).path?.at(-1) === key).map((x) => [x.code, x.severity]);
  assert.deepEqual(at(tp({ autotp_size: 2, preset_model: 'Llama' }), 'preset_model'), []);
  assert.deepEqual(at(tp({ autotp_size: 2, preset_model: 'qwen3' }), 'preset_model'), [['invalid-value', DiagnosticSeverity.Warning]]);
  assert.deepEqual(at(tp({ autotp_size: 2, partition_config: { layer_specs: [{ patterns: ['.*o_proj'], partition_type: 'ROW' }] } }), 'partition_type'), []);
  assert.deepEqual(at(tp({ autotp_size: 2, dtype: 'bf16' }), 'dtype'), [['tensor-parallel-dtype', DiagnosticSeverity.Error]]);
  // autotp_size 0 switches AutoTP off, and DeepSpeed checks tp_size only when it is on.
  assert.deepEqual(withCode(tp({ autotp_size: 0, tp: { tp_size: 4 } }), 'autotp-size-mismatch'), []);
  assert.equal(withCode(tp({ autotp_size: 2, tp: { tp_size: 4 } }), 'autotp-size-mismatch').length, 1);
});

test('optimizer offload at stage 0: an error where DeepSpeed builds a CPU optimizer, a quiet hint where it is unused', () => {
  const at0 = (optimizer?: Record<string, unknown>) => diagnose({ train_micro_batch_size_per_gpu: 1, ...(optimizer ? { optimizer } : {}), zero_optimization: { stage: 0, offload_optimizer: { device: 'cpu' } } });
  const codes = (d: ReturnType<typeof at0>) => d.filter((x) => String((x.data as any).path?.join('.')).startsWith('zero_optimization.offload_optimizer')).map((x) => x.code);
  assert.deepEqual(codes(at0()), ['optimizer-offload-at-stage-0']);
  assert.deepEqual(codes(at0({ type: 'AdamW', params: { lr: 1e-4 } })), ['optimizer-offload-at-stage-0']);
  assert.deepEqual(codes(at0({ type: 'SGD', params: { lr: 0.1 } })), ['ignored-at-stage']);
});

test('torch scheduler params: DeepSpeed warm-up arguments are a TypeError, and "auto" is never filled there', () => {
  const scheduler = (params: Record<string, unknown>) => diagnose(configWith({ scheduler: { type: 'CosineAnnealingLR', params: { ...noWarmup, ...params } } }));
  assert.deepEqual(withCode(scheduler({ T_max: 1000, total_num_steps: 'auto' }), 'scheduler-argument-not-taken').map((d) => (d.data as any).path.at(-1)), ['total_num_steps']);
  const [auto] = withCode(scheduler({ T_max: 'auto' }), 'auto-not-filled');
  assert.match(String(auto?.message), /CosineAnnealingLR receives the string "auto"/);
  assert.deepEqual(errorsOf(scheduler({ T_max: 1000, eta_min: 0 })), []);
  // DeepSpeed's own schedulers take these arguments.
  assert.deepEqual(withCode(diagnose(configWith({ scheduler: { type: 'WarmupDecayLR', params: { total_num_steps: 'auto', warmup_num_steps: 'auto' } } })), 'scheduler-argument-not-taken'), []);
});
