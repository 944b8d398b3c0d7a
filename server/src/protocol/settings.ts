/**
 * Every `zeroLens.*` setting, defined once: its type, bounds or allowed values, default, scope and the
 * description package.json shows. The server's reader (settings.ts) and the sidebar's inputs and writer
 * (client/src/sidebar/messages.ts) are built from it, and test/unit/settings-definition.test.ts fails when
 * package.json's `contributes.configuration` says anything else.
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
    | { type: 'string'; enum?: readonly string[]; maxLength?: number; default?: string }
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
    description:
      'Extra glob patterns of files that are DeepSpeed configs, besides `ds_config*.json`, `*deepspeed*.json`, `ds_z*_config.json` and `zero*.json`. A pattern without `/` matches in any folder.',
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
    default: 1,
    minimum: 0,
    scope: 'resource',
    description: 'GPU memory taken by the CUDA context and kernels, in GiB, added to every estimate.',
  },
  fragmentation: {
    type: 'number',
    default: 0.1,
    minimum: 0,
    maximum: 1,
    scope: 'resource',
    description: 'Share of GPU memory assumed lost to allocator fragmentation (0.1 = 10%).',
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

/**
 * What is wrong with `value` as a value of the setting, in words that follow its name ("must be a whole
 * number"); undefined when it is a valid value. Lists must hold text only.
 */
export function settingProblem(definition: SettingDefinition, value: unknown): string | undefined {
  switch (definition.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (definition.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      const maximum = definition.maximum ?? Infinity;
      if (value < definition.minimum || value > maximum) {
        return maximum === Infinity ? `must be at least ${definition.minimum}` : `must be between ${definition.minimum} and ${maximum}`;
      }
      return undefined;
    }
    case 'string':
      if (definition.enum) return typeof value === 'string' && definition.enum.includes(value) ? undefined : `must be one of ${definition.enum.join(', ')}`;
      if (typeof value !== 'string') return 'must be text';
      // Control characters never belong in a hub id or a path, and would corrupt settings.json display.
      if (/[\u0000-\u001f\u007f]/.test(value)) return 'contains control characters';
      if (definition.maxLength !== undefined && value.length > definition.maxLength) return `is longer than ${definition.maxLength} characters`;
      return undefined;
    case 'array':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : 'must be a list of text';
  }
}
