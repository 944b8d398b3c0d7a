import type { Diagnostic, Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { english, formatGiB, formatGpuCount, GiB, optionLabel, type Translate, type ZeroOption } from '../protocol';
import { translator } from '../l10n';
import type { EstimateResult } from '../memory/types';
import type { ZeroLensSettings } from '../settings';
import { hasNumbers, type ConfigAnalysis } from '../training/analysis';
import { smallestChangeThatFits } from './offers';
import { diagnosticData, type DiagnosticData } from '../diagnostics/fixData';
import { makeDiagnostic } from '../diagnostics/makeDiagnostic';
import { readDiagnosticData } from '../diagnostics/readDiagnosticData';
import type { DiagnosticCode } from '../diagnostics/registry';

/** Stable code of the "does not fit" warning; its fixes read everything they need from `data`. */
export const estimateExceedsCode: DiagnosticCode = 'estimate-exceeds-gpu-memory';

/**
 * What the fit warning carries for its quick fixes (stateless code actions). Its stage switches are not
 * in `fixes`: they are worked out when asked, from the analysis then, with estimates in their titles.
 */
export interface FitDetails {
  current: ZeroOption;
  perGpuBytes: number;
  gpuMemoryBytes: number;
  /** The smallest change that fits, in preference order; null when nothing fits. */
  suggestion: (ZeroOption & { perGpuBytes: number }) | null;
}

export type FitDiagnosticData = DiagnosticData & FitDetails;

/** A warning on `stage` when the current option's estimate exceeds the GPU; undefined when it fits or is unknown. */
export function fitDiagnostic(analysis: ConfigAnalysis, range: Range, document: TextDocument, t: Translate = english): Diagnostic | undefined {
  if (!hasNumbers(analysis) || !analysis.gpuMemoryBytes) return undefined;
  const result = analysis.estimate(analysis.current);
  if (!result || result.fits !== false) return undefined;
  const memory = analysis.gpuMemoryBytes;
  const over = result.perGpu.total - memory;
  const context = t(
    '{0}, {1}, micro-batch {2}, sequence {3}',
    analysis.model!.displayName,
    formatGpuCount(analysis.context.gpusPerNode!.value, analysis.context.nodes.value, t),
    analysis.context.microBatchSize.value,
    analysis.context.sequenceLength.value,
  );
  const fitting = smallestChangeThatFits(analysis);
  const fittingResult = fitting && analysis.estimate(fitting);
  const advice =
    fitting && fittingResult
      ? t('Smallest change that fits: {0} (≈ {1}/GPU).', optionLabel(fitting, t), formatGiB(fittingResult.perGpu.total))
      : t(
          'No ZeRO option fits: even the most offloaded one needs ≈ {0}/GPU. Lower the micro-batch or sequence length, turn on gradient checkpointing, train LoRA adapters, or add GPUs.',
          formatGiB(Math.min(...analysis.options.map((o) => o.result.perGpu.total))),
        );
  const details: FitDetails = {
    current: analysis.current,
    perGpuBytes: result.perGpu.total,
    gpuMemoryBytes: memory,
    suggestion: fitting && fittingResult ? { ...fitting, perGpuBytes: fittingResult.perGpu.total } : null,
  };
  const message = t('{0} needs ≈ {1} per GPU, {2} more than the {3} GPU ({4}). {5}', optionLabel(analysis.current, t), formatGiB(result.perGpu.total), formatGiB(over), formatGiB(memory), context, advice);
  return makeDiagnostic(estimateExceedsCode, range, message, diagnosticData(document, { ...details }));
}

/**
 * Host memory a node needs for what the run offloads (optimizer states, gradients, parameters of every rank on
 * the node), against `zeroLens.cpuMemoryGiB`: undefined when it fits, nothing is offloaded, or no capacity is set.
 */
export function hostMemoryExcess(result: EstimateResult, settings: ZeroLensSettings): { needed: number; message: string } | undefined {
  const capacity = settings.cpuMemoryGiB;
  if (!capacity || !(capacity > 0) || result.perCpu.total <= 0) return undefined;
  const bytes = capacity * GiB;
  if (result.perCpu.total <= bytes) return undefined;
  const t = translator(settings.locale);
  return {
    needed: result.perCpu.total,
    message: t(
      'The offloaded states need ≈ {0} of host memory per node ({1} pinned), more than the {2} the node has (zeroLens.cpuMemoryGiB): the run is killed for lack of memory or swaps. Offload less, or use more nodes.',
      formatGiB(result.perCpu.total),
      formatGiB(result.perCpu.pinned),
      formatGiB(bytes),
    ),
  };
}

/** The host-memory verdict on a config's `stage`, from its analysis. */
export function hostMemoryDiagnostic(analysis: ConfigAnalysis, range: Range, document: TextDocument, settings: ZeroLensSettings): Diagnostic | undefined {
  const result = hasNumbers(analysis) ? analysis.estimate(analysis.current) : undefined;
  const excess = result && hostMemoryExcess(result, settings);
  return excess ? makeDiagnostic('estimate-exceeds-cpu-memory', range, excess.message, diagnosticData(document, { perNodeCpuBytes: excess.needed })) : undefined;
}

/** A fit warning of ours whose data (which came back from the client) has the shape its fixes need. */
export function isFitDiagnostic(diagnostic: Diagnostic): diagnostic is Diagnostic & { data: FitDiagnosticData } {
  if (diagnostic.code !== estimateExceedsCode || diagnostic.source !== 'zero-lens' || !readDiagnosticData(diagnostic.data)) return false;
  const data = diagnostic.data as Record<string, unknown>;
  const suggestion = data.suggestion as Record<string, unknown> | null;
  return isZeroOption(data.current) && (suggestion === null || (isZeroOption(suggestion) && typeof suggestion.perGpuBytes === 'number'));
}

function isZeroOption(value: unknown): value is ZeroOption {
  const target = value as Record<string, unknown> | null;
  const device = (d: unknown) => d === 'none' || d === 'cpu' || d === 'nvme';
  return !!target && typeof target === 'object' && [0, 1, 2, 3].includes(target.stage as number) && device(target.offloadOptimizer) && device(target.offloadParam);
}
