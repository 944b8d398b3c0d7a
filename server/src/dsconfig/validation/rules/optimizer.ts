import type { Diagnostic } from 'vscode-languageserver-types';
import { DS } from '../../../diagnostics/upstream';
import { fix, showValue, type ConfigView } from '../configView';
import type { FixSpec } from '../fixTypes';
import type { Rule } from './rule';
import { enumValuesOf, schemaForPath } from '../../schemaIndex';

const TYPE = ['optimizer', 'type'];

function optimizerType(config: ConfigView): string | undefined {
  return config.lowerString(TYPE);
}

/** `max_grad_norm` in optimizer params makes DeepSpeed raise ValueError when it builds the optimizer (§5.3). */
export const maxGradNormInParams: Rule = (config) => {
  const path = ['optimizer', 'params', 'max_grad_norm'];
  if (!config.has(path)) return [];
  const value = config.get(path);
  const move: FixSpec = config.has(['gradient_clipping'])
    ? fix(config.t('Remove it ("gradient_clipping" is already set)'), [{ op: 'remove', path }], true)
    : fix(config.t('Move it to "gradient_clipping": {0}', showValue(value)), [{ op: 'set', path: ['gradient_clipping'], value }, { op: 'remove', path }], true);
  return [
    config.diagnostic('max-grad-norm-in-optimizer', 'warning', config.keyRange(path),
      // engine.py _configure_basic_optimizer raises; it runs only when no optimizer is passed to deepspeed.initialize.
      config.t('DeepSpeed does not accept "max_grad_norm" in the optimizer params: it raises ValueError when it builds the optimizer from this block (the Hugging Face Trainer, accelerate, ms-swift and LLaMA-Factory, or deepspeed.initialize without optimizer=). A script that passes its own optimizer (Megatron) never builds it. Gradient clipping is set with the top-level "gradient_clipping".'),
      { path, value, fixes: [move] },
    ),
  ];
};

const oneBit = new Set(['onebitadam', 'zerooneadam', 'onebitlamb']);

/** 1-bit optimizers compress their own communication and do not work with ZeRO (§5.3). */
export const oneBitWithZero: Rule = (config) => {
  const type = optimizerType(config);
  const stage = config.knownStage();
  if (!type || !oneBit.has(type) || stage === undefined || stage === 0) return [];
  return [
    config.diagnostic('onebit-optimizer-with-zero', 'error', config.valueRange(TYPE),
      config.t('"{0}" is a 1-bit optimizer and cannot be used with ZeRO (stage {1}); DeepSpeed asserts at start. Use ZeRO stage 0 or a regular optimizer such as "AdamW".', String(config.get(TYPE)), stage),
      {
        path: TYPE,
        stage,
        fixes: [fix(config.t('Turn ZeRO off (stage 0)'), [{ op: 'set', path: ['zero_optimization', 'stage'], value: 0 }]), fix(config.t('Use "{0}"', 'AdamW'), [{ op: 'set', path: TYPE, value: 'AdamW' }])],
      },
    ),
  ];
};

/** Lamb and OneBitLamb need dynamic loss scaling: fp16.loss_scale must be 0 (§5.3). */
export const lambStaticLossScale: Rule = (config) => {
  const type = optimizerType(config);
  const path = ['fp16', 'loss_scale'];
  const lossScale = config.number(path);
  if ((type !== 'lamb' && type !== 'onebitlamb') || lossScale === undefined || lossScale === 0) return [];
  return [
    config.diagnostic('lamb-static-loss-scale', 'error', config.valueRange(path),
      config.t('"{0}" needs dynamic loss scaling ("loss_scale": 0); with a static loss scale of {1} DeepSpeed asserts when it builds the optimizer.', String(config.get(TYPE)), lossScale),
      { path, fixes: [fix(config.t('Use dynamic loss scaling ("loss_scale": 0)'), [{ op: 'set', path, value: 0 }], true)] },
    ),
  ];
};

/** DeepSpeed's own optimizer names, matched case-insensitively (§5.2); anything else is a case-sensitive torch.optim name. */
const deepSpeedNames = new Set(['adam', 'adamw', 'lamb', 'onebitadam', 'zerooneadam', 'onebitlamb', 'adagrad', 'lion', 'muon', 'muadam', 'muadamw', 'musgd']);

/** Optimizers ZeRO is tested with (§5.4), by DeepSpeed's case-insensitive name. */
const zeroTested = new Set(['adam', 'adamw', 'adagrad', 'lion', 'muon']);

/** Other optimizers need zero_allow_untested_optimizer with ZeRO (§5.4, §14.18). */
export const untestedOptimizer: Rule = (config) => {
  const type = optimizerType(config);
  const stage = config.knownStage();
  if (!type || stage === undefined || stage === 0 || zeroTested.has(type) || oneBit.has(type)) return [];
  // A name DeepSpeed cannot build at all is the schema's "invalid value", not an untested optimizer.
  const typeSchema = schemaForPath(TYPE);
  const torchNames = typeSchema ? enumValuesOf(typeSchema).map((e) => String(e.value)) : [];
  if (!deepSpeedNames.has(type) && torchNames.length > 0 && !torchNames.includes(String(config.get(TYPE)))) return [];
  if (config.isTrue(['zero_allow_untested_optimizer'])) return [];
  const path = ['zero_allow_untested_optimizer'];
  return [
    config.diagnostic('untested-optimizer-with-zero', 'warning', config.valueRange(TYPE),
      config.t('"{0}" is not one of the optimizers ZeRO is tested with (Adam, AdamW, Adagrad, Lion, Muon). DeepSpeed stops with an AssertionError unless "zero_allow_untested_optimizer": true (the Hugging Face Trainer sets it only when the config has no "optimizer" block).', String(config.get(TYPE))),
      { path: TYPE, stage, fixes: [fix(config.t('Add {0}', '"zero_allow_untested_optimizer": true'), [{ op: 'set', path, value: true }], true)] },
    ),
  ];
};

/** Muon's restrictions with reduce-scatter and its Newton–Schulz method (§5.3, §14.24). */
export const muonRules: Rule = (config) => {
  if (optimizerType(config) !== 'muon') return [];
  const out: Diagnostic[] = [];
  const stage = config.knownStage();
  const reduceScatterPath = ['zero_optimization', 'reduce_scatter'];
  const reduceScatter = config.has(reduceScatterPath) ? config.isTrue(reduceScatterPath) : true;
  const offloaded = config.optimizerOffloaded();
  if (reduceScatter && (stage === 3 || ((stage === 1 || stage === 2) && offloaded))) {
    const why = stage === 3 ? config.t('with ZeRO-3') : config.t('with ZeRO-{0} and optimizer offload', stage!);
    const now = config.has(reduceScatterPath) ? config.t('it is true') : config.t('it is true by default');
    out.push(
      config.diagnostic('muon-reduce-scatter', 'error', config.has(reduceScatterPath) ? config.keyRange(reduceScatterPath) : config.valueRange(TYPE),
        config.t('Muon {0} needs "reduce_scatter": false ({1}); DeepSpeed raises ValueError at start.', why, now),
        { path: reduceScatterPath, stage, fixes: [fix(config.t('Set "{0}": false', 'reduce_scatter'), [{ op: 'set', path: reduceScatterPath, value: false }], true)] },
        undefined,
        stage === 3 ? undefined : `${DS}:deepspeed/runtime/zero/stage_1_and_2.py#L230-231`,
      ),
    );
  }
  const nsPath = ['optimizer', 'params', 'ns_method'];
  const ns = config.get(nsPath);
  if (config.has(nsPath) && ns !== 'gram' && ns !== 'standard') {
    out.push(
      config.diagnostic('muon-ns-method', 'error', config.valueRange(nsPath), config.t('Muon "ns_method" must be "gram" or "standard"; DeepSpeed asserts on {0}.', showValue(ns)), {
        path: nsPath,
        fixes: [fix(config.t('Use "{0}" (the default)', 'gram'), [{ op: 'set', path: nsPath, value: 'gram' }], true), fix(config.t('Use "{0}"', 'standard'), [{ op: 'set', path: nsPath, value: 'standard' }])],
      }),
    );
  }
  return out;
};

/** Types whose only class raises on amsgrad=True. */
const withoutAmsgrad: Record<string, string> = { lamb: 'FusedLamb', onebitadam: 'OnebitAdam', zerooneadam: 'ZeroOneAdam', onebitlamb: 'OnebitLamb' };

/**
 * FusedAdam, FusedLamb and the 1-bit optimizers raise RuntimeError on amsgrad=True in their constructors.
 * Adam/AdamW take it with torch_adam (torch's Adam) or with optimizer offload (DeepSpeedCPUAdam accepts it).
 */
export const amsgradUnsupported: Rule = (config) => {
  const path = ['optimizer', 'params', 'amsgrad'];
  const type = optimizerType(config);
  if (!type || !config.isTrue(path)) return [];
  const adam = type === 'adam' || type === 'adamw';
  const built = adam ? builtOptimizer(config, type)?.name : withoutAmsgrad[type];
  if (built === undefined || (adam && built !== 'FusedAdam')) return [];
  const fixes = [fix(config.t('Turn "{0}" off', 'amsgrad'), [{ op: 'set', path, value: false }], true)];
  if (adam) fixes.push(fix(config.t('Use torch\'s Adam ("torch_adam": true)'), [{ op: 'set', path: ['optimizer', 'params', 'torch_adam'], value: true }]));
  return [
    config.diagnostic('amsgrad-unsupported', 'error', config.valueRange(path), adam ? config.t('DeepSpeed builds {0} here, which does not support AMSGrad: its constructor raises RuntimeError on "amsgrad": true. torch\'s Adam ("torch_adam": true) or DeepSpeedCPUAdam (optimizer offload) take it.', built) : config.t('DeepSpeed builds {0} here, which does not support AMSGrad: its constructor raises RuntimeError on "amsgrad": true.', built), { path, fixes }),
  ];
};

/** The class DeepSpeed builds for a type, and the keyword arguments it takes (engine.py, _configure_basic_optimizer). */
export function builtOptimizer(config: ConfigView, type: string): { name: string; why: string; takes: Set<string> } | undefined {
  const offloaded = config.optimizerOffloaded();
  const where = offloaded ? config.t('with optimizer offload') : config.t('without optimizer offload');
  if (type === 'adam' || type === 'adamw') {
    // torch_adam and adam_w_mode are taken out of params before the call.
    const own = ['torch_adam', 'adam_w_mode'];
    if (config.isTrue(['optimizer', 'params', 'torch_adam'])) return { name: 'torch.optim.Adam/AdamW', why: config.t('with "torch_adam": true'), takes: new Set([...own, 'lr', 'betas', 'eps', 'weight_decay', 'amsgrad']) };
    if (offloaded) return { name: 'DeepSpeedCPUAdam', why: where, takes: new Set([...own, 'lr', 'bias_correction', 'betas', 'eps', 'weight_decay', 'amsgrad', 'fp32_optimizer_states']) };
    return { name: 'FusedAdam', why: where, takes: new Set([...own, 'lr', 'bias_correction', 'betas', 'eps', 'weight_decay', 'amsgrad', 'set_grad_none']) };
  }
  if (type === 'lion') {
    return offloaded
      ? { name: 'DeepSpeedCPULion', why: where, takes: new Set(['lr', 'betas', 'weight_decay', 'fp32_optimizer_states']) }
      : { name: 'FusedLion', why: where, takes: new Set(['lr', 'betas', 'weight_decay', 'set_grad_none']) };
  }
  if (type === 'adagrad') {
    return offloaded
      ? { name: 'DeepSpeedCPUAdagrad', why: where, takes: new Set(['lr', 'eps', 'weight_decay', 'amsgrad', 'fp32_optimizer_states']) }
      : { name: 'torch.optim.Adagrad', why: where, takes: new Set(['lr', 'lr_decay', 'weight_decay', 'initial_accumulator_value', 'eps']) };
  }
  return undefined;
}

/**
 * Adam/AdamW, Lion and Adagrad each stand for two or three classes, chosen by offload and torch_adam, and
 * not all take the same arguments: a key the chosen one lacks is a TypeError when DeepSpeed builds it.
 * Keys no variant takes are reported as unknown keys by the schema walk.
 */
export const optimizerVariantArguments: Rule = (config) => {
  const type = optimizerType(config);
  const params = config.get(['optimizer', 'params']);
  if (!type || !params || typeof params !== 'object' || Array.isArray(params)) return [];
  const built = builtOptimizer(config, type);
  if (!built) return [];
  const untaken = Object.keys(params).filter((key) => !built.takes.has(key));
  if (untaken.length === 0) return [];
  // Resolving the params' schema (its conditions on the type) is most of this rule's cost: only when a key is left.
  const known = new Set(Object.keys(schemaForPath(['optimizer', 'params'], config.root)?.properties ?? {}));
  return untaken
    .filter((key) => known.has(key))
    .map((key) => {
      const path = ['optimizer', 'params', key];
      return config.diagnostic('optimizer-argument-not-taken', 'error', config.keyRange(path),
        config.t('DeepSpeed builds {0} here ({1}), which takes no "{2}" argument: the run stops with a TypeError.', built.name, built.why, key),
        { path, built: built.name, fixes: [fix(config.t('Remove "{0}"', key), [{ op: 'remove', path }], true)] },
      );
    });
};

export const optimizerRules: Rule[] = [maxGradNormInParams, oneBitWithZero, lambStaticLossScale, untestedOptimizer, muonRules, amsgradUnsupported, optimizerVariantArguments];
/** Values the optimizer rules check themselves (schema errors there are dropped). */
export const optimizerOwnedPaths = [['optimizer', 'params', 'ns_method'], ['optimizer', 'params', 'max_grad_norm']];
