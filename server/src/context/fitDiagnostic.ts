import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { hasNumbers, smallestChangeThatFits, type ConfigAnalysis } from './analysis';
import { gib, gpuCount, optionLabel } from './present';
import type { StageTarget } from './stageSwitch';
import { makeDiagnostic } from '../diagnostics/makeDiagnostic';
import type { DiagnosticCode } from '../diagnostics/registry';

/** Stable code of the "does not fit" warning; its fixes read everything they need from `data`. */
export const estimateExceedsCode: DiagnosticCode = 'estimate-exceeds-gpu-memory';

/** What the fit warning carries for its quick fixes (stateless code actions). */
export interface FitDiagnosticData {
  current: StageTarget;
  perGpuBytes: number;
  gpuMemoryBytes: number;
  /** The smallest change that fits, in preference order; null when nothing fits. */
  suggestion: (StageTarget & { perGpuBytes: number }) | null;
}

/** A warning on `stage` when the current option's estimate exceeds the GPU; undefined when it fits or is unknown. */
export function fitDiagnostic(analysis: ConfigAnalysis, range: Range): Diagnostic | undefined {
  if (!hasNumbers(analysis) || !analysis.gpuMemoryBytes) return undefined;
  const result = analysis.estimate(analysis.current);
  if (!result || result.fits !== false) return undefined;
  const memory = analysis.gpuMemoryBytes;
  const over = result.perGpu.total - memory;
  const context = `${analysis.model!.displayName}, ${gpuCount(analysis.context.gpusPerNode!.value, analysis.context.nodes.value)}, micro-batch ${analysis.context.microBatchSize.value}, sequence ${analysis.context.sequenceLength.value}`;
  const fitting = smallestChangeThatFits(analysis);
  const fittingResult = fitting && analysis.estimate(fitting);
  const advice = fitting && fittingResult
    ? `Smallest change that fits: ${optionLabel(fitting)} (≈ ${gib(fittingResult.perGpu.total)}/GPU).`
    : `No ZeRO option fits: even the most offloaded one needs ≈ ${gib(Math.min(...analysis.options.map((o) => o.result.perGpu.total)))}/GPU. Lower the micro-batch or sequence length, turn on gradient checkpointing, train LoRA adapters, or add GPUs.`;
  const data: FitDiagnosticData = {
    current: analysis.current,
    perGpuBytes: result.perGpu.total,
    gpuMemoryBytes: memory,
    suggestion: fitting && fittingResult ? { ...fitting, perGpuBytes: fittingResult.perGpu.total } : null,
  };
  const message = `${optionLabel(analysis.current)} needs ≈ ${gib(result.perGpu.total)} per GPU, ${gib(over)} more than the ${gib(memory)} GPU (${context}). ${advice}`;
  return makeDiagnostic(estimateExceedsCode, range, message, data);
}

export function isFitDiagnostic(diagnostic: Diagnostic): diagnostic is Diagnostic & { data: FitDiagnosticData } {
  const data = diagnostic.data as Partial<FitDiagnosticData> | undefined;
  return diagnostic.code === estimateExceedsCode && diagnostic.source === 'zero-lens' && !!data && typeof data === 'object' && !!data.current;
}
