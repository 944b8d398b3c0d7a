import { DS } from '../../../diagnostics/upstream';
import { fix } from '../configView';
import { andList, joinList, type Translate } from '../../../l10n';
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
    config.diagnostic('contiguous-memory-without-partitioning', 'warning', config.keyRange(path),
      // checkpointing.configure() asserts only when it is called without num_checkpoints (activation_checkpointing/
      // checkpointing.py); DeepSpeed's engine never calls it, the training script does (Megatron passes num_layers).
      missing.length > 1
        ? config.t('"contiguous_memory_optimization" also needs {0}: deepspeed.checkpointing.configure() asserts without them when the training script calls it without num_checkpoints (Megatron passes its layer count, and then it runs).', andList(config.t, missing))
        : config.t('"contiguous_memory_optimization" also needs {0}: deepspeed.checkpointing.configure() asserts without it when the training script calls it without num_checkpoints (Megatron passes its layer count, and then it runs).', missing[0]),
      {
        path,
        missing,
        fixes: [
          ...(config.isTrue([base, 'partition_activations']) ? [] : [fix(config.t('Set "{0}": {1}', 'partition_activations', 'true'), [{ op: 'set', path: [base, 'partition_activations'], value: true }], missing.length === 1)]),
          fix(config.t('Turn "{0}" off', 'contiguous_memory_optimization'), [{ op: 'set', path, value: false }]),
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
      config.diagnostic('enabled-key-missing', 'error', config.keyRange([section]),
        config.t('"{0}" has no "enabled" key. DeepSpeed takes it out of the section with pop("enabled") and no default, so a section without it stops the run with KeyError: \'enabled\'.', section),
        {
          path: [section],
          fixes: [true, false].map((enabled) => fix(config.t('Add {0}', `"enabled": ${enabled}`), [{ op: 'set', path: [section, 'enabled'], value: enabled }])),
        },
      ),
    ];
  });

/** With progressive layer drop on, DeepSpeed reads params["theta"] and params["gamma"] with no default (engine.py:1018). */
export const pldSettingsRequired: Rule = (config) => {
  if (!config.isTrue(['progressive_layer_drop', 'enabled'])) return [];
  const missing = ['theta', 'gamma'].filter((key) => !config.has(['progressive_layer_drop', key]));
  if (missing.length === 0) return [];
  const keys = andList(config.t, missing.map((k) => `"${k}"`));
  const message =
    missing.length > 1
      ? config.t('Progressive layer drop is on but {0} are missing: DeepSpeed reads them without a default, so the run stops with a KeyError.', keys)
      : config.t('Progressive layer drop is on but {0} is missing: DeepSpeed reads it without a default, so the run stops with a KeyError.', keys);
  return [
    config.diagnostic('enabled-key-missing', 'error', config.keyRange(['progressive_layer_drop']), message, {
      path: ['progressive_layer_drop'],
      missing,
      fixes: [fix(config.t('Add {0} (the tutorial\'s {1})', keys, joinList(config.t, missing.map((k) => (k === 'theta' ? 'theta 0.5' : 'gamma 0.001')))), missing.map((k) => ({ op: 'set' as const, path: ['progressive_layer_drop', k], value: k === 'theta' ? 0.5 : 0.001 })))],
    }, undefined, `${DS}:deepspeed/runtime/engine.py#L1018`),
  ];
};

/** torch schedulers whose arguments are Python objects: DeepSpeed calls `Scheduler(optimizer, **params)`, and JSON cannot hold them. */
const needsPythonObjects: Record<string, (t: Translate) => string> = {
  LambdaLR: (t) => t('a function (lr_lambda)'),
  MultiplicativeLR: (t) => t('a function (lr_lambda)'),
  SequentialLR: (t) => t('other scheduler objects (schedulers)'),
  ChainedScheduler: (t) => t('other scheduler objects (schedulers, its first argument)'),
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
        config.diagnostic('scheduler-argument-not-taken', 'error', config.keyRange(path), config.t('"{0}" is an argument of DeepSpeed\'s warm-up schedulers; torch.optim.lr_scheduler.{1} takes no such argument, so building it raises a TypeError.', key, type), {
          path,
          fixes: [fix(config.t('Remove "{0}"', key), [{ op: 'remove', path }], true)],
        }),
      ];
    }
    if (value !== 'auto') return [];
    return [
      config.diagnostic('auto-not-filled', 'error', config.valueRange(path), config.t('"auto" is not filled in for "{0}": the Hugging Face Trainer and accelerate fill only DeepSpeed\'s own scheduler arguments, so torch.optim.lr_scheduler.{1} receives the string "auto".', key, type), {
        path,
        fixes: [fix(config.t('Remove "{0}"', key), [{ op: 'remove', path }])],
      }),
    ];
  });
};

export const schedulerNeedsPython: Rule = (config) => {
  const path = ['scheduler', 'type'];
  const type = config.get(path);
  if (typeof type !== 'string' || !(type in needsPythonObjects)) return [];
  return [
    config.diagnostic('scheduler-needs-python', 'error', config.valueRange(path),
      config.t('torch.optim.lr_scheduler.{0} needs {1}, which a JSON config cannot hold: DeepSpeed builds it as {0}(optimizer, **params) and it fails. Build this scheduler in your training script and pass it to deepspeed.initialize, or pick another type.', type, needsPythonObjects[type](config.t)),
      { path, fixes: [fix(config.t('Remove the scheduler block'), [{ op: 'remove', path: ['scheduler'] }])] },
    ),
  ];
};

export const trainingRules: Rule[] = [contiguousMemory, enabledKeyRequired, pldSettingsRequired, schedulerNeedsPython, torchSchedulerParams];
