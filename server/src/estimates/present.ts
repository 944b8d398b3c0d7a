import { formatGiB, formatGiBValue, formatGpuCount, phaseLabel, type EstimateResult, type ZeroStage } from '../protocol';

/** Words for hints, hovers, diagnostics and fix titles: one place so they always agree. */

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

/**
 * The inlay hint after `"stage": N`: the total the fit is judged on, the model and the GPUs, then the allocated
 * figure and the phase that sets the peak, e.g. "≈ 19.2 GiB/GPU · Qwen3-8B · 5 GPUs · 15.1 allocated, optimizer step".
 */
export function stageHintText(result: EstimateResult, modelName: string, gpusPerNode: number, nodes: number, gpuMemoryBytes?: number): string {
  // VS Code cuts inlay hints at editor.inlayHints.maximumLength (43 by default): the total, the fit, the model and
  // the GPUs come first; the allocated figure and the phase follow, and stand whole in the tooltip (peakTooltip).
  const over = result.fits === false && gpuMemoryBytes ? ` (> ${formatGiB(gpuMemoryBytes)})` : '';
  return `≈ ${formatGiB(result.perGpu.total)}/GPU${over} · ${modelName} · ${formatGpuCount(gpusPerNode, nodes)} · ${peakWords(result)}`;
}

/** "15.1 allocated, optimizer step": the allocated figure beside the total, and the phase that sets the peak. */
export function peakWords(result: EstimateResult): string {
  const phase = result.perGpu.peakPhase ? `, ${phaseLabel(result.perGpu.peakPhase)}` : '';
  return `${formatGiBValue(result.perGpu.allocated)} allocated${phase}`;
}

/** The tooltip line of a stage hint: the total, what it is made of, the allocated figure and the phase. */
export function peakTooltip(result: EstimateResult): string {
  const g = result.perGpu;
  const phase = g.peakPhase ? `Peak in the ${phaseLabel(g.peakPhase)}: ` : '';
  return `${phase}${formatGiB(g.total)} per GPU = ${formatGiB(g.reserved)} reserved by PyTorch + ${formatGiB(g.cudaContext)} CUDA context and NCCL; ${formatGiB(g.allocated)} allocated (live tensors).`;
}

/** The inlay hint after an offload `device`: what the offload costs off the GPU. */
export function offloadHintText(kind: 'optimizer' | 'param', device: 'cpu' | 'nvme', result: EstimateResult): string | undefined {
  if (device === 'nvme') return result.nvme > 0 ? `NVMe ≈ ${formatGiB(result.nvme)}` : undefined;
  const bytes = kind === 'optimizer' ? result.perCpu.optimizerStates + result.perCpu.gradients : result.perCpu.params;
  return bytes > 0 ? `CPU RAM ≈ ${formatGiB(bytes)}/node` : undefined;
}

/** Fits column: ✓ / ✗ against the GPU, "?" when the GPU size is unknown. */
export function fitMark(result: EstimateResult): string {
  return result.fits === true ? '✓' : result.fits === false ? '✗' : '?';
}
