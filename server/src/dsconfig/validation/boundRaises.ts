import type { JSONPath } from 'jsonc-parser';
import { DS } from '../../diagnostics/upstream';
import type { BoundKeyword, DeepSpeedMeta } from '../schemaIndex';
import type { ConfigView } from './configView';

/**
 * Sections whose values DeepSpeed checks only while the section is enabled: the line that skips them otherwise.
 * Elasticity is computed only when enabled (runtime/config.py, and the launcher's --elastic_training); AutoEP's
 * checks return early when it is off.
 */
const checkedWhenEnabled: [section: string, guard: string][] = [
  ['elasticity', `${DS}:deepspeed/runtime/config.py#L730-731`],
  ['expert_parallel', `${DS}:deepspeed/module_inject/auto_ep_config.py#L118-119`],
];

/**
 * Where DeepSpeed refuses a value outside the schema's `keyword` bound at `path`: the schema's `boundRaises` as a
 * citation, `'off'` when that check lives in a section that is not enabled (DeepSpeed skips it), undefined when
 * the key has no citation.
 */
export function boundRaises(meta: DeepSpeedMeta, keyword: string, path: JSONPath, config: ConfigView, value?: unknown): string | 'off' | undefined {
  const valueLine = typeof value === 'number' ? meta.valueRaises?.[String(value)] : undefined;
  if (valueLine) return `${DS}:${valueLine}`;
  const line = typeof meta.boundRaises === 'string' ? meta.boundRaises : meta.boundRaises?.[keyword as BoundKeyword];
  if (!line) return undefined;
  const guarded = checkedWhenEnabled.find(([section]) => path[0] === section);
  if (guarded && !config.isTrue([guarded[0], 'enabled'])) return 'off';
  return `${DS}:${line}`;
}
