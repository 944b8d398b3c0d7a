import { formatGpuCount } from './format';
import { english, type Translate } from './l10n';

/**
 * Where a value of the training context came from, as data: the editor shows it, the sidebar decides from its
 * kind whether an input there can change the value, and the CLI prints it as JSON. `describeSource` is the one
 * place that puts it into words.
 */
export type Source =
  /** Nothing said otherwise; `forAuto` when the config says "auto" and nothing fills it. */
  | { kind: 'default'; forAuto?: boolean }
  /** A zeroLens.* setting. */
  | { kind: 'setting'; name: string }
  /** A command-line flag of `zero-lens`. */
  | { kind: 'cli'; flag: string }
  /** A key of the DeepSpeed config (`key` may name a pair, e.g. "bf16/fp16"). */
  | { kind: 'config'; file: string; key: string }
  /** Derived by DeepSpeed from train_batch_size: total ÷ world size ÷ the other factor. */
  | { kind: 'config-derived'; file: string; key: string; total: number; world: number; by: 'accumulation' | 'micro-batch'; divisor: number }
  /** Written in a launch script or launcher YAML. */
  | { kind: 'script'; file: string; line: number }
  /** What the launcher does when the script leaves it out; `rule` says which default. */
  | { kind: 'launcher-default'; file: string; rule: string }
  /** The built-in model catalog. */
  | { kind: 'catalog'; id: string }
  /**
   * Not in the catalog, sized from the name (`…-13B-…`, `30B-A3B`): `statedParams` as the name says, the layer
   * shape of `family`'s nearest catalog model (`shapeFrom`). Approximate; hovers say how to get an exact count.
   */
  | { kind: 'name-size'; family?: string; statedParams: number; statedActiveParams?: number; shapeFrom?: string }
  /** A model folder on disk (config.json, safetensors headers or their index). */
  | { kind: 'model-folder'; path: string; how: 'safetensors' | 'index' | 'config.json' };

export interface Sourced<T> {
  value: T;
  source: Source;
}

/** Last path segment of a file path or URI path. */
function fileName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
}

/**
 * The path of a config that is no file (an ms-swift preset, a launcher's DeepSpeed settings, JSON written inline):
 * its identity, in English, as the caches and the CLI's JSON keep it; `configName` words it for people.
 */
// l10n-ignore-start: identities, worded by configName
export const presetConfigPath = (name: string): string => `${name} (ms-swift preset)`;
export const settingsConfigPath = (via: string): string => `${via} (launcher settings)`;
/** A config the training program builds from its flags: `--zero_stage 2 (DeepSpeed-Chat builds the config)`. */
export const builtConfigPath = (flags: string, builder: string): string => `${flags} (${builder} builds the config)`;
export const inlineConfigPath = (via: string): string => `inline ${via} JSON`;
// l10n-ignore-end

/**
 * A config's path as people read it: a file's name (its whole path with `whole`), or what a config that is no
 * file is, in the reader's language.
 */
export function configName(path: string, t: Translate = english, whole = false): string {
  const named = (pattern: RegExp) => (/[\\/]/.test(path) ? undefined : pattern.exec(path)?.[1]);
  const preset = named(/^(.+) \(ms-swift preset\)$/);
  if (preset !== undefined) return t('{0} (ms-swift preset)', preset);
  const settings = named(/^(.+) \(launcher settings\)$/);
  if (settings !== undefined) return t('{0} (launcher settings)', settings);
  const built = /^([^\\/]+) \((.+) builds the config\)$/.exec(path);
  if (built) return t('{0} ({1} builds the config)', built[1], built[2]);
  const inline = named(/^inline (.+) JSON$/);
  if (inline !== undefined) return t('inline {0} JSON', inline);
  return whole ? path : fileName(path);
}

/**
 * "train.sh line 6", "settings (zeroLens.gpusPerNode)", "ds_config.json (train_micro_batch_size_per_gpu)", in the
 * reader's language (`t`; English by default).
 */
export function describeSource(source: Source, t: Translate = english): string {
  switch (source.kind) {
    case 'default':
      return source.forAuto ? t('default (for "auto")') : t('default');
    case 'setting':
      return t('settings ({0})', `zeroLens.${source.name}`);
    case 'cli':
      return t('command line ({0})', source.flag);
    case 'config':
      return `${configName(source.file, t)} (${source.key})`;
    case 'config-derived': {
      const rest = source.by === 'accumulation' ? t('{0} accumulation', source.divisor) : t('micro-batch {0}', source.divisor);
      return `${configName(source.file, t)} (${source.key} ${source.total} ÷ ${formatGpuCount(source.world, 1, t)} ÷ ${rest})`;
    }
    case 'script':
      return t('{0} line {1}', fileName(source.file), source.line);
    case 'launcher-default':
      return `${source.rule} (${fileName(source.file)})`;
    case 'catalog':
      return t('built-in catalog ({0})', source.id);
    case 'name-size':
      return source.shapeFrom ? t('size from the name, shaped like {0}', source.shapeFrom) : t('size from the name');
    case 'model-folder':
      return `${source.path} (${source.how})`;
  }
}

/**
 * Whether a setting can change this value: it came from a setting or a default. A script, config or
 * command-line value wins over settings, so an input there would change nothing.
 */
export function settingCanChange(source: Source): boolean {
  return source.kind === 'setting' || source.kind === 'default';
}
