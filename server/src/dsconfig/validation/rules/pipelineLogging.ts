import { fix } from '../configView';
import type { Rule } from './rule';

/**
 * PipelineEngine logs its timers with `global_steps % steps_per_print()` and no None guard
 * (runtime/pipe/engine.py:1260-1272), and steps_per_print defaults to None (constants.py:82), so wall-clock
 * breakdown, which flops_profiler.enabled also turns on (config.py:855), fails at the first optimizer step.
 * A warning: the config alone cannot show that the model is a PipelineModule. The default is None from DeepSpeed
 * 0.15.2 on (#6602); before, it was 10, and an absent steps_per_print is fine under such a release.
 */
export const pipelineTimersWithoutStepsPerPrint: Rule = (config) => {
  if (!config.section(['pipeline'])) return [];
  const cause = config.get(['wall_clock_breakdown']) === true ? 'wall_clock_breakdown' : config.get(['flops_profiler', 'enabled']) === true ? 'flops_profiler' : undefined;
  const steps = config.get(['steps_per_print']);
  if (!cause || (steps !== undefined && steps !== null)) return [];
  if (steps === undefined && !config.holds('stepsPerPrintNone')) return [];
  const path = cause === 'wall_clock_breakdown' ? ['wall_clock_breakdown'] : ['flops_profiler', 'enabled'];
  const why = cause === 'wall_clock_breakdown' ? '"wall_clock_breakdown": true' : config.t('"flops_profiler" (which turns wall_clock_breakdown on)');
  return [
    config.diagnostic('pipeline-timers-without-steps-per-print', 'warning', config.keyRange(path),
      steps === null
        ? config.t('With a pipeline model, {0} needs "steps_per_print": the PipelineEngine computes global_steps % steps_per_print to log its timers, and steps_per_print is null, so the first optimizer step fails with TypeError.', why)
        : config.t('With a pipeline model, {0} needs "steps_per_print": the PipelineEngine computes global_steps % steps_per_print to log its timers, and steps_per_print defaults to null, so the first optimizer step fails with TypeError.', why),
      { path, fixes: [fix(config.t('Set "steps_per_print": 10'), [{ op: 'set', path: ['steps_per_print'], value: 10 }], true)] },
    ),
  ];
};

export const pipelineLoggingRules: Rule[] = [pipelineTimersWithoutStepsPerPrint];
