import { estimateDeepSpeed } from './deepspeed';
import type { EstimateInput, EstimateResult } from './types';
import { english, type Translate } from '../protocol/l10n';

export interface DeepSpeedModeOptions {
  zeroInit?: boolean;
  legacyZero2?: boolean;
  additionalBufferFactor?: number;
}

/**
 * An EstimateResult whose perGpu.total and perCpu.total are exactly what DeepSpeed's estimator returns
 * (`--mode deepspeed`). DeepSpeed has no stage 0/1 estimator: stage 1 uses the ZeRO-2 formula, as
 * people commonly do; stage 0 has none (undefined). The breakdown splits DeepSpeed's 18 bytes/param
 * term as its comment does: 2 (16-bit params, stage 3) + 2+4 (16-bit and fp32 grads) + 4+8 (fp32 master,
 * Adam moments), with truncation landing in `gradients` so the parts add up to the total.
 */
export function estimateDeepSpeedResult(input: EstimateInput, options: DeepSpeedModeOptions = {}, t: Translate = english): EstimateResult | undefined {
  if (input.stage === 0) return undefined;
  const stage = input.stage === 3 ? 3 : 2;
  const P = input.model.totalParams;
  const gpus = input.gpusPerNode * input.nodes;
  const offloadOptimizer = input.offloadOptimizer !== 'none';
  const offloadParam = stage === 3 && offloadOptimizer && input.offloadParam !== 'none';
  const r = estimateDeepSpeed({
    totalParams: P,
    largestLayerParams: input.model.largestLayerParams,
    gpusPerNode: input.gpusPerNode,
    nodes: input.nodes,
    stage,
    offloadOptimizer,
    offloadParam,
    zeroInit: options.zeroInit ?? true,
    additionalBufferFactor: options.additionalBufferFactor ?? 1.5,
    legacyZero2: options.legacyZero2 ?? false,
  });
  const notes = [t("DeepSpeed mode: model states only, as DeepSpeed's estimator computes them (no activations, buffers or overhead).")];
  if (input.stage === 1) notes.push(t('DeepSpeed has no ZeRO-1 estimator; the ZeRO-2 formula is used.'));
  if (input.stage === 3 && input.offloadParam !== 'none' && !offloadOptimizer) notes.push(t("DeepSpeed's estimator has no row for parameter offload without optimizer offload; counted without it."));

  const largest = r.largestLayerMemory ?? 0;
  let params = 0;
  let optimizerStates = 0;
  if (stage === 2) {
    params = 2 * P;
    if (!offloadOptimizer) optimizerStates = Math.trunc((12 * P) / gpus);
  } else if (!offloadOptimizer) {
    params = Math.trunc((2 * P) / gpus);
    optimizerStates = Math.trunc((12 * P) / gpus);
  } else if (!offloadParam) {
    params = Math.trunc((2 * P) / gpus);
  }
  const sharded = r.gpu - largest;
  const gradients = stage === 2 && offloadOptimizer ? 0 : sharded - params - optimizerStates;
  return {
    // DeepSpeed's figure is model states only: no phases, no allocator cache, no context; allocated = reserved = total.
    perGpu: {
      params,
      gradients,
      optimizerStates,
      activations: 0,
      buffers: largest,
      temporaries: 0,
      extraModels: 0,
      allocated: r.gpu,
      peakPhase: null,
      reserved: r.gpu,
      allocatorCache: 0,
      cudaContext: 0,
      overhead: 0,
      total: r.gpu,
    },
    phases: [],
    perCpu: offloadOptimizer
      ? { params: 0, gradients: 0, optimizerStates: r.cpu, total: r.cpu, pinned: 0, peakPhase: null }
      : { params: r.cpu, gradients: 0, optimizerStates: 0, total: r.cpu, pinned: 0, peakPhase: null },
    nvme: 0,
    fits: input.gpuMemoryBytes === undefined ? null : r.gpu <= input.gpuMemoryBytes,
    notes,
    errsHigh: [],
    // DeepSpeed's own estimator assumes every parameter trains.
    params: { total: P, trainable: P },
  };
}
