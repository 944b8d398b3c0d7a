import type { EstimateResult, ZeroStage } from '../memory/types';
import { stageOptionLabel } from '../memory/estimate';
import { GiB } from '../memory/units';
import type { StageTarget } from './stageSwitch';

/** Words and numbers for hints, hovers, diagnostics and fix titles: one place so they always agree. */

/** "19.2 GiB": one decimal is what a reader compares at a glance; the hover table shows the same rounding. */
export function gib(bytes: number): string {
  const value = bytes / GiB;
  return `${value >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1)} GiB`;
}

/** The estimator's option label ("ZeRO-3 + CPU offload (optimizer, params)"), so hints, fixes and the sidebar agree. */
export function optionLabel(target: StageTarget): string {
  return stageOptionLabel(target.stage, target.stage > 0 ? target.offloadOptimizer : 'none', target.stage === 3 ? target.offloadParam : 'none');
}

export function deviceName(device: string): string {
  return device === 'nvme' ? 'NVMe' : device.toUpperCase();
}

/** What each stage partitions across the data-parallel GPUs. */
export function shardsOf(stage: ZeroStage): string {
  switch (stage) {
    case 0:
      return 'nothing (each GPU holds everything)';
    case 1:
      return 'optimizer states';
    case 2:
      return 'optimizer states, gradients';
    case 3:
      return 'optimizer states, gradients, parameters';
  }
}

/**
 * Communication per step relative to plain data parallelism (ZeRO paper §7): stages 0–2 move 2Ψ
 * (reduce-scatter + all-gather = one all-reduce), stage 3 adds a parameter all-gather: 3Ψ, i.e. 1.5×.
 */
export function communicationOf(stage: ZeroStage): string {
  return stage === 3 ? '3Ψ (1.5×)' : '2Ψ (1×)';
}

/** "8 GPUs", "1 GPU", "16 GPUs (2 nodes × 8)". */
export function gpuCount(gpusPerNode: number, nodes: number): string {
  const total = gpusPerNode * nodes;
  const base = `${total} GPU${total === 1 ? '' : 's'}`;
  return nodes > 1 ? `${base} (${nodes} nodes × ${gpusPerNode})` : base;
}

/** The inlay hint after `"stage": N`. */
export function stageHintText(result: EstimateResult, modelName: string, gpusPerNode: number, nodes: number, gpuMemoryBytes?: number): string {
  const over = result.fits === false && gpuMemoryBytes ? ` (> ${gib(gpuMemoryBytes)})` : '';
  return `≈ ${gib(result.perGpu.total)}/GPU${over} · ${modelName} · ${gpuCount(gpusPerNode, nodes)}`;
}

/** The inlay hint after an offload `device`: what the offload costs off the GPU. */
export function offloadHintText(kind: 'optimizer' | 'param', device: 'cpu' | 'nvme', result: EstimateResult): string | undefined {
  if (device === 'nvme') return result.nvme > 0 ? `NVMe ≈ ${gib(result.nvme)}` : undefined;
  const bytes = kind === 'optimizer' ? result.perCpu.optimizerStates + result.perCpu.gradients : result.perCpu.params;
  return bytes > 0 ? `CPU RAM ≈ ${gib(bytes)}/node` : undefined;
}

/** Fits column: ✓ / ✗ against the GPU, "?" when the GPU size is unknown. */
export function fitMark(result: EstimateResult): string {
  return result.fits === true ? '✓' : result.fits === false ? '✗' : '?';
}
