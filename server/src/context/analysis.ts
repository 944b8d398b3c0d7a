import type { ResolvedContext } from './trainingContext';
import type { EstimateResult, ModelInfo, ZeroStage } from '../memory/types';
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

/** Preference order among all options: no offload before offload, lower stages first (faster). */
export function preferenceOrder(a: StageTarget, b: StageTarget): number {
  const offloads = (t: StageTarget): number => (t.offloadOptimizer !== 'none' ? 1 : 0) + (t.offloadParam !== 'none' ? 1 : 0);
  return offloads(a) - offloads(b) || a.stage - b.stage;
}

export type OfferKind = 'switch' | 'offload-optimizer' | 'offload-param';

/**
 * The moves offered from the current option, smallest change first: switching the stage (lowest first,
 * offload settings kept where the stage reads them), then offloading optimizer states, then parameters.
 */
export function offeredTargets(current: StageTarget): { kind: OfferKind; target: StageTarget }[] {
  const offers: { kind: OfferKind; target: StageTarget }[] = [];
  for (const stage of [0, 1, 2, 3] as ZeroStage[]) {
    if (stage === current.stage) continue;
    offers.push({
      kind: 'switch',
      target: { stage, offloadOptimizer: stage >= 1 ? current.offloadOptimizer : 'none', offloadParam: stage === 3 ? current.offloadParam : 'none' },
    });
  }
  if (current.stage >= 1 && current.offloadOptimizer === 'none') offers.push({ kind: 'offload-optimizer', target: { ...current, offloadOptimizer: 'cpu' } });
  if (current.offloadParam === 'none') {
    offers.push({ kind: 'offload-param', target: { stage: 3, offloadOptimizer: current.stage === 0 ? 'none' : current.offloadOptimizer, offloadParam: 'cpu' } });
  }
  return offers;
}

/**
 * The smallest change that fits the GPU: the first fitting offered move (lowest stage, then optimizer
 * offload, then parameter offload), else any fitting option in preference order; undefined when nothing fits.
 */
export function smallestChangeThatFits(analysis: ConfigAnalysis): StageTarget | undefined {
  const moves = offeredTargets(analysis.current).map((o) => o.target);
  const rest = [...analysis.options].sort((a, b) => preferenceOrder(a.target, b.target)).map((o) => o.target);
  return [...moves, ...rest].find((t) => analysis.estimate(t)?.fits === true);
}
