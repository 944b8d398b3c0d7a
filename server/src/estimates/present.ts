import { unbrokenCell } from '../util/markdown';
import { english, formatGiB, formatGiBValue, formatGpuCount, phaseLabel, type EstimateResult, type Translate, type ZeroStage } from '../protocol';

/** Words for hints, hovers, diagnostics and fix titles: one place so they always agree, in the reader's language (`t`). */

export function deviceName(device: string): string {
  return device === 'nvme' ? 'NVMe' : device.toUpperCase();
}

/** What each stage partitions across the data-parallel GPUs. */
export function shardsOf(stage: ZeroStage, t: Translate = english): string {
  switch (stage) {
    case 0:
      return t('nothing (each GPU holds everything)');
    case 1:
      return t('optimizer states');
    case 2:
      return t('optimizer states, gradients');
    case 3:
      return t('optimizer states, gradients, parameters');
  }
}

/**
 * The header of a hover's option table (the ZeRO options, and the same job under FSDP): the same columns in both,
 * the GPU's size after "Fits" kept on one line.
 */
export function optionTableHeader(gpuMemoryBytes: number | undefined, t: Translate = english): string[] {
  const fits = gpuMemoryBytes ? t('Fits {0}', unbrokenCell(formatGiB(gpuMemoryBytes))) : t({ message: 'Fits', comment: 'table column' });
  return [`| | ${t('Option')} | ${t('Per GPU')} | ${t('Allocated')} | ${t('Peak')} | ${t('CPU RAM / node')} | ${fits} | ${t('Comm. / step')} | ${t('Shards')} |`, '|:-:|---|--:|--:|---|--:|:-:|:-:|---|'];
}


/**
 * The inlay hint after `"stage": N`: the total the fit is judged on, the model and the GPUs, then the allocated
 * figure and the phase that sets the peak, e.g. "≈ 19.2 GiB/GPU · Qwen3-8B · 5 GPUs · 15.1 allocated, optimizer step".
 */
export function stageHintText(result: EstimateResult, modelName: string, gpusPerNode: number, nodes: number, gpuMemoryBytes?: number, t: Translate = english): string {
  // VS Code cuts inlay hints at editor.inlayHints.maximumLength (43 by default): the total, the fit, the model and
  // the GPUs come first; the allocated figure and the phase follow, and stand whole in the tooltip (peakTooltip).
  const over = result.fits === false && gpuMemoryBytes ? ` (> ${formatGiB(gpuMemoryBytes)})` : '';
  return `${t('≈ {0}/GPU', formatGiB(result.perGpu.total))}${over} · ${modelName} · ${formatGpuCount(gpusPerNode, nodes, t)} · ${peakWords(result, t)}`;
}

/** "15.1 allocated, optimizer step": the allocated figure beside the total, and the phase that sets the peak. */
export function peakWords(result: EstimateResult, t: Translate = english): string {
  const allocated = formatGiBValue(result.perGpu.allocated);
  return result.perGpu.peakPhase ? t('{0} allocated, {1}', allocated, phaseLabel(result.perGpu.peakPhase, t)) : t('{0} allocated', allocated);
}

/** The tooltip line of a stage hint: the total, what it is made of, the allocated figure and the phase. */
export function peakTooltip(result: EstimateResult, t: Translate = english): string {
  const g = result.perGpu;
  const sizes = [formatGiB(g.total), formatGiB(g.reserved), formatGiB(g.cudaContext), formatGiB(g.allocated)];
  return g.peakPhase
    ? t('Peak in the {0}: {1} per GPU = {2} reserved by PyTorch + {3} CUDA context and NCCL; {4} allocated (live tensors).', phaseLabel(g.peakPhase, t), ...sizes)
    : t('{0} per GPU = {1} reserved by PyTorch + {2} CUDA context and NCCL; {3} allocated (live tensors).', ...sizes);
}

/**
 * The inlay hint after an offload `device`: what this offload puts off the GPU. Named for its part, since the
 * stage hover's and the CLI's "CPU RAM/node" is the node's whole need (pinned buffers and the other offload too).
 */
export function offloadHintText(kind: 'optimizer' | 'param', device: 'cpu' | 'nvme', result: EstimateResult, t: Translate = english): string | undefined {
  if (device === 'nvme') return result.nvme > 0 ? `NVMe ≈ ${formatGiB(result.nvme)}` : undefined;
  const bytes = kind === 'optimizer' ? result.perCpu.optimizerStates + result.perCpu.gradients : result.perCpu.params;
  if (bytes <= 0) return undefined;
  return kind === 'optimizer' ? t('CPU RAM ≈ {0}/node for the optimizer', formatGiB(bytes)) : t('CPU RAM ≈ {0}/node for the parameters', formatGiB(bytes));
}

/** The offload hint's tooltip: the node's whole CPU RAM, the figure the stage hover and the CLI give. */
export function offloadHintTooltip(result: EstimateResult, t: Translate = english): string {
  return t("What this offload puts in CPU RAM on each node. With pinned buffers and everything else offloaded, a node needs {0} (the estimate table's CPU RAM / node).", formatGiB(result.perCpu.total));
}

/** Fits column: ✓ / ✗ against the GPU, "?" when the GPU size is unknown. */
export function fitMark(result: EstimateResult): string {
  return result.fits === true ? '✓' : result.fits === false ? '✗' : '?';
}

/** A switch's quick-fix title, "Switch to ZeRO-2 (≈ 19.2 GiB/GPU)": stage switches in configs, preset switches in scripts. */
export function switchTitle(target: string, estimate: string, t: Translate = english): string {
  return estimate ? t('Switch to {0} ({1})', target, estimate) : t('Switch to {0}', target);
}
