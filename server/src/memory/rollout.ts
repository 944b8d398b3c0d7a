import type { Translate } from '../protocol/l10n';
import type { GpuTerms, ModelArchitecture, PhaseName, RolloutSpec, ZeroStage } from './types';

/** vLLM colocated on the training GPUs: its own pool, outside torch's caching allocator. */
export interface ColocatedVllm {
  /** Bytes it holds during a rollout. */
  rollout: number;
  /** Bytes it keeps while the trainer runs (none when it sleeps). */
  residue: number;
  notes: string[];
}

/**
 * vLLM colocated on the training GPUs takes gpu_memory_utilization of the whole card for its weights and KV cache;
 * with sleep mode it frees the KV cache (and offloads or drops its weights) while the trainer runs.
 */
export function colocatedVllm(rollout: RolloutSpec | undefined, cardBytes: number | undefined, t: Translate): ColocatedVllm {
  const vllm: ColocatedVllm = { rollout: 0, residue: 0, notes: [] };
  if (rollout?.engine !== 'vllm-colocate') return vllm;
  const util = rollout.gpuMemoryUtilization ?? 0.9;
  if (cardBytes) vllm.rollout = util * cardBytes;
  else vllm.notes.push(t("vLLM's share of the GPU is not counted: the GPU size is unknown (--gpu-memory)."));
  // Sleep level 1 offloads the weights to CPU and discards the KV cache; level 2 discards both (vLLM CuMemAllocator).
  vllm.residue = rollout.sleepLevel && rollout.sleepLevel > 0 ? 0 : vllm.rollout;
  if (vllm.residue > 0) vllm.notes.push(t('vLLM is not put to sleep between rollouts: its share of the GPU stays reserved while the trainer runs.'));
  return vllm;
}

/** vLLM's bytes in a phase: all of its share in the rollout, what it keeps between rollouts after the first step. */
export function vllmBytesIn(vllm: ColocatedVllm, phase: PhaseName): number {
  return phase === 'rollout' ? vllm.rollout : phase === 'load' || phase === 'optimizer-init' ? 0 : vllm.residue;
}

/**
 * The rollout phase's terms, from what persists through training (`persistent`): the trained model's weights and
 * states unless they move to CPU for it; transformers' generate keeps a KV cache, and under ZeRO-3 TRL gathers the
 * whole 16-bit model for it (trl/models/utils.py, unwrap_model_for_generation). A colocated vLLM's share is added
 * by the caller, as in every phase.
 */
export function rolloutTerms(
  persistent: Omit<GpuTerms, 'allocated'>,
  rollout: RolloutSpec,
  arch: ModelArchitecture | undefined,
  run: { computeBytes: number; stage: ZeroStage; totalParams: number },
): Omit<GpuTerms, 'allocated'> {
  const r = { ...persistent };
  if (rollout.offloadModel) r.params = 0;
  if (rollout.offloadOptimizer) r.optimizerStates = 0;
  if (rollout.engine === 'generate' && arch) {
    const p = run.computeBytes;
    const kv = 2 * arch.numLayers * arch.numKvHeads * arch.headDim * p * rollout.sequences * rollout.sequenceLength;
    // Everything the wrapped model holds, a trained value model too (TRL's PolicyAndValueWrapper).
    const gathered = run.stage === 3 ? Math.max(0, run.totalParams * p - persistent.params) : 0;
    r.activations = kv + rollout.sequences * arch.vocabSize * 4;
    r.buffers = persistent.buffers + gathered;
  }
  return r;
}
