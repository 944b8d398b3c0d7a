/**
 * Every `zeroLens.*` setting, defined once: its type, bounds or allowed values, default and scope. The server's
 * reader (settings.ts) and the sidebar's inputs and writer (client/src/sidebar/messages.ts) are built from it, and
 * test/unit/settings-definition.test.ts fails when package.json's `contributes.configuration` says anything else.
 * What the settings editor shows (`config.<name>.description`, of a value `config.<name>.<value>`) is in
 * package.nls.json and package.nls.zh-cn.json only: neither bundle reads it.
 *
 * A setting without a default is contributed as `"type": [type, "null"], "default": null`: VS Code gives a
 * setting with no declared default the zero of its type (0, '', false), which would reach the server as if
 * the user had chosen it; null is "unset", and the server reads it as absent.
 */

interface Declared {
  /** VS Code's scope: `resource` settings may differ per folder, `window` ones may not. */
  scope: 'resource' | 'window';
  /** Whether its description is markdown (package.json's `markdownDescription`, package.nls.json's `config.<name>.markdownDescription`). */
  markdown?: true;
  /** Read by vscode-languageclient itself, never by the server. */
  languageClientOnly?: true;
}

export type SettingDefinition = Declared &
  (
    | { type: 'boolean'; default?: boolean }
    | { type: 'integer' | 'number'; minimum: number; maximum?: number; default?: number }
    | { type: 'string'; enum?: readonly string[]; maxLength?: number; pattern?: string; default?: string }
    | { type: 'array'; items: 'string'; default: readonly string[] }
  );

/** Keys under `zeroLens.`, in the order the settings editor lists them; a dot nests (`inlayHints.enabled`). */
export const settingDefinitions = {
  configFiles: {
    type: 'array',
    items: 'string',
    default: [],
    scope: 'resource',
    markdown: true,
  },
  validate: { type: 'boolean', default: true, scope: 'resource' },
  warnOnJsonc: {
    type: 'boolean',
    default: true,
    scope: 'resource',
    markdown: true,
  },
  'inlayHints.enabled': {
    type: 'boolean',
    default: true,
    scope: 'resource',
    markdown: true,
  },
  model: {
    type: 'string',
    maxLength: 1024,
    scope: 'resource',
    markdown: true,
  },
  gpusPerNode: {
    type: 'integer',
    minimum: 1,
    maximum: 1024,
    scope: 'resource',
  },
  nodes: { type: 'integer', minimum: 1, maximum: 100_000, scope: 'resource' },
  gpuMemoryGiB: {
    type: 'number',
    minimum: 1,
    maximum: 4096,
    scope: 'resource',
  },
  cpuMemoryGiB: {
    type: 'number',
    minimum: 1,
    scope: 'resource',
  },
  deepspeedVersion: {
    type: 'string',
    pattern: '^v?\\d+\\.\\d+(\\.\\d+)?$',
    scope: 'resource',
    markdown: true,
  },
  sequenceLength: {
    type: 'integer',
    minimum: 1,
    maximum: 16_777_216,
    scope: 'resource',
  },
  microBatchSize: {
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000,
    scope: 'resource',
    markdown: true,
  },
  gradientCheckpointing: {
    type: 'boolean',
    scope: 'resource',
  },
  loraRank: {
    type: 'integer',
    minimum: 0,
    maximum: 65_536,
    scope: 'resource',
  },
  dtype: {
    type: 'string',
    enum: ['bf16', 'fp16', 'fp32'],
    scope: 'resource',
  },
  cudaContextGiB: {
    type: 'number',
    minimum: 0,
    // No more than the largest GPU zeroLens.gpuMemoryGiB allows: beyond it every estimate is only "does not fit".
    maximum: 4096,
    scope: 'resource',
    markdown: true,
  },
  fragmentation: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    scope: 'resource',
    markdown: true,
  },
  language: {
    type: 'string',
    enum: ['auto', 'en', 'zh-cn'],
    default: 'auto',
    scope: 'window',
    markdown: true,
  },
  'trace.server': {
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    scope: 'window',
    languageClientOnly: true,
  },
} as const satisfies Record<string, SettingDefinition>;

export type SettingName = keyof typeof settingDefinitions;

/** The type of value a definition allows. */
export type SettingValueOf<D extends SettingDefinition> = D extends { type: 'boolean' }
  ? boolean
  : D extends { type: 'integer' | 'number' }
    ? number
    : D extends { enum: readonly (infer Allowed)[] }
      ? Allowed
      : D extends { type: 'string' }
        ? string
        : string[];

/** Why a value is not one a setting allows, as data: the sidebar words it in the reader's language, logs in English. */
export type SettingProblem =
  | { kind: 'notNumber' }
  | { kind: 'notInteger' }
  | { kind: 'range'; min: number; max: number }
  | { kind: 'notBoolean' }
  | { kind: 'notAllowed'; values: readonly string[] }
  | { kind: 'notText' }
  | { kind: 'controlCharacters' }
  | { kind: 'tooLong'; max: number }
  | { kind: 'pattern'; pattern: string }
  | { kind: 'notList' };

/** What is wrong with `value` for a setting, or undefined when the definition allows it. */
export function settingProblem(definition: SettingDefinition, value: unknown): SettingProblem | undefined {
  switch (definition.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : { kind: 'notBoolean' };
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { kind: 'notNumber' };
      if (definition.type === 'integer' && !Number.isInteger(value)) return { kind: 'notInteger' };
      const max = definition.maximum ?? Infinity;
      return value < definition.minimum || value > max ? { kind: 'range', min: definition.minimum, max } : undefined;
    }
    case 'string':
      if (definition.enum) return typeof value === 'string' && definition.enum.includes(value) ? undefined : { kind: 'notAllowed', values: definition.enum };
      if (typeof value !== 'string') return { kind: 'notText' };
      // Control characters never belong in a hub id or a path, and would corrupt settings.json display.
      if (/[\u0000-\u001f\u007f]/.test(value)) return { kind: 'controlCharacters' };
      if (definition.maxLength !== undefined && value.length > definition.maxLength) return { kind: 'tooLong', max: definition.maxLength };
      if (definition.pattern !== undefined && !new RegExp(definition.pattern).test(value)) return { kind: 'pattern', pattern: definition.pattern };
      return undefined;
    case 'array':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : { kind: 'notList' };
  }
}

/**
 * A problem in English words, for logs ("must be between 1 and 1024"); people read `SettingProblem` worded by the
 * webview in their language (`webviewStrings.ts`).
 */
// l10n-ignore-start: English for the log by design
export function describeSettingProblem(problem: SettingProblem): string {
  switch (problem.kind) {
    case 'notNumber':
      return 'must be a number';
    case 'notInteger':
      return 'must be a whole number';
    case 'range':
      return problem.max === Infinity ? `must be at least ${problem.min}` : `must be between ${problem.min} and ${problem.max}`;
    case 'notBoolean':
      return 'must be true or false';
    case 'notAllowed':
      return `must be one of ${problem.values.join(', ')}`;
    case 'notText':
      return 'must be text';
    case 'controlCharacters':
      return 'contains control characters';
    case 'tooLong':
      return `is longer than ${problem.max} characters`;
    case 'pattern':
      return `must match ${problem.pattern}`;
    case 'notList':
      return 'must be a list of text';
  }
}
// l10n-ignore-end
