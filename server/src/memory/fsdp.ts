import { english, type Translate } from '../protocol/l10n';
import type { BufferBreakdown } from './buffers';
import type { ModelStates } from './modelStates';
import type { ParamCount } from './paramCount';
import type { FsdpSpec, FsdpStrategy, ModelArchitecture } from './types';

/**
 * PyTorch FSDP's model states and gathers for one rank (docs/memory-model.md, "FSDP"). Not ZeRO-3 renamed:
 *
 * - The optimizer is a plain torch optimizer over the rank's shards, so there is no separate master copy: the
 *   shard IS the master (fp32 when accelerate upcasts the trainable parameters under mixed precision,
 *   accelerator.py prepare_model / fsdp_utils.py fsdp2_prepare_model), and its gradient shard is in the same dtype
 *   (FSDP1 casts the reduced gradient back to the parameter dtype, `_cast_grad_to_param_dtype`).
 * - Parameters are gathered per wrap unit (one decoder layer under TRANSFORMER_BASED_WRAP) into a full unit in the
 *   compute dtype; FSDP1's rate limiter lets two all-gathers be in flight (`_FreeEventQueue`, limit_all_gathers) and
 *   FSDP2 prefetches the next unit, so two units are live at once. There are no DeepSpeed buckets.
 * - The root unit (embeddings, final norm, output head: what no policy wraps) is not resharded after forward
 *   (FSDP1 `_root_pre_forward`, FSDP2 sets the root's reshard_after_forward to False), so it stays gathered for the
 *   whole forward and backward.
 * - SHARD_GRAD_OP (FSDP2 reshard_after_forward=False) keeps every unit gathered from its forward to its backward.
 * - HYBRID_SHARD shards within a node and replicates across nodes; NO_SHARD is DDP-like.
 * - CPU offload moves parameter and gradient shards to CPU RAM and runs the optimizer step there.
 */

/** GPUs a parameter is sharded over: all of them, one node's (hybrid), or none. */
export function fsdpShardGroup(strategy: FsdpStrategy, gpusPerNode: number, nodes: number): number {
  if (strategy === 'NO_SHARD') return 1;
  if (strategy === 'HYBRID_SHARD' || strategy === 'HYBRID_SHARD_ZERO2') return Math.max(1, gpusPerNode);
  return Math.max(1, gpusPerNode) * Math.max(1, nodes);
}

/** Whether a unit frees its gathered parameters after its forward (and gathers them again in backward). */
export function reshardsAfterForward(strategy: FsdpStrategy): boolean {
  return strategy === 'FULL_SHARD' || strategy === 'HYBRID_SHARD';
}

/** FSDP's defaults where a launch says nothing: accelerate's FULL_SHARD, no offload, mixed precision, per-layer units, FSDP1. */
export function fsdpDefaults(spec: Partial<FsdpSpec> | undefined): FsdpSpec {
  return {
    strategy: spec?.strategy ?? 'FULL_SHARD',
    version: spec?.version ?? 1,
    offloadParams: spec?.offloadParams ?? false,
    mixedPrecision: spec?.mixedPrecision ?? true,
    autoWrap: spec?.autoWrap ?? 'TRANSFORMER_BASED_WRAP',
  };
}

/** The model split into FSDP's units: what the root holds and one decoder layer, in parameters. */
export interface WrapUnits {
  /** Embeddings, final norm and output head: the root unit. */
  rootParams: number;
  /** One decoder layer (the largest unit under TRANSFORMER_BASED_WRAP). */
  layerParams: number;
  layers: number;
}

export function wrapUnits(arch: ModelArchitecture | undefined, counts: ParamCount | undefined, totalParams: number, largestLayerParams: number): WrapUnits {
  if (!arch || !counts) {
    // Without an architecture: the largest layer stands for the root, a thirty-second of the rest for a layer.
    const layers = 32;
    return { rootParams: largestLayerParams, layerParams: Math.max(0, totalParams - largestLayerParams) / layers, layers };
  }
  const rootParams = counts.embedding + counts.lmHead + arch.hiddenSize;
  const layers = Math.max(1, arch.numLayers);
  return { rootParams, layerParams: Math.max(0, counts.total - counts.parts - rootParams) / layers, layers };
}

export interface FsdpStatesInput {
  spec: FsdpSpec;
  gpusPerNode: number;
  nodes: number;
  trainable: number;
  /** Bytes of a trainable parameter's shard and of its gradient shard (4 when accelerate upcasts, else the load dtype). */
  trainableBytes: number;
  /** Storage bytes of every frozen weight (LoRA's base, possibly quantised; 0 for full fine-tuning). */
  frozenBytes: number;
  /** Optimizer-state bytes for all trainable parameters. */
  optimizerStates: number;
  /** Bytes of a gathered element in the compute dtype (param_dtype under mixed precision). */
  computeBytes: number;
  units: WrapUnits;
  /** Share of the model's parameters that are trainable (1 for full fine-tuning): the unit's gradient. */
  trainableShare: number;
  totalParams: number;
}

export interface FsdpStates {
  states: ModelStates;
  buffers: BufferBreakdown;
  /** Buffers of the load and save phases: the root and one unit gathered. */
  loadSaveGather: number;
  shardGroup: number;
  /** Reserved in a side stream's own pool that no other allocation reuses (see offloadStagingPool). */
  sideStreamPool: number;
}

/**
 * FSDP1 under CPU offload copies each unit's shard to the GPU before its all-gather, on the pre-unshard stream
 * (`_runtime_utils._pre_unshard`: `handle.pre_unshard()` under `state._pre_unshard_stream`, which does
 * `flat_param_to(device)` and, under mixed precision, the cast to the low-precision shard). The caching allocator
 * keeps one pool per stream, so those copies hold a pool of their own: the largest unit's shard, which the smaller
 * shards reuse by splitting. Measured (bench/gpu/results/h200-fsdp-sharded-pools.json, Llama-2-7B shapes, world 2):
 * that stream's pool was 0.25 GiB, the root unit's bf16 shard. FSDP2 copies in its all-gather stream instead.
 */
function offloadStagingPool(i: FsdpStatesInput, G: number, frozenPerParam: number): number {
  if (!i.spec.offloadParams || i.spec.version !== 1 || i.spec.strategy === 'NO_SHARD') return 0;
  const largestUnit = Math.max(i.units.rootParams, i.units.layerParams);
  // Under LoRA the large units are frozen base weights (the adapters are units of their own).
  const unitStorage = i.trainableShare >= 1 ? i.trainableBytes : frozenPerParam;
  const lowPrecisionCopy = i.spec.mixedPrecision && i.computeBytes < unitStorage ? i.computeBytes : 0;
  return (largestUnit * (unitStorage + lowPrecisionCopy)) / G;
}

export function fsdpStates(i: FsdpStatesInput): FsdpStates {
  const G = fsdpShardGroup(i.spec.strategy, i.gpusPerNode, i.nodes);
  const T = i.trainable;
  const trainableWeights = T * i.trainableBytes;
  const shardWeights = (trainableWeights + i.frozenBytes) / G;
  const shardGrads = trainableWeights / G;
  const shardStates = i.optimizerStates / G;
  const offload = i.spec.offloadParams;
  // Storage bytes of a frozen weight (bf16, or packed 4-bit in a 16-bit quant_storage). The whole model gathered in
  // the compute dtype holds frozen weights as stored and trainable ones cast to param_dtype.
  const frozenPerParam = i.totalParams > 0 ? i.frozenBytes / Math.max(1, i.totalParams - T) : i.computeBytes;
  const gatheredPerParam = i.trainableShare >= 1 ? i.computeBytes : Math.min(i.computeBytes, frozenPerParam) * (1 - i.trainableShare) + i.computeBytes * i.trainableShare;
  const rootGathered = i.units.rootParams * i.computeBytes;
  const unitGathered = i.units.layerParams * gatheredPerParam;
  const wholeModel = i.totalParams * gatheredPerParam;
  // The unit's full gradient in the reduce dtype before it is reduce-scattered (or all-reduced under NO_SHARD).
  const unitGrad = Math.min(T, i.units.layerParams * i.trainableShare) * i.computeBytes;
  let gathered: number;
  if (i.spec.strategy === 'NO_SHARD') {
    // Nothing to gather; under mixed precision the trainable fp32 parameters get a 16-bit copy for the forward.
    gathered = i.computeBytes < i.trainableBytes ? T * i.computeBytes : 0;
  } else if (!reshardsAfterForward(i.spec.strategy) || i.spec.autoWrap === 'NO_WRAP') {
    gathered = wholeModel;
  } else {
    gathered = rootGathered + 2 * unitGathered;
  }
  const forwardBackward = gathered + (T > 0 ? unitGrad : 0);
  const gpu = { params: offload ? 0 : shardWeights, gradients: 0, optimizerStates: offload ? 0 : shardStates };
  const cpu = { params: offload ? shardWeights : 0, gradients: offload ? shardGrads : 0, optimizerStates: offload ? shardStates : 0 };
  const states: ModelStates = {
    gpu,
    // Gradient shards are produced in backward and freed by zero_grad(set_to_none) after the step.
    backwardGradients: offload ? 0 : shardGrads,
    stepGradient: 0,
    stepFlatten: 0,
    stepElements: offload ? 0 : T / G,
    cpu,
    // FSDP pins the offloaded parameter and gradient shards (FSDP1 `_flat_param.pin_memory()`, FSDP2 CPUOffloadPolicy(pin_memory=True)).
    cpuAlwaysPinned: offload ? shardWeights + shardGrads : 0,
    cpuAccumulationBuffer: 0,
    nvme: 0,
  };
  return {
    states,
    buffers: { persistent: 0, forwardBackward, gathered, afterStep: 0 },
    loadSaveGather: i.spec.strategy === 'NO_SHARD' ? 0 : rootGathered + unitGathered,
    shardGroup: G,
    sideStreamPool: offloadStagingPool(i, G, frozenPerParam),
  };
}

/** "FSDP FULL_SHARD + CPU offload": the row label of an FSDP option (identifiers, the same in every language). */
export function fsdpLabel(spec: Pick<FsdpSpec, 'strategy' | 'offloadParams' | 'version'>, t: Translate = english): string {
  const strategy = spec.version === 2 ? (spec.strategy === 'SHARD_GRAD_OP' ? 'FSDP2 reshard_after_forward=False' : spec.strategy === 'FULL_SHARD' ? 'FSDP2' : `FSDP2 ${spec.strategy}`) : `FSDP ${spec.strategy}`;
  return spec.offloadParams ? t('{0} + CPU offload', strategy) : strategy;
}
