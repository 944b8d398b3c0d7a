/**
 * Messages between the sidebar webview and the extension: one discriminated union each way, with
 * runtime validators on both ends. Webview input is untrusted: anything malformed is dropped.
 * Pure (no vscode, no DOM), shared by the extension bundle and the webview bundle.
 */
import type { CatalogEntry, OffloadDevice, ZeroStage } from '../../../server/src/protocol';
import { settingDefinitions, settingProblem, describeSettingProblem, type SettingDefinition, type SettingName, type SettingProblem } from '../../../server/src/protocol/settings';
import { CONTEXT_ORDER, type ContextKey, type OptionKey, type SidebarViewModel } from './viewModel';

// The webview imports nothing but this module (the layer check enforces it): what it draws comes from here.
export type { CatalogEntry } from '../../../server/src/protocol';
export { formatCount } from '../../../server/src/protocol/format';
export { formatMessage } from '../../../server/src/protocol/l10n';
export type { AlternativeVM, BarVM, ContextKey, ContextRowVM, MemoryRowVM, OptionKey, SegmentVM, SidebarViewModel } from './viewModel';

/**
 * Every word the webview shows that is not in a view model: the extension translates them (`vscode.l10n.t`,
 * see webviewStrings.ts) and writes them into the page, so the webview has no catalog of its own. `{0}`,
 * `{1}` stand for what the webview fills in (`formatMessage`).
 */
export interface WebviewStrings {
  picture: string;
  numbers: string;
  trainingContext: string;
  refresh: string;
  noFile: string;
  useFolder: string;
  folderButton: string;
  openSettings: string;
  allSettings: string;
  loraPlaceholder: string;
  notSet: string;
  gpuPresets: string;
  preset: string;
  recompute: string;
  notSetSearch: string;
  modelPlaceholder: string;
  fromWorkspaceSettings: string;
  /** `{0}`: where the value came from. */
  from: string;
  fromFileWins: string;
  zeroOptions: string;
  /** The heading of the FSDP / Megatron rows, and the sentence under it. */
  alternatives: string;
  alternativesNote: string;
  legend: string;
  current: string;
  apply: string;
  currentBadge: string;
  tableLabel: string;
  tableCaption: string;
  /** The training-context inputs' labels. */
  labels: Record<ContextKey, string>;
  /** What is wrong with a typed value; `{0}` is the input's label. */
  errors: Record<InputProblem['kind'], string>;
}

const WEBVIEW_STRING_FIELDS = [
  'picture', 'numbers', 'trainingContext', 'refresh', 'noFile', 'useFolder', 'folderButton', 'openSettings', 'allSettings', 'loraPlaceholder',
  'notSet', 'gpuPresets', 'preset', 'recompute', 'notSetSearch', 'modelPlaceholder', 'fromWorkspaceSettings', 'from', 'fromFileWins',
  'zeroOptions', 'alternatives', 'alternativesNote', 'legend', 'current', 'apply', 'currentBadge', 'tableLabel', 'tableCaption',
] as const satisfies readonly Exclude<keyof WebviewStrings, 'labels' | 'errors'>[];

/** The page's strings as the extension wrote them into it; undefined when any is missing (a page of another version). */
export function parseWebviewStrings(value: unknown): WebviewStrings | undefined {
  if (!isRecord(value) || !isRecord(value.labels) || !isRecord(value.errors)) return undefined;
  if (!WEBVIEW_STRING_FIELDS.every((field) => typeof value[field] === 'string')) return undefined;
  if (!Object.values(value.labels).every((label) => typeof label === 'string')) return undefined;
  if (!SETTING_PROBLEMS.every((kind) => typeof (value.errors as Record<string, unknown>)[kind] === 'string')) return undefined;
  return value as unknown as WebviewStrings;
}

/** Why a setting value was refused, as data (protocol/settings.ts): the webview words it with its strings, the log in English. */
export type { SettingProblem } from '../../../server/src/protocol/settings';
/** The problems a sidebar input can have (no sidebar input takes a list). */
type InputProblem = Exclude<SettingProblem, { kind: 'notList' | 'pattern' }>;

const SETTING_PROBLEMS: readonly InputProblem['kind'][] = ['notNumber', 'notInteger', 'range', 'notBoolean', 'notAllowed', 'notText', 'controlCharacters', 'tooLong'];

/** The arguments after the label that a problem's text takes (`{1}`, `{2}`). */
export function settingProblemArgs(problem: InputProblem): (string | number)[] {
  switch (problem.kind) {
    case 'range':
      return [problem.min, problem.max];
    case 'notAllowed':
      return [problem.values.join(', ')];
    case 'tooLong':
      return [problem.max];
    default:
      return [];
  }
}

/** The workspace settings the sidebar's inputs write, one per context row; protocol/settings.ts defines them. */
export const SETTING_KEYS = CONTEXT_ORDER satisfies readonly SettingName[];
export type SettingKey = (typeof SETTING_KEYS)[number];

export type SettingValue = string | number | boolean;

interface NumberSpec {
  kind: 'number';
  integer: boolean;
  min: number;
  max: number;
}
type SettingSpec = NumberSpec | { kind: 'boolean' } | { kind: 'enum'; values: readonly string[] } | { kind: 'text'; maxLength: number };

/** A definition as the webview's inputs need it: which control, and its limits. */
function specOf(definition: SettingDefinition): SettingSpec {
  switch (definition.type) {
    case 'integer':
    case 'number':
      return { kind: 'number', integer: definition.type === 'integer', min: definition.minimum, max: definition.maximum ?? Number.MAX_SAFE_INTEGER };
    case 'boolean':
      return { kind: 'boolean' };
    case 'string':
      return definition.enum ? { kind: 'enum', values: definition.enum } : { kind: 'text', maxLength: definition.maxLength ?? Number.MAX_SAFE_INTEGER };
    case 'array':
      throw new Error('the sidebar has no input for a list setting');
  }
}

/** Accepted values per setting; the webview uses the same limits for its inputs. */
export const SETTING_SPECS = Object.fromEntries(SETTING_KEYS.map((key) => [key, specOf(settingDefinitions[key])])) as Readonly<Record<SettingKey, SettingSpec>>;

/** GPU memory presets offered next to the GPU memory input (nominal sizes, GiB). */
export const GPU_PRESETS: readonly { label: string; gib: number }[] = [
  { label: 'A100 40GB', gib: 40 },
  { label: 'A100 80GB', gib: 80 },
  { label: 'H100 80GB', gib: 80 },
  { label: 'H200 141GB', gib: 141 },
  { label: 'H20 96GB', gib: 96 },
  { label: 'L40S 48GB', gib: 48 },
  { label: 'RTX 4090 24GB', gib: 24 },
  { label: 'RTX 3090 24GB', gib: 24 },
  { label: 'V100 16GB', gib: 16 },
  { label: 'V100 32GB', gib: 32 },
  { label: 'Ascend 910B 64GB', gib: 64 },
];

// ---- webview → extension ----

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'refresh' }
  | { type: 'apply'; option: OptionKey }
  /** `value: null` removes the workspace setting. */
  | { type: 'setSetting'; key: SettingKey; value: SettingValue | null }
  | { type: 'pickModelFolder' }
  | { type: 'openSettings' }
  /** Ctrl+Z / Ctrl+Shift+Z pressed in the sidebar outside a text field: a step back or forth in its document. */
  | { type: 'undo' }
  | { type: 'redo' };

// ---- extension → webview ----

export interface HostUpdate {
  type: 'update';
  vm: SidebarViewModel;
  /** Workspace setting values, shown in inputs when the estimate has no context (e.g. no server answer). */
  settings: Partial<Record<SettingKey, SettingValue>>;
}

export type HostMessage =
  | HostUpdate
  | { type: 'catalog'; entries: CatalogEntry[] }
  | { type: 'notice'; level: 'info' | 'error'; text: string };

type Result<T> = { ok: true; value: T } | { ok: false; error: string };
/** A refused setting value says why as data too, for the webview to word. */
type SettingResult<T> = { ok: true; value: T } | { ok: false; error: string; problem: InputProblem };

const STAGES: readonly number[] = [0, 1, 2, 3];
const DEVICES: readonly string[] = ['none', 'cpu', 'nvme'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).every((k) => keys.includes(k));
}

// l10n-ignore-start: refusals of malformed messages go to the log, for developers; a refused setting value says
// why as data (SettingProblem), which the webview words in the reader's language.
export function parseOptionKey(value: unknown): Result<OptionKey> {
  if (!isRecord(value) || !hasOnlyKeys(value, ['stage', 'offloadOptimizer', 'offloadParam'])) return fail('option must be {stage, offloadOptimizer, offloadParam}');
  const { stage, offloadOptimizer, offloadParam } = value;
  if (typeof stage !== 'number' || !STAGES.includes(stage)) return fail('stage must be 0, 1, 2 or 3');
  if (typeof offloadOptimizer !== 'string' || !DEVICES.includes(offloadOptimizer)) return fail('offloadOptimizer must be none, cpu or nvme');
  if (typeof offloadParam !== 'string' || !DEVICES.includes(offloadParam)) return fail('offloadParam must be none, cpu or nvme');
  return { ok: true, value: { stage: stage as ZeroStage, offloadOptimizer: offloadOptimizer as OffloadDevice, offloadParam: offloadParam as OffloadDevice } };
}

/** Checks one setting value against its definition; text is trimmed, and empty text means "remove". */
export function parseSettingValue(key: SettingKey, value: unknown): SettingResult<SettingValue | null> {
  if (value === null) return { ok: true, value: null };
  const candidate = typeof value === 'string' && SETTING_SPECS[key].kind === 'text' ? value.trim() : value;
  const problem = settingProblem(settingDefinitions[key], candidate) as InputProblem | undefined;
  // `error` is for the log (English, like the other refusals); the webview words `problem` in the reader's language.
  if (problem) return { ok: false, error: `${key} ${describeSettingProblem(problem)}`, problem };
  return { ok: true, value: candidate === '' ? null : (candidate as SettingValue) };
}

/** Validates a message from the webview. Unknown types, extra fields and bad values are rejected. */
export function parseWebviewMessage(message: unknown): Result<WebviewMessage> {
  if (!isRecord(message) || typeof message.type !== 'string') return fail('message must be an object with a type');
  switch (message.type) {
    case 'ready':
    case 'refresh':
    case 'pickModelFolder':
    case 'openSettings':
    case 'undo':
    case 'redo':
      return hasOnlyKeys(message, ['type']) ? { ok: true, value: { type: message.type } } : fail(`${message.type} takes no fields`);
    case 'apply': {
      if (!hasOnlyKeys(message, ['type', 'option'])) return fail('apply takes only an option');
      const option = parseOptionKey(message.option);
      return option.ok ? { ok: true, value: { type: 'apply', option: option.value } } : option;
    }
    case 'setSetting': {
      if (!hasOnlyKeys(message, ['type', 'key', 'value'])) return fail('setSetting takes key and value');
      const key = message.key;
      if (typeof key !== 'string' || !(SETTING_KEYS as readonly string[]).includes(key)) return fail('unknown setting');
      if (!('value' in message)) return fail('setSetting needs a value (null removes the setting)');
      const value = parseSettingValue(key as SettingKey, message.value);
      return value.ok ? { ok: true, value: { type: 'setSetting', key: key as SettingKey, value: value.value } } : fail(value.error);
    }
    default:
      return fail(`unknown message type ${JSON.stringify(message.type).slice(0, 40)}`);
  }
}

/**
 * Validates a message from the extension in the webview. The extension is trusted, but a stale or
 * foreign message must not crash the view, so the fields the renderer relies on are checked.
 */
export function parseHostMessage(message: unknown): Result<HostMessage> {
  if (!isRecord(message) || typeof message.type !== 'string') return fail('message must be an object with a type');
  switch (message.type) {
    case 'update': {
      if (!isSidebarViewModel(message.vm)) return fail('update needs a view model');
      if (!isRecord(message.settings)) return fail('update needs settings');
      const settings: Partial<Record<SettingKey, SettingValue>> = {};
      for (const key of SETTING_KEYS) {
        const parsed = parseSettingValue(key, message.settings[key] ?? null);
        if (parsed.ok && parsed.value !== null) settings[key] = parsed.value;
      }
      return { ok: true, value: { type: 'update', vm: message.vm, settings } };
    }
    case 'catalog': {
      if (!Array.isArray(message.entries)) return fail('catalog needs entries');
      const entries = message.entries.filter(isCatalogEntry);
      return { ok: true, value: { type: 'catalog', entries } };
    }
    case 'notice': {
      if ((message.level !== 'info' && message.level !== 'error') || typeof message.text !== 'string') return fail('notice needs level and text');
      return { ok: true, value: { type: 'notice', level: message.level, text: message.text } };
    }
    default:
      return fail(`unknown message type ${JSON.stringify(message.type).slice(0, 40)}`);
  }
}

// l10n-ignore-end

function isCatalogEntry(value: unknown): value is CatalogEntry {
  return isRecord(value) && typeof value.id === 'string' && typeof value.displayName === 'string' && typeof value.totalParams === 'number';
}

function isSidebarViewModel(value: unknown): value is SidebarViewModel {
  if (!isRecord(value)) return false;
  if (typeof value.status !== 'string' || typeof value.message !== 'string') return false;
  if (!Array.isArray(value.bars) || !Array.isArray(value.alternatives) || !Array.isArray(value.context) || !Array.isArray(value.legend) || !Array.isArray(value.missing)) return false;
  if (!isRecord(value.table) || !Array.isArray(value.table.headers) || !Array.isArray(value.table.rows)) return false;
  if (!isRecord(value.axis) || typeof value.axis.maxBytes !== 'number' || !Array.isArray(value.axis.ticks)) return false;
  return value.bars.every((bar) => isRow(bar) && parseOptionKey(bar.option).ok && typeof bar.applicable === 'boolean') && value.alternatives.every((row) => isRow(row) && (row.family === 'fsdp' || row.family === 'megatron'));
}

/** What the renderer reads of every row, ZeRO bar or alternative. */
function isRow(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || typeof value.key !== 'string' || typeof value.label !== 'string' || typeof value.current !== 'boolean') return false;
  if (typeof value.peakLine !== 'string' || !Array.isArray(value.segments) || !isRecord(value.offload) || !Array.isArray(value.offload.segments)) return false;
  return [...value.segments, ...value.offload.segments].every((s) => isRecord(s) && typeof s.role === 'string' && typeof s.fraction === 'number' && typeof s.offset === 'number' && isRecord(s.style));
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
