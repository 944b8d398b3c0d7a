import type { JSONPath } from 'jsonc-parser';
import type { CodeOf } from '../../../diagnostics/registry';
import { fix, showValue, type ConfigView } from '../configView';
import type { Rule } from './rule';
import { joinList } from '../../../l10n';

/**
 * String settings DeepSpeed matches case-insensitively (so a JSON-schema enum would be too strict); these
 * rules own their values and schema errors there are dropped.
 */
interface CaseInsensitiveSetting {
  path: JSONPath;
  allowed: string[];
  code: CodeOf<'ds-config'>;
  /** What DeepSpeed raises on another value. */
  raises: string;
  nullable?: boolean;
}

const settings: CaseInsensitiveSetting[] = [
  { path: ['log_level'], allowed: ['debug', 'info', 'warning', 'error', 'critical'], code: 'log-level-invalid', raises: 'ValueError', nullable: true },
  // l10n-ignore: DeepSpeed's values
  { path: ['checkpoint', 'tag_validation'], allowed: ['Ignore', 'Warn', 'Fail'], code: 'tag-validation-invalid', raises: 'DeepSpeedConfigError' },
  { path: ['communication_data_type'], allowed: ['fp32', 'fp16', 'bf16'], code: 'communication-data-type-invalid', raises: 'ValueError', nullable: true },
  // null: DeepSpeed picks the type from the precision settings, as for communication_data_type (config.py:212).
  { path: ['seq_parallel_communication_data_type'], allowed: ['fp32', 'fp16', 'bf16'], code: 'communication-data-type-invalid', raises: 'ValueError', nullable: true },
];

function check(config: ConfigView, setting: CaseInsensitiveSetting) {
  if (!config.has(setting.path)) return [];
  const value = config.get(setting.path);
  if (value === null && setting.nullable) return [];
  if (typeof value === 'string' && setting.allowed.some((a) => a.toLowerCase() === value.toLowerCase())) return [];
  const key = String(setting.path[setting.path.length - 1]);
  const list = joinList(config.t, setting.allowed.map((a) => `"${a}"`));
  return [
    config.diagnostic(setting.code, 'error', config.valueRange(setting.path), config.t('"{0}" must be one of {1} (any case){2}; DeepSpeed raises {3} on {4}.', key, list, setting.nullable ? config.t(' or null') : '', setting.raises, showValue(value)), {
      path: setting.path,
      allowed: setting.allowed,
      fixes: setting.allowed.map((a) => fix(config.t('Use "{0}"', a), [{ op: 'set', path: setting.path, value: a }])),
    }),
  ];
}

export const caseInsensitiveValues: Rule = (config) => settings.flatMap((s) => check(config, s));

/** DeepSpeed only warns, but a vocabulary not padded to a multiple of 8 wastes tensor-core throughput. */
export const vocabularySize: Rule = (config) => {
  const size = config.number(['vocabulary_size']);
  if (size === undefined || !Number.isInteger(size) || size % 8 === 0) return [];
  const padded = Math.ceil(size / 8) * 8;
  return [
    config.diagnostic('vocabulary-size-not-multiple-of-8', 'information', config.valueRange(['vocabulary_size']), config.t('"vocabulary_size" {0} is not a multiple of 8; DeepSpeed warns, since padded sizes ({1}) run faster on tensor cores.', size, padded), {
      path: ['vocabulary_size'],
    }),
  ];
};

export const valueRules: Rule[] = [caseInsensitiveValues, vocabularySize];
export const valueOwnedPaths: JSONPath[] = settings.map((s) => s.path);
