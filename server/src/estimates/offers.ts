import type { ZeroOption, ZeroStage } from '../protocol';
import type { ConfigAnalysis } from '../training/analysis';

/** Preference order among all options: no offload before offload, lower stages first (faster). */
export function preferenceOrder(a: ZeroOption, b: ZeroOption): number {
  const offloads = (t: ZeroOption): number => (t.offloadOptimizer !== 'none' ? 1 : 0) + (t.offloadParam !== 'none' ? 1 : 0);
  return offloads(a) - offloads(b) || a.stage - b.stage;
}

export type OfferKind = 'switch' | 'offload-optimizer' | 'offload-param';

/**
 * The moves offered from the current option, smallest change first: switching the stage (lowest first,
 * offload settings kept where the stage reads them), then offloading optimizer states, then parameters.
 */
export function offeredTargets(current: ZeroOption): { kind: OfferKind; target: ZeroOption }[] {
  const offers: { kind: OfferKind; target: ZeroOption }[] = [];
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
export function smallestChangeThatFits(analysis: ConfigAnalysis): ZeroOption | undefined {
  const moves = offeredTargets(analysis.current).map((o) => o.target);
  const rest = [...analysis.options].sort((a, b) => preferenceOrder(a.target, b.target)).map((o) => o.target);
  return [...moves, ...rest].find((t) => analysis.estimate(t)?.fits === true);
}
