import { DS } from '../../../diagnostics/upstream';
import { fix } from '../configView';
import type { Rule } from './rule';

/** contiguous_memory_optimization needs partitioned activations and a checkpoint count (§8). */
export const contiguousMemory: Rule = (config) => {
  const base = 'activation_checkpointing';
  const path = [base, 'contiguous_memory_optimization'];
  if (!config.isTrue(path)) return [];
  const missing: string[] = [];
  if (!config.isTrue([base, 'partition_activations'])) missing.push('"partition_activations": true');
  const count = config.get([base, 'number_checkpoints']);
  if (count === undefined || count === null) missing.push('"number_checkpoints"');
  if (missing.length === 0) return [];
  return [
    config.diagnostic(
      'contiguous-memory-without-partitioning',
      'warning',
      config.keyRange(path),
      // checkpointing.configure() asserts only when it is called without num_checkpoints (activation_checkpointing/
      // checkpointing.py); DeepSpeed's engine never calls it, the training script does (Megatron passes num_layers).
      `"contiguous_memory_optimization" also needs ${missing.join(' and ')}: deepspeed.checkpointing.configure() asserts without ${missing.length > 1 ? 'them' : 'it'} when the training script calls it without num_checkpoints (Megatron passes its layer count, and then it runs).`,
      {
        path,
        missing,
        fixes: [
          ...(config.isTrue([base, 'partition_activations']) ? [] : [fix('Set "partition_activations": true', [{ op: 'set', path: [base, 'partition_activations'], value: true }], missing.length === 1)]),
          fix('Turn "contiguous_memory_optimization" off', [{ op: 'set', path, value: false }]),
        ],
      },
    ),
  ];
};

/**
 * DeepSpeed reads these sections with `section.pop("enabled")`, no default, on every config: without the key it
 * stops with KeyError (runtime/config.py:146 pld, :162 amp; data_pipeline/config.py:143 legacy curriculum_learning).
 */
export const enabledKeyRequired: Rule = (config) =>
  ['amp', 'progressive_layer_drop', 'curriculum_learning'].flatMap((section) => {
    if (!config.section([section]) || config.has([section, 'enabled'])) return [];
    return [
      config.diagnostic(
        'enabled-key-missing',
        'error',
        config.keyRange([section]),
        `"${section}" has no "enabled" key. DeepSpeed takes it out of the section with pop("enabled") and no default, so a section without it stops the run with KeyError: 'enabled'.`,
        {
          path: [section],
          fixes: [true, false].map((enabled) => fix(`Add "enabled": ${enabled}`, [{ op: 'set', path: [section, 'enabled'], value: enabled }])),
        },
      ),
    ];
  });

/** With progressive layer drop on, DeepSpeed reads params["theta"] and params["gamma"] with no default (engine.py:1018). */
export const pldSettingsRequired: Rule = (config) => {
  if (!config.isTrue(['progressive_layer_drop', 'enabled'])) return [];
  const missing = ['theta', 'gamma'].filter((key) => !config.has(['progressive_layer_drop', key]));
  if (missing.length === 0) return [];
  const keys = missing.map((k) => `"${k}"`).join(' and ');
  return [
    config.diagnostic('enabled-key-missing', 'error', config.keyRange(['progressive_layer_drop']), `Progressive layer drop is on but ${keys} ${missing.length > 1 ? 'are' : 'is'} missing: DeepSpeed reads ${missing.length > 1 ? 'them' : 'it'} without a default, so the run stops with a KeyError.`, {
      path: ['progressive_layer_drop'],
      missing,
      fixes: [fix(`Add ${keys} (the tutorial's ${missing.map((k) => (k === 'theta' ? 'theta 0.5' : 'gamma 0.001')).join(', ')})`, missing.map((k) => ({ op: 'set' as const, path: ['progressive_layer_drop', k], value: k === 'theta' ? 0.5 : 0.001 })))],
    }, undefined, `${DS}:deepspeed/runtime/engine.py#L1018`),
  ];
};

/** torch schedulers whose arguments are Python objects: DeepSpeed calls `Scheduler(optimizer, **params)`, and JSON cannot hold them. */
const needsPythonObjects: Record<string, string> = {
  LambdaLR: 'a function (lr_lambda)',
  MultiplicativeLR: 'a function (lr_lambda)',
  SequentialLR: 'other scheduler objects (schedulers)',
  ChainedScheduler: 'other scheduler objects (schedulers, its first argument)',
};

const deepSpeedSchedulers = new Set(['WarmupLR', 'WarmupDecayLR', 'WarmupCosineLR', 'OneCycle', 'LRRangeTest']);
/** Scheduler params the HF Trainer / accelerate fill when they hold "auto": arguments of DeepSpeed's schedulers only. */
const filledSchedulerParams = new Set(['warmup_min_lr', 'warmup_max_lr', 'warmup_num_steps', 'total_num_steps']);

/**
 * A torch scheduler gets its params as keyword arguments too. None of torch's schedulers takes the warm-up
 * arguments of DeepSpeed's (a TypeError), and an "auto" in another key is never filled: the text reaches it.
 */
export const torchSchedulerParams: Rule = (config) => {
  const type = config.get(['scheduler', 'type']);
  const params = config.get(['scheduler', 'params']);
  if (typeof type !== 'string' || deepSpeedSchedulers.has(type) || type in needsPythonObjects) return [];
  if (!params || typeof params !== 'object' || Array.isArray(params)) return [];
  return Object.entries(params as Record<string, unknown>).flatMap(([key, value]) => {
    const path = ['scheduler', 'params', key];
    if (filledSchedulerParams.has(key)) {
      return [
        config.diagnostic('scheduler-argument-not-taken', 'error', config.keyRange(path), `"${key}" is an argument of DeepSpeed's warm-up schedulers; torch.optim.lr_scheduler.${type} takes no such argument, so building it raises a TypeError.`, {
          path,
          fixes: [fix(`Remove "${key}"`, [{ op: 'remove', path }], true)],
        }),
      ];
    }
    if (value !== 'auto') return [];
    return [
      config.diagnostic('auto-not-filled', 'error', config.valueRange(path), `"auto" is not filled in for "${key}": the Hugging Face Trainer and accelerate fill only DeepSpeed's own scheduler arguments, so torch.optim.lr_scheduler.${type} receives the string "auto".`, {
        path,
        fixes: [fix(`Remove "${key}"`, [{ op: 'remove', path }])],
      }),
    ];
  });
};

export const schedulerNeedsPython: Rule = (config) => {
  const path = ['scheduler', 'type'];
  const type = config.get(path);
  if (typeof type !== 'string' || !(type in needsPythonObjects)) return [];
  return [
    config.diagnostic(
      'scheduler-needs-python',
      'error',
      config.valueRange(path),
      `torch.optim.lr_scheduler.${type} needs ${needsPythonObjects[type]}, which a JSON config cannot hold: DeepSpeed builds it as ${type}(optimizer, **params) and it fails. Build this scheduler in your training script and pass it to deepspeed.initialize, or pick another type.`,
      { path, fixes: [fix('Remove the scheduler block', [{ op: 'remove', path: ['scheduler'] }])] },
    ),
  ];
};

export const trainingRules: Rule[] = [contiguousMemory, enabledKeyRequired, pldSettingsRequired, schedulerNeedsPython, torchSchedulerParams];
