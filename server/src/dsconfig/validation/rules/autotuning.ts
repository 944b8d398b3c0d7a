import { fix } from '../configView';
import type { Rule } from './rule';

/**
 * "flops" is an allowed metric (autotuning/constants.py:96), but the engine writes only "latency",
 * "FLOPS_per_gpu" and "throughput" to the metric file (engine.py:3574-3576), and the autotuner reads
 * results[metric] (autotuning/autotuner.py:784, scheduler.py:235): a KeyError in DeepSpeed itself.
 */
export const autotuningMetricFlops: Rule = (config) => {
  const path = ['autotuning', 'metric'];
  if (config.get(path) !== 'flops') return [];
  return [
    config.diagnostic('autotuning-metric-unsupported', 'warning', config.valueRange(path),
      config.t('"metric": "flops" is listed by DeepSpeed but does not work: each experiment records only "latency", "FLOPS_per_gpu" and "throughput", so the autotuner fails with KeyError \'flops\' when it reads the results.'),
      { path, fixes: [fix(config.t('Use "throughput" (the default)'), [{ op: 'set', path, value: 'throughput' }], true), fix(config.t('Use "latency"'), [{ op: 'set', path, value: 'latency' }])] },
    ),
  ];
};

export const autotuningRules: Rule[] = [autotuningMetricFlops];
