/**
 * Every `zeroLens.*` setting, defined once: its type, bounds or allowed values, default, scope and the
 * (English) description package.json shows through package.nls.json. The server's reader (settings.ts) and the sidebar's inputs and writer
 * (client/src/sidebar/messages.ts) are built from it, and test/unit/settings-definition.test.ts fails when
 * package.json's `contributes.configuration` says anything else.
 *
 * A setting without a default is contributed as `"type": [type, "null"], "default": null`: VS Code gives a
 * setting with no declared default the zero of its type (0, '', false), which would reach the server as if
 * the user had chosen it; null is "unset", and the server reads it as absent.
 */

interface Declared {
  /** VS Code's scope: `resource` settings may differ per folder, `window` ones may not. */
  scope: 'resource' | 'window';
  /** The text package.json shows for it. */
  description: string;
  /** Whether `description` is markdown (package.json's `markdownDescription`). */
  markdown?: true;
  /** Read by vscode-languageclient itself, never by the server. */
  languageClientOnly?: true;
}

export type SettingDefinition = Declared &
  (
    | { type: 'boolean'; default?: boolean }
    | { type: 'integer' | 'number'; minimum: number; maximum?: number; default?: number }
    | { type: 'string'; enum?: readonly string[]; enumDescriptions?: readonly string[]; maxLength?: number; pattern?: string; default?: string }
    | { type: 'array'; items: 'string'; default: readonly string[] }
  );

/** Keys under `zeroLens.`, in the order the settings editor lists them; a dot nests (`inlayHints.enabled`). */
// l10n-ignore-start: the English of package.nls.json (test/unit/settings-definition.test.ts checks they agree); VS Code shows package.nls.zh-cn.json's Chinese
export const settingDefinitions = {
  configFiles: {
    type: 'array',
    items: 'string',
    default: [],
    scope: 'resource',
    markdown: true,
    description:
      'Extra glob patterns of files that are DeepSpeed configs, besides `ds_config*.json`, `*deepspeed*.json`, `ds_z*_config.json` and `zero*.json`. A pattern without `/` matches the file name in any folder; a relative one with `/` (`configs/*.json`) matches that folder wherever it is; an absolute one matches the whole path.',
  },
  validate: { type: 'boolean', default: true, scope: 'resource', description: 'Check DeepSpeed configs and launch scripts.' },
  warnOnJsonc: {
    type: 'boolean',
    default: true,
    scope: 'resource',
    markdown: true,
    description:
      'Warn about comments and trailing commas. DeepSpeed accepts them, but the Hugging Face Trainer and accelerate read the file with `json.load` and fail.',
  },
  'inlayHints.enabled': {
    type: 'boolean',
    default: true,
    scope: 'resource',
    markdown: true,
    description: 'Show the per-GPU memory estimate after `"stage"` and after `--deepspeed`.',
  },
  model: {
    type: 'string',
    maxLength: 1024,
    scope: 'resource',
    markdown: true,
    description:
      'Model to estimate memory for when no launch script names one: a hub id (`Qwen/Qwen3-8B`), a ModelScope id, or a local model folder.',
  },
  gpusPerNode: {
    type: 'integer',
    minimum: 1,
    maximum: 1024,
    scope: 'resource',
    description: 'GPUs per node (processes per node) when no launch script says.',
  },
  nodes: { type: 'integer', minimum: 1, maximum: 100_000, scope: 'resource', description: 'Number of nodes when no launch script says.' },
  gpuMemoryGiB: {
    type: 'number',
    minimum: 1,
    maximum: 4096,
    scope: 'resource',
    description: 'Memory of one GPU in GiB (80 for an A100/H100 80GB). Without it, estimates cannot say whether they fit.',
  },
  cpuMemoryGiB: {
    type: 'number',
    minimum: 1,
    scope: 'resource',
    description: 'Host (CPU) memory of one node in GiB. With it, runs that offload to the CPU are checked against the memory the node has.',
  },
  deepspeedVersion: {
    type: 'string',
    pattern: '^v?\\d+\\.\\d+(\\.\\d+)?$',
    scope: 'resource',
    markdown: true,
    description:
      'The DeepSpeed release you run (for example `0.14.4`). Unset: the release a requirements or lock file or an environment (`.venv`) in the workspace folder pins, if any. Defaults that changed between releases (such as `gradient_clipping`) follow it.',
  },
  sequenceLength: {
    type: 'integer',
    minimum: 1,
    maximum: 16_777_216,
    scope: 'resource',
    description: 'Tokens per sample (max_length) when no launch script says.',
  },
  microBatchSize: {
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000,
    scope: 'resource',
    markdown: true,
    description: 'Micro-batch per GPU when neither the config (`train_micro_batch_size_per_gpu`) nor a launch script says.',
  },
  gradientCheckpointing: {
    type: 'boolean',
    scope: 'resource',
    description: 'Whether training uses full gradient (activation) checkpointing, when no launch script says.',
  },
  loraRank: {
    type: 'integer',
    minimum: 0,
    maximum: 65_536,
    scope: 'resource',
    description: 'LoRA rank when training adapters; 0 or unset means full fine-tuning, unless a launch script says otherwise.',
  },
  dtype: {
    type: 'string',
    enum: ['bf16', 'fp16', 'fp32'],
    scope: 'resource',
    description: 'Training precision when neither the config nor a launch script says.',
  },
  cudaContextGiB: {
    type: 'number',
    minimum: 0,
    // No more than the largest GPU zeroLens.gpuMemoryGiB allows: beyond it every estimate is only "does not fit".
    maximum: 4096,
    scope: 'resource',
    markdown: true,
    description:
      'Override of the GPU memory taken by the CUDA context, kernels and NCCL, in GiB. Unset: the modelled default (0.92 GiB measured on an H200 with CUDA 13 during training, plus 0.55 GiB for NCCL when training on more than one GPU).',
  },
  fragmentation: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    scope: 'resource',
    markdown: true,
    description:
      'Override of the modelled allocator cache: reserved memory = allocated × (1 + this). Unset: the cache is modelled from what each phase frees and the next cannot reuse (see docs/memory-model.md).',
  },
  language: {
    type: 'string',
    enum: ['auto', 'en', 'zh-cn'],
    enumDescriptions: [
      "The editor's display language (English when it is neither English nor Simplified Chinese).",
      'English.',
      'Simplified Chinese (简体中文).',
    ],
    default: 'auto',
    scope: 'window',
    markdown: true,
    description:
      "Language of ZeRO Lens's diagnostics, hovers, hints and quick fixes. `auto` follows VS Code's display language; choose `zh-cn` to read them in Chinese while VS Code itself stays in English. (The sidebar and the commands follow VS Code's display language.)",
  },
  'trace.server': {
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    scope: 'window',
    languageClientOnly: true,
    description: 'Traces the communication between VS Code and the ZeRO Lens language server.',
  },
} as const satisfies Record<string, SettingDefinition>;
// l10n-ignore-end

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
