import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver-types';
import { formatGiB, formatGpuCount, optionLabel, type ZeroOption } from '../protocol';
import { hasNumbers, type ConfigAnalysis } from '../training/analysis';
import { smallestChangeThatFits } from './offers';

/** Stable code of the "does not fit" warning; its fixes read everything they need from `data`. */
export const estimateExceedsCode = 'estimate-exceeds-gpu-memory';
export const estimateDocsUrl = 'https://www.deepspeed.ai/tutorials/zero/';

/** What the fit warning carries for its quick fixes (stateless code actions). */
export interface FitDiagnosticData {
  current: ZeroOption;
  perGpuBytes: number;
  gpuMemoryBytes: number;
  /** The smallest change that fits, in preference order; null when nothing fits. */
  suggestion: (ZeroOption & { perGpuBytes: number }) | null;
}

/** A warning on `stage` when the current option's estimate exceeds the GPU; undefined when it fits or is unknown. */
export function fitDiagnostic(analysis: ConfigAnalysis, range: Range): Diagnostic | undefined {
  if (!hasNumbers(analysis) || !analysis.gpuMemoryBytes) return undefined;
  const result = analysis.estimate(analysis.current);
  if (!result || result.fits !== false) return undefined;
  const memory = analysis.gpuMemoryBytes;
  const over = result.perGpu.total - memory;
  const context = `${analysis.model!.displayName}, ${formatGpuCount(analysis.context.gpusPerNode!.value, analysis.context.nodes.value)}, micro-batch ${analysis.context.microBatchSize.value}, sequence ${analysis.context.sequenceLength.value}`;
  const fitting = smallestChangeThatFits(analysis);
  const fittingResult = fitting && analysis.estimate(fitting);
  const advice = fitting && fittingResult
    ? `Smallest change that fits: ${optionLabel(fitting)} (≈ ${formatGiB(fittingResult.perGpu.total)}/GPU).`
    : `No ZeRO option fits: even the most offloaded one needs ≈ ${formatGiB(Math.min(...analysis.options.map((o) => o.result.perGpu.total)))}/GPU. Lower the micro-batch or sequence length, turn on gradient checkpointing, train LoRA adapters, or add GPUs.`;
  const data: FitDiagnosticData = {
    current: analysis.current,
    perGpuBytes: result.perGpu.total,
    gpuMemoryBytes: memory,
    suggestion: fitting && fittingResult ? { ...fitting, perGpuBytes: fittingResult.perGpu.total } : null,
  };
  return {
    range,
    severity: DiagnosticSeverity.Warning,
    code: estimateExceedsCode,
    codeDescription: { href: estimateDocsUrl },
    source: 'zero-lens',
    message: `${optionLabel(analysis.current)} needs ≈ ${formatGiB(result.perGpu.total)} per GPU, ${formatGiB(over)} more than the ${formatGiB(memory)} GPU (${context}). ${advice}`,
    data,
  };
}

export function isFitDiagnostic(diagnostic: Diagnostic): diagnostic is Diagnostic & { data: FitDiagnosticData } {
  const data = diagnostic.data as Partial<FitDiagnosticData> | undefined;
  return diagnostic.code === estimateExceedsCode && diagnostic.source === 'zero-lens' && !!data && typeof data === 'object' && !!data.current;
}
