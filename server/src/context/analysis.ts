import type { EstimateResult, ModelInfo } from '../memory/types';
import type { ResolvedContext } from './trainingContext';
import { sameOption, type StageTarget } from './stageSwitch';

/** One option with its estimate. */
export interface OptionEstimate {
  target: StageTarget;
  label: string;
  result: EstimateResult;
}

/**
 * Everything the hint, hover, diagnostic, quick fixes and sidebar say about one config version in one
 * context, computed once and cached (see analysisCache.ts).
 */
export interface ConfigAnalysis {
  configPath: string;
  context: ResolvedContext;
  /** The resolved model; undefined when none is named or it could not be sized. */
  model?: ModelInfo;
  /** Why a named model has no size (not in the catalog, folder without config.json). */
  modelProblem?: string;
  current: StageTarget;
  /** Every option with its estimate; empty when numbers cannot be given. */
  options: OptionEstimate[];
  /** Estimate for any option (computed on demand for options outside the standard list); undefined without numbers. */
  estimate(target: StageTarget): EstimateResult | undefined;
  gpuMemoryBytes?: number;
  /** Missing inputs; "model" or "gpusPerNode" here means there are no numbers at all. */
  missing: string[];
}

/** Numbers are only shown when both the model and the GPU count are known: never invented ones. */
export function hasNumbers(analysis: ConfigAnalysis): boolean {
  return !!analysis.model && !!analysis.context.gpusPerNode && analysis.options.length > 0;
}

export function findOption(options: OptionEstimate[], target: StageTarget): OptionEstimate | undefined {
  return options.find((o) => sameOption(o.target, target));
}

/** Preference order for "the smallest change that fits": no offload before offload, lower stages first (faster). */
export function preferenceOrder(a: StageTarget, b: StageTarget): number {
  const offloads = (t: StageTarget): number => (t.offloadOptimizer !== 'none' ? 1 : 0) + (t.offloadParam !== 'none' ? 1 : 0);
  return offloads(a) - offloads(b) || a.stage - b.stage;
}

/** The first option in preference order that fits the GPU; undefined when none does or fit is unknown. */
export function smallestFittingOption(options: OptionEstimate[]): OptionEstimate | undefined {
  return [...options].sort((a, b) => preferenceOrder(a.target, b.target)).find((o) => o.result.fits === true);
}

/** Lowest stage that fits without offload (the preferred switch, since lower stages are faster). */
export function lowestFittingStage(options: OptionEstimate[]): OptionEstimate | undefined {
  return smallestFittingOption(options.filter((o) => o.target.offloadOptimizer === 'none' && o.target.offloadParam === 'none'));
}
