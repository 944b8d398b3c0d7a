import type { Diagnostic } from 'vscode-languageserver-types';
import { fix } from '../configView';
import type { Rule } from './rule';

const batchKeys = ['train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps'];

/** Elasticity computes the batch keys itself and refuses explicit ones unless told to ignore them (§12). */
export const elasticityBatchKeys: Rule = (config) => {
  if (!config.isTrue(['elasticity', 'enabled']) || config.isTrue(['elasticity', 'ignore_non_elastic_batch_info'])) return [];
  return batchKeys
    .filter((key) => config.has([key]))
    .map((key) =>
      config.diagnostic(
        'elasticityWithBatch',
        'error',
        config.keyRange([key]),
        `With elasticity enabled DeepSpeed computes "${key}" itself and refuses a config that also sets it (ElasticityConfigError), unless "elasticity.ignore_non_elastic_batch_info" is true.`,
        {
          path: [key],
          fixes: [
            fix('Set "ignore_non_elastic_batch_info": true', [{ op: 'set', path: ['elasticity', 'ignore_non_elastic_batch_info'], value: true }], true),
            fix(`Remove "${key}"`, [{ op: 'remove', path: [key] }]),
          ],
        },
      ),
    );
};

/** Cross-key checks DeepSpeed's elasticity module makes when enabled (§12); single-value ranges are in the schema. */
export const elasticitySettings: Rule = (config) => {
  if (!config.isTrue(['elasticity', 'enabled'])) return [];
  const out: Diagnostic[] = [];
  const say = (path: string[], message: string) => out.push(config.diagnostic('elasticityInvalid', 'error', config.valueRange(path), message, { path }));
  const minGpus = config.number(['elasticity', 'min_gpus']);
  const maxGpus = config.number(['elasticity', 'max_gpus']);
  if (minGpus !== undefined && maxGpus !== undefined && minGpus > maxGpus) say(['elasticity', 'min_gpus'], `"min_gpus" (${minGpus}) is larger than "max_gpus" (${maxGpus}).`);
  const maxBatch = config.number(['elasticity', 'max_train_batch_size']);
  const micro = config.get(['elasticity', 'micro_batch_sizes']);
  if (maxBatch !== undefined && Array.isArray(micro)) {
    const tooBig = micro.filter((m) => typeof m === 'number' && m > maxBatch);
    if (tooBig.length > 0) say(['elasticity', 'micro_batch_sizes'], `Micro batch sizes ${tooBig.join(', ')} are larger than "max_train_batch_size" (${maxBatch}); DeepSpeed refuses them.`);
  }
  return out;
};

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
      'contiguousMemory',
      'error',
      config.keyRange(path),
      `"contiguous_memory_optimization" also needs ${missing.join(' and ')}; deepspeed.checkpointing.configure() asserts without ${missing.length > 1 ? 'them' : 'it'}.`,
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
        'enabledKeyMissing',
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
    config.diagnostic('enabledKeyMissing', 'error', config.keyRange(['progressive_layer_drop']), `Progressive layer drop is on but ${keys} ${missing.length > 1 ? 'are' : 'is'} missing: DeepSpeed reads ${missing.length > 1 ? 'them' : 'it'} without a default, so the run stops with a KeyError.`, {
      path: ['progressive_layer_drop'],
      missing,
      fixes: [fix(`Add ${keys} (the tutorial's ${missing.map((k) => (k === 'theta' ? 'theta 0.5' : 'gamma 0.001')).join(', ')})`, missing.map((k) => ({ op: 'set' as const, path: ['progressive_layer_drop', k], value: k === 'theta' ? 0.5 : 0.001 })))],
    }),
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
        config.diagnostic('schedulerArgumentNotTaken', 'error', config.keyRange(path), `"${key}" is an argument of DeepSpeed's warm-up schedulers; torch.optim.lr_scheduler.${type} takes no such argument, so building it raises a TypeError.`, {
          path,
          fixes: [fix(`Remove "${key}"`, [{ op: 'remove', path }], true)],
        }),
      ];
    }
    if (value !== 'auto') return [];
    return [
      config.diagnostic('autoNotFilled', 'error', config.valueRange(path), `"auto" is not filled in for "${key}": the Hugging Face Trainer and accelerate fill only DeepSpeed's own scheduler arguments, so torch.optim.lr_scheduler.${type} receives the string "auto".`, {
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
      'schedulerNeedsPython',
      'error',
      config.valueRange(path),
      `torch.optim.lr_scheduler.${type} needs ${needsPythonObjects[type]}, which a JSON config cannot hold: DeepSpeed builds it as ${type}(optimizer, **params) and it fails. Build this scheduler in your training script and pass it to deepspeed.initialize, or pick another type.`,
      { path, fixes: [fix('Remove the scheduler block', [{ op: 'remove', path: ['scheduler'] }])] },
    ),
  ];
};

export const trainingRules: Rule[] = [elasticityBatchKeys, elasticitySettings, contiguousMemory, enabledKeyRequired, pldSettingsRequired, schedulerNeedsPython, torchSchedulerParams];
