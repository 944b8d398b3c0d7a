import { DS } from '../../../diagnostics/upstream';
import type { Rule } from './rule';

/** SPARSE_PRUNING_SCHEDULE_OFFSET_DEFAULT (compression/constants.py). */
const scheduleOffsetDefault = 1000;

/**
 * snip_momentum sparse pruning: schedule_offset_end defaults to schedule_offset and DeepSpeed asserts
 * schedule_offset <= schedule_offset_end while parsing the config, whether or not pruning is enabled
 * (compression/config.py:244-260).
 */
export const sparsePruningScheduleEnd: Rule = (config) => {
  const shared = ['compression_training', 'sparse_pruning', 'shared_parameters'];
  if (config.get([...shared, 'method']) !== 'snip_momentum') return [];
  const endPath = [...shared, 'schedule_offset_end'];
  const end = config.number(endPath);
  if (end === undefined) return [];
  const offset = config.has([...shared, 'schedule_offset']) ? config.number([...shared, 'schedule_offset']) : scheduleOffsetDefault;
  if (offset === undefined || end >= offset) return [];
  const from = config.has([...shared, 'schedule_offset']) ? `"schedule_offset" ${offset}` : config.t('the default "schedule_offset" {0}', offset);
  return [
    config.diagnostic('out-of-range', 'error', config.valueRange(endPath), config.t('"schedule_offset_end" {0} is below {1}; DeepSpeed asserts schedule_offset <= schedule_offset_end for snip_momentum (compression/config.py:260), so deepspeed.initialize stops with an AssertionError. Leave it out to end at "schedule_offset".', end, from), {
      path: endPath,
      comparison: '>=',
      limit: offset,
    }, undefined, `${DS}:deepspeed/compression/config.py#L260-261`),
  ];
};

export const compressionRules: Rule[] = [sparsePruningScheduleEnd];
