import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { estimateInputFromFacts, extractConfigFacts, hfAutoBuffers } from '../../server/src/memory';
import { configFactSource } from '../../server/src/training/analyze';

const fixture = (name: string) => parse(readFileSync(join(__dirname, '..', 'fixtures', 'memory', name), 'utf8'));

test('ZeRO-3 offload preset: stage, offload devices, pin_memory, buffers; "auto" values listed, not guessed', () => {
  const f = extractConfigFacts(fixture('ds_zero3_offload.json'));
  assert.deepEqual(f.stage, { value: 3, path: 'zero_optimization.stage', segments: ['zero_optimization', 'stage'] });
  assert.equal(f.offloadOptimizer!.value, 'cpu');
  assert.equal(f.offloadOptimizer!.path, 'zero_optimization.offload_optimizer.device');
  assert.equal(f.offloadParam!.value, 'cpu');
  assert.equal(f.pinMemory!.value, true);
  assert.equal(f.precision, undefined); // bf16/fp16 "auto": decided by the trainer
  assert.equal(f.microBatch, undefined);
  assert.equal(f.buffers.overlapComm!.value, false);
  assert.equal(f.buffers.subGroupSize!.value, 1e9);
  assert.equal(f.buffers.maxLiveParameters!.value, 1e9);
  assert.equal(f.buffers.reduceBucketSize, undefined);
  assert.ok(f.auto.includes('zero_optimization.reduce_bucket_size'));
  assert.ok(f.auto.includes('bf16.enabled'));
  assert.ok(f.auto.includes('train_micro_batch_size_per_gpu'));
});

test('ZeRO-2 bf16 config: precision, optimizer type, micro batch, bucket sizes → estimate input', () => {
  const f = extractConfigFacts(fixture('ds_zero2_bf16.json'));
  assert.equal(f.precision!.value, 'bf16');
  assert.equal(f.precision!.path, 'bf16.enabled');
  assert.deepEqual({ value: f.optimizer!.value, raw: f.optimizer!.rawType }, { value: 'adamw', raw: 'AdamW' });
  assert.equal(f.microBatch!.value, 4);
  assert.equal(f.gradientAccumulationSteps!.value, 8);
  assert.deepEqual(estimateInputFromFacts(f), {
    stage: 2,
    precision: 'bf16',
    microBatch: 4,
    optimizer: 'adamw',
    buffers: { reduceBucketSize: 2e8, allgatherBucketSize: 2e8, overlapComm: true },
  });
});

test('bf16 + data_types.grad_accum_dtype fp32 is reported (BF16_Optimizer at stage 1)', () => {
  const f = extractConfigFacts(fixture('ds_zero1_bf16_fp32accum.json'));
  assert.deepEqual([f.stage!.value, f.precision!.value, f.fp32GradAccum!.value], [1, 'bf16', true]);
  assert.equal(f.fp32GradAccum!.path, 'data_types.grad_accum_dtype');
});

test('no fp16/bf16 section means fp32 (implicit, reported as a default); explicit false is a config fact', () => {
  const implicit = extractConfigFacts({ zero_optimization: { stage: 2 } });
  assert.equal(implicit.precision!.value, 'fp32');
  assert.deepEqual(configFactSource('ds.json', implicit.precision!), { kind: 'default' });
  const explicit = extractConfigFacts({ fp16: { enabled: false } });
  assert.deepEqual(configFactSource('ds.json', explicit.precision!), { kind: 'config', file: 'ds.json', key: 'fp16.enabled' });
  assert.equal(extractConfigFacts({ fp16: { enabled: true } }).precision!.value, 'fp16');
  assert.equal(extractConfigFacts({ bfloat16: { enabled: true } }).precision!.path, 'bfloat16.enabled');
});

test('legacy cpu_offload booleans, offload sections without device, aliases, bf16 low-precision flags', () => {
  const f = extractConfigFacts({
    zero_optimization: { stage: 3, cpu_offload: true, cpu_offload_params: true, prefetch_bucket_size: 3e7, max_live_parameters: 5e8 },
    bf16: { enabled: true, bf16_master_weights_and_grads: true, bf16_optimizer_states: true },
  });
  assert.equal(f.offloadOptimizer!.value, 'cpu');
  assert.equal(f.offloadOptimizer!.path, 'zero_optimization.cpu_offload');
  assert.equal(f.offloadParam!.value, 'cpu');
  assert.equal(f.buffers.prefetchBucketSize!.path, 'zero_optimization.prefetch_bucket_size');
  assert.equal(f.buffers.maxLiveParameters!.value, 5e8);
  assert.equal(f.bf16MasterWeightsAndGrads!.value, true);
  assert.equal(f.bf16OptimizerStates!.value, true);
  const noDevice = extractConfigFacts({ zero_optimization: { offload_optimizer: { pin_memory: true } } });
  assert.equal(noDevice.offloadOptimizer!.value, 'none');
  assert.equal(noDevice.offloadOptimizer!.implicit, true);
});

test('values DeepSpeed would reject are left out rather than guessed', () => {
  const f = extractConfigFacts({ zero_optimization: { stage: 5, offload_optimizer: { device: 'gpu' }, reduce_bucket_size: '5e8' }, optimizer: { type: 'MyOptimizer' }, train_micro_batch_size_per_gpu: 0 });
  assert.equal(f.stage, undefined);
  assert.equal(f.offloadOptimizer, undefined);
  assert.equal(f.buffers.reduceBucketSize, undefined);
  assert.equal(f.optimizer, undefined);
  assert.equal(f.microBatch, undefined);
  assert.deepEqual(extractConfigFacts(null), { buffers: {}, auto: [] });
  assert.deepEqual(extractConfigFacts([1, 2]), { buffers: {}, auto: [] });
});

test('optimizer type names map to estimator names', () => {
  const name = (type: string) => extractConfigFacts({ optimizer: { type } }).optimizer?.value;
  assert.equal(name('Adam'), 'adam');
  assert.equal(name('OneBitAdam'), 'adam');
  assert.equal(name('Lamb'), 'adam');
  assert.equal(name('adamw_bnb_8bit'), 'adam8bit');
  assert.equal(name('Lion'), 'lion');
  assert.equal(name('SGD'), 'sgd');
  assert.equal(name('MuonWithAuxAdam'), 'muon');
  assert.equal(name('Adafactor'), 'adafactor');
});

test('HF Trainer "auto" buckets: reduce = h², prefetch = 0.9·h²', () => {
  assert.deepEqual(hfAutoBuffers(4096), { reduceBucketSize: 16_777_216, prefetchBucketSize: 15_099_494 });
});

test('config facts read what DeepSpeed reads: legacy zero_optimization true, torch.float32, Adagrad, SGD momentum', () => {
  assert.equal(extractConfigFacts({ zero_optimization: true }).stage?.value, 1);
  assert.equal(extractConfigFacts({ data_types: { grad_accum_dtype: 'torch.float32' } }).fp32GradAccum?.value, true);
  assert.equal(extractConfigFacts({ optimizer: { type: 'Adagrad', params: { lr: 0.01 } } }).optimizer?.value, 'adagrad');
  assert.equal(extractConfigFacts({ optimizer: { type: 'SGD', params: { lr: 0.1, momentum: 0.9 } } }).optimizer?.value, 'sgd-momentum');
  assert.equal(extractConfigFacts({ optimizer: { type: 'SGD', params: { lr: 0.1 } } }).optimizer?.value, 'sgd');
});

test('offload_param.max_in_cpu is read as a buffer setting and reaches the estimate input', () => {
  const f = extractConfigFacts({ zero_optimization: { stage: 3, offload_param: { device: 'nvme', max_in_cpu: 2e9 } } });
  assert.deepEqual(f.buffers.maxParamsInCpu, { value: 2e9, path: 'zero_optimization.offload_param.max_in_cpu', segments: ['zero_optimization', 'offload_param', 'max_in_cpu'] });
  assert.equal(estimateInputFromFacts(f).buffers?.maxParamsInCpu, 2e9);
});
