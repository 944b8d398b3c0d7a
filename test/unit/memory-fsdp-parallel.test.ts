import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimate, estimateAllOptions, estimateFsdpOptions } from '../../server/src/memory/estimate';
import { fsdpShardGroup, wrapUnits } from '../../server/src/memory/fsdp';
import { activationCacheShare, reservedBytes, type ReservedInput } from '../../server/src/memory/allocator';
import { activationSplit, parallelShare } from '../../server/src/memory/modelParallel';
import { findCatalogModel } from '../../server/src/memory/catalog';
import { countParams } from '../../server/src/memory/paramCount';
import type { EstimateInput, FsdpSpec, ModelInfo, PhaseEstimate } from '../../server/src/memory/types';
import { parseEstimateArgs, UsageError } from '../../server/src/cli/estimateArgs';

const arch = findCatalogModel('Qwen/Qwen3-8B')!.architecture!;
const counts = countParams(arch);
const model: ModelInfo = { id: 'Qwen/Qwen3-8B', displayName: 'Qwen3-8B', totalParams: counts.total, largestLayerParams: counts.largestLayer, architecture: arch, source: { kind: 'cli', flag: '--model' } };
const P = counts.total;

const base: EstimateInput = {
  model,
  stage: 0,
  offloadOptimizer: 'none',
  offloadParam: 'none',
  precision: 'bf16',
  optimizer: 'adamw',
  gpusPerNode: 8,
  nodes: 1,
  microBatch: 1,
  gradientAccumulationSteps: 1,
  seqLen: 2048,
  gradientCheckpointing: true,
  flashAttention: true,
  fixedLength: true,
  optimizerKernel: 'fused',
};

const fsdp = (spec: Partial<FsdpSpec>, more: Partial<EstimateInput> = {}) =>
  estimate({ ...base, engine: 'fsdp', torchDtype: 'bf16', fsdp: { strategy: 'FULL_SHARD', version: 1, offloadParams: false, mixedPrecision: true, autoWrap: 'TRANSFORMER_BASED_WRAP', ...spec }, ...more });
const phase = (result: ReturnType<typeof estimate>, name: PhaseEstimate['phase']) => result.phases.find((p) => p.phase === name)!;
const near = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) <= Math.max(1, expected * 1e-9), `${what}: ${actual} vs ${expected}`);

test('FULL_SHARD under mixed precision: fp32 shards are the master copy (4 + 4 + 8 bytes per parameter over N), no separate master', () => {
  const r = fsdp({});
  const step = phase(r, 'optimizer-step');
  near(step.params, (4 * P) / 8, 'fp32 parameter shard');
  near(step.optimizerStates, (8 * P) / 8, 'Adam moments only, on the shard');
  // ZeRO-3 on the same job: 16-bit partition and a 12-byte optimizer shard (fp32 master + moments).
  const zero3 = estimate({ ...base, stage: 3 });
  near(phase(zero3, 'optimizer-step').params, (2 * P) / 8, 'ZeRO-3 16-bit partition');
  near(phase(zero3, 'optimizer-step').optimizerStates, (12 * P) / 8, 'ZeRO-3 master + moments');
});

test('FULL_SHARD gathers the root unit and two decoder layers in forward + backward, in the 16-bit compute dtype; SHARD_GRAD_OP the whole model', () => {
  const units = wrapUnits(arch, counts, P, counts.largestLayer);
  near(units.rootParams, counts.embedding + counts.lmHead + arch.hiddenSize, 'root: embeddings, head, final norm');
  const layerGrad = units.layerParams * 2;
  near(phase(fsdp({}), 'forward-backward').buffers, units.rootParams * 2 + 2 * units.layerParams * 2 + layerGrad, 'root + two units + one unit gradient');
  near(phase(fsdp({ strategy: 'SHARD_GRAD_OP' }), 'forward-backward').buffers, P * 2 + layerGrad, 'every unit stays gathered');
  assert.ok(fsdp({ strategy: 'SHARD_GRAD_OP' }).perGpu.total > fsdp({}).perGpu.total);
});

test('CPU offload moves parameter and gradient shards and the optimizer to CPU RAM; only the gathers stay on the GPU', () => {
  const r = fsdp({ offloadParams: true });
  const fb = phase(r, 'forward-backward');
  assert.equal(fb.params, 0);
  assert.equal(fb.optimizerStates, 0);
  // Only the unsharded gradient of the output head (root unit, 16-bit) before it is reduce-scattered to the CPU.
  assert.ok(fb.gradients <= arch.vocabSize * arch.hiddenSize * 2, String(fb.gradients));
  near(r.perCpu.params, ((4 * P) / 8) * 8, 'fp32 shards of 8 ranks per node');
  near(r.perCpu.optimizerStates, 8 * P, 'moments of 8 ranks');
  near(r.perCpu.pinned, r.perCpu.params + r.perCpu.gradients, 'FSDP pins parameter and gradient shards, not optimizer states');
  assert.ok(r.perGpu.total < fsdp({}).perGpu.total);
});

test("FSDP1 under CPU offload reserves a pool for its staging copies: the largest unit's shard, in the storage dtype plus the 16-bit cast", () => {
  const units = wrapUnits(arch, counts, P, counts.largestLayer);
  const largest = Math.max(units.rootParams, units.layerParams);
  const reserved = (spec: Partial<FsdpSpec>) => fsdp(spec).perGpu.reserved;
  const allocated = (spec: Partial<FsdpSpec>) => fsdp(spec).perGpu.allocated;
  // fp32 storage (accelerate upcasts under mixed precision) and the bf16 low-precision shard, over 8 ranks.
  near(reserved({ offloadParams: true }) - reserved({ offloadParams: true, version: 2 }), (largest * (4 + 2)) / 8, 'FSDP1 staging pool');
  // Only the pool: the live tensors are the same, and FSDP2 copies in its all-gather stream.
  near(allocated({ offloadParams: true }), allocated({ offloadParams: true, version: 2 }), 'allocated');
  // Pure bf16 storage: the shard copy only.
  const pure = (version: 1 | 2) => fsdp({ offloadParams: true, mixedPrecision: false, version }).perGpu.reserved;
  near(pure(1) - pure(2), (largest * 2) / 8, 'pure bf16 staging pool');
});

test("FSDP's compute stream keeps more of the activations cached (0.26, 0.34 with CPU offload) than one shared pool does (0.12)", () => {
  const GiB = 2 ** 30;
  // By hand: 10 GiB persistent, 4 GiB of activations, nothing else; the pool holds both side by side plus the share.
  const pool: ReservedInput = { persistent: 10 * GiB, backwardGradients: 0, activations: 4 * GiB, forwardBackwardBuffers: 0, stepTransient: 0, stepFitsInActivationBlocks: true, gradientCheckpointing: true, peakAllocated: 14 * GiB };
  assert.equal(reservedBytes(pool), (14 + 0.12 * 4) * GiB);
  assert.equal(reservedBytes({ ...pool, fsdp: { offloadParams: false, strategy: 'FULL_SHARD' } }), (14 + 0.26 * 4) * GiB);
  assert.equal(reservedBytes({ ...pool, fsdp: { offloadParams: true, strategy: 'FULL_SHARD' } }), (14 + 0.34 * 4) * GiB);
  // NO_SHARD gathers nothing: one pool, as without FSDP. Without checkpointing nothing was measured: every run keeps 0.03.
  assert.equal(activationCacheShare(true, { offloadParams: false, strategy: 'NO_SHARD' }), 0.12);
  assert.equal(activationCacheShare(false, { offloadParams: true, strategy: 'FULL_SHARD' }), activationCacheShare(false));
  assert.equal(activationCacheShare(false), 0.03);
});

test('HYBRID_SHARD shards within a node; NO_SHARD keeps everything on every GPU', () => {
  assert.equal(fsdpShardGroup('HYBRID_SHARD', 8, 4), 8);
  assert.equal(fsdpShardGroup('FULL_SHARD', 8, 4), 32);
  assert.equal(fsdpShardGroup('NO_SHARD', 8, 4), 1);
  const hybrid = fsdp({ strategy: 'HYBRID_SHARD' }, { nodes: 4 });
  const full = fsdp({}, { nodes: 4 });
  near(phase(hybrid, 'optimizer-step').params, (4 * P) / 8, 'shard over one node');
  near(phase(full, 'optimizer-step').params, (4 * P) / 32, 'shard over every GPU');
  near(phase(fsdp({ strategy: 'NO_SHARD' }), 'optimizer-step').params, 4 * P, 'whole fp32 model');
});

test('without mixed precision (pure bf16) FSDP keeps 16-bit shards and 16-bit moments; LoRA adapters stay fp32 over a frozen 16-bit base', () => {
  const pure = fsdp({ mixedPrecision: false });
  near(phase(pure, 'optimizer-step').params, (2 * P) / 8, 'bf16 shard');
  near(phase(pure, 'optimizer-step').optimizerStates, (4 * P) / 8, 'bf16 moments');
  const lora = fsdp({}, { lora: { rank: 8, targetModules: ['all-linear'] } });
  assert.ok(phase(lora, 'optimizer-step').params < (2.1 * P) / 8, 'frozen base stays 16-bit');
});

test('the FSDP rows beside the ZeRO rows: FULL_SHARD, SHARD_GRAD_OP, FULL_SHARD + CPU offload; a DeepSpeed run keeps DeepSpeed in every ZeRO row', () => {
  const rows = estimateFsdpOptions(base);
  assert.deepEqual(rows.map((r) => r.label), ['FSDP FULL_SHARD', 'FSDP SHARD_GRAD_OP', 'FSDP FULL_SHARD + CPU offload']);
  assert.deepEqual(estimateFsdpOptions({ ...base, nodes: 2 }).map((r) => r.label).at(-1), 'FSDP HYBRID_SHARD');
  // An FSDP run's ZeRO rows are DeepSpeed's, stage 0 included.
  const fromFsdp = estimateAllOptions({ ...base, engine: 'fsdp', fsdp: rows[0].spec });
  assert.equal(fromFsdp[0].result.perGpu.total, estimate({ ...base, engine: 'deepspeed' }).perGpu.total);
  assert.equal(fromFsdp[0].label, 'ZeRO-0');
});

test('Megatron TP/PP: each GPU holds its share in bf16, an fp32 gradient buffer, and master + moments sharded over data parallel', () => {
  const share = parallelShare({ kind: 'megatron', tp: 2, pp: 2, cp: 1, ep: 1 }, 8, counts, arch, P, counts.largestLayer);
  assert.equal(share.dataParallel, 2);
  const layers = P - counts.embedding - counts.lmHead;
  near(share.paramsPerGpu, layers / 2 / 2 + Math.max(counts.embedding, counts.lmHead) / 2, 'half the layers, split over TP, and one end');
  const r = estimate({ ...base, engine: 'megatron', modelParallel: { kind: 'megatron', tp: 2, pp: 2, cp: 1, ep: 1 } });
  const step = phase(r, 'optimizer-step');
  near(step.params, 2 * share.paramsPerGpu, 'bf16 weights');
  near(step.gradients, 4 * share.paramsPerGpu, 'fp32 main-gradient buffer');
  near(step.optimizerStates, (12 * share.paramsPerGpu) / 2, 'distributed optimizer over DP 2');
  const noDist = estimate({ ...base, engine: 'megatron', modelParallel: { kind: 'megatron', tp: 2, pp: 2, cp: 1, ep: 1, distributedOptimizer: false } });
  near(phase(noDist, 'optimizer-step').optimizerStates, 12 * share.paramsPerGpu, 'every DP rank holds all states');
  // Sequence parallel splits every activation over TP; without it only attention and MLP internals split.
  assert.equal(activationSplit(4, 1, true), 4);
  near(activationSplit(4, 1, false), 34 / 16, 'Korthikanti et al.: 10 + 24/t of 34');
});

test('AutoTP under ZeRO-1: the decoder linears split over TP, embeddings and head whole, optimizer partitioned over world ÷ TP; the save gathers a layer', () => {
  const share = parallelShare({ kind: 'autotp', tp: 2, pp: 1, cp: 1, ep: 1 }, 8, counts, arch, P, counts.largestLayer);
  near(share.paramsPerGpu, P - counts.decoderLinear / 2, 'linears halved');
  assert.equal(share.dataParallel, 4);
  const plain = estimate({ ...base, stage: 1 });
  const tp = estimate({ ...base, stage: 1, modelParallel: { kind: 'autotp', tp: 2, pp: 1, cp: 1, ep: 1 } });
  near(phase(tp, 'optimizer-step').params, 2 * share.paramsPerGpu, '16-bit weights of the share');
  assert.ok(phase(tp, 'optimizer-step').params < phase(plain, 'optimizer-step').params);
  assert.ok(phase(tp, 'checkpoint-save').buffers > 0, 'GatherReplacedLayerParams on save');
});

test('the CLI: --fsdp, --tp/--pp for Megatron, --tp with a ZeRO stage for AutoTP, and the combinations it refuses', () => {
  const f = parseEstimateArgs(['--model', 'Qwen/Qwen3-8B', '--fsdp', 'shard_grad_op', '--fsdp-offload', '--fsdp-version', '2']);
  assert.deepEqual(f.context.workload?.fsdp?.value, { strategy: 'SHARD_GRAD_OP', version: 2, offloadParams: true, mixedPrecision: true, autoWrap: 'TRANSFORMER_BASED_WRAP' });
  const m = parseEstimateArgs(['--model', 'Qwen/Qwen3-8B', '--tp', '2', '--pp', '2']);
  assert.equal(m.context.workload?.modelParallel?.value.kind, 'megatron');
  assert.deepEqual(m.context.workload?.modelParallel?.source, { kind: 'cli', flag: '--tp' });
  const a = parseEstimateArgs(['--model', 'Qwen/Qwen3-8B', '--tp', '2', '--stage', '1']);
  assert.equal(a.context.workload?.modelParallel?.value.kind, 'autotp');
  assert.throws(() => parseEstimateArgs(['--fsdp', 'full_shard', '--stage', '3']), UsageError);
  assert.throws(() => parseEstimateArgs(['--fsdp-offload']), UsageError);
  assert.throws(() => parseEstimateArgs(['--fsdp', 'zero3']), UsageError);
  assert.throws(() => parseEstimateArgs(['--fsdp', 'full_shard', '--pp', '2']), UsageError);
});
