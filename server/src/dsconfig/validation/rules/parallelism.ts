import type { Diagnostic } from 'vscode-languageserver-types';
import { DS } from '../../../diagnostics/upstream';
import { fix, showValue, type ConfigView } from '../configView';
import type { Rule } from './rule';
import { joinList } from '../../../l10n';

const ZERO = 'zero_optimization';

/** PipelineModule training refuses ZeRO-2/3 (§10.1, §14.26). */
export const pipelineWithZero: Rule = (config) => {
  const stage = config.knownStage();
  if (!config.section(['pipeline']) || stage === undefined || stage < 2) return [];
  return [
    config.diagnostic('pipeline-with-zero-2-3', 'error', config.keyRange(['pipeline']),
      config.t('Pipeline parallelism works with ZeRO stage 0 or 1 only. With a PipelineModule model and "stage": {0}, DeepSpeed asserts at start.', stage),
      { path: ['pipeline'], stage, fixes: [fix(config.t('Use ZeRO stage {0}', 1), [{ op: 'set', path: [ZERO, 'stage'], value: 1 }]), fix(config.t('Remove "{0}"', 'pipeline'), [{ op: 'remove', path: ['pipeline'] }])] },
    ),
  ];
};

/** Whether ZeRO reduce-scatters gradients in a way that forbids pre-scaling (§2, §14.22). */
function reduceScatterStrict(config: ConfigView): number | undefined {
  const stage = config.knownStage();
  const path = [ZERO, 'reduce_scatter'];
  const reduceScatter = config.has(path) ? config.isTrue(path) : true;
  const mean = !config.holds('gradientAllreduceOp') || (config.lowerString(['gradient_allreduce_op']) ?? 'mean') === 'mean';
  if (!reduceScatter) return undefined;
  if (stage === 3 || (stage === 2 && mean)) return stage;
  return undefined;
}

/** prescale_gradients and gradient_predivide_factor ≠ 1 are refused with ZeRO-2/3 reduce-scatter. */
export const prescaleWithReduceScatter: Rule = (config) => {
  const stage = reduceScatterStrict(config);
  if (stage === undefined) return [];
  const prescale = config.isTrue(['prescale_gradients']);
  const factor = config.number(['gradient_predivide_factor']);
  // Most configs have neither key: the messages are formatted only for a diagnostic (this runs on every keystroke).
  if (!prescale && (factor === undefined || factor === 1)) return [];
  const out: Diagnostic[] = [];
  const why = config.has([ZERO, 'reduce_scatter']) ? config.t('ZeRO-{0} with reduce-scatter', stage) : config.t('ZeRO-{0} with reduce-scatter (on by default)', stage);
  const reduceScatterOff = fix(config.t('Turn reduce-scatter off'), [{ op: 'set', path: [ZERO, 'reduce_scatter'], value: false }]);
  // The registry cites ZeRO-3's asserts (stage3.py:388-389); ZeRO-2 has the same pair.
  const zero2 = (line: number) => (stage === 2 ? `${DS}:deepspeed/runtime/zero/stage_1_and_2.py#L${line}` : undefined);
  if (prescale) {
    out.push(
      config.diagnostic('prescale-with-reduce-scatter', 'error', config.keyRange(['prescale_gradients']), config.t('"prescale_gradients": true is not supported by {0}; DeepSpeed asserts when it builds the ZeRO optimizer.', why), {
        path: ['prescale_gradients'],
        stage,
        fixes: [fix(config.t('Set "{0}": false', 'prescale_gradients'), [{ op: 'set', path: ['prescale_gradients'], value: false }], true), reduceScatterOff],
      }, undefined, zero2(311)),
    );
  }
  if (factor !== undefined && factor !== 1) {
    out.push(
      config.diagnostic('predivide-with-reduce-scatter', 'error', config.valueRange(['gradient_predivide_factor']), config.t('"gradient_predivide_factor" must be 1.0 with {0}; DeepSpeed asserts on {1}.', why, factor), {
        path: ['gradient_predivide_factor'],
        stage,
        fixes: [fix(config.t('Set "{0}": {1}', 'gradient_predivide_factor', '1.0'), [{ op: 'set', path: ['gradient_predivide_factor'], value: 1.0 }], true), reduceScatterOff],
      }, undefined, zero2(310)),
    );
  }
  return out;
};

/**
 * gradient_allreduce_op: "mean" or "sum" (case-insensitive); "sum" is refused with ZeRO-3, ZenFlow and DeepCompile
 * (§2). The key exists after DeepSpeed 0.19.5 (#8232); an older release ignores it.
 */
export const allreduceOp: Rule = (config) => {
  const path = ['gradient_allreduce_op'];
  if (!config.has(path) || !config.holds('gradientAllreduceOp')) return [];
  const value = config.get(path);
  const op = config.lowerString(path);
  const toMean = fix(config.t('Use "{0}"', 'mean'), [{ op: 'set', path, value: 'mean' }], true);
  if (op !== 'mean' && op !== 'sum') {
    return [config.diagnostic('allreduce-op-invalid', 'error', config.valueRange(path), config.t('"gradient_allreduce_op" must be "mean" or "sum"; DeepSpeed raises ValueError on {0}.', showValue(value)), { path, fixes: [toMean] })];
  }
  if (op !== 'sum') return [];
  const reason = config.knownStage() === 3 ? 'ZeRO-3' : config.section([ZERO, 'zenflow']) ? 'ZenFlow' : config.isTrue(['compile', 'deepcompile']) ? 'DeepCompile' : undefined;
  if (!reason) return [];
  return [config.diagnostic('allreduce-sum-unsupported', 'error', config.valueRange(path), config.t('"gradient_allreduce_op": "sum" is not supported with {0}; DeepSpeed raises ValueError when it reads the config.', reason), { path, fixes: [toMean] })];
};

/** managed_gradient_accumulation: false cannot be combined with several features (§2.2). */
export const unmanagedGradAccumulation: Rule = (config) => {
  const path = ['managed_gradient_accumulation'];
  // The key exists from DeepSpeed 0.19.4 on; an older release ignores it.
  if (!config.has(path) || config.get(path) !== false || !config.holds('managedGradientAccumulation')) return [];
  const stage = config.knownStage();
  // Each conflict by its id (in the diagnostic's data) and as the reader reads it.
  const conflicts: [id: string, what: string][] = [];
  if (config.isTrue([ZERO, 'overlap_comm']) && stage !== undefined && stage < 2) conflicts.push(['overlap_comm', config.t('"overlap_comm" below ZeRO stage 2')]);
  if (config.section(['pipeline'])) conflicts.push(['pipeline', config.t('pipeline parallelism')]);
  if (config.isTrue(['compile', 'deepcompile'])) conflicts.push(['deepcompile', 'DeepCompile']);
  if (config.isTrue(['amp', 'enabled'])) conflicts.push(['amp', 'Apex AMP']);
  return conflicts.map(([id, what]) =>
    config.diagnostic('unmanaged-grad-accumulation-conflict', 'error', config.keyRange(path), config.t('"managed_gradient_accumulation": false cannot be used with {0}; DeepSpeed\'s engine sanity check asserts at start.', what), {
      path,
      conflict: id,
      fixes: [fix(config.t('Remove "{0}" (default true)', 'managed_gradient_accumulation'), [{ op: 'remove', path }], true)],
    }),
  );
};

/** AutoTP: an inner tp_size other than 1 must equal autotp_size (§10.2). */
export const autotpSize: Rule = (config) => {
  const autotp = config.number(['tensor_parallel', 'autotp_size']);
  const innerKey = config.has(['tensor_parallel', 'tensor_parallel']) ? 'tensor_parallel' : 'tp';
  const path = ['tensor_parallel', innerKey, 'tp_size'];
  const tp = config.number(path);
  // DeepSpeed only configures (and checks) tensor parallelism when autotp_size > 1 (engine.py:332).
  if (autotp === undefined || autotp <= 1 || tp === undefined || tp === 1 || tp === autotp) return [];
  return [
    config.diagnostic('autotp-size-mismatch', 'error', config.valueRange(path), config.t('"tp_size" ({0}) must be 1 or equal "autotp_size" ({1}); DeepSpeed raises ValueError.', tp, autotp), {
      path,
      fixes: [fix(config.t('Set {0} to {1}', '"tp_size"', autotp), [{ op: 'set', path, value: autotp }], true)],
    }),
  ];
};

/** DeepCompile's autotp pass cannot run with autosp or the ZeRO passes (§10.4). */
export const deepcompilePasses: Rule = (config) => {
  const passes = config.get(['compile', 'passes']);
  if (!Array.isArray(passes) || !passes.includes('autotp')) return [];
  const others = passes.filter((p) => p === 'autosp' || p === 'z1' || p === 'z3');
  if (others.length === 0) return [];
  return [
    config.diagnostic('deepcompile-passes-conflict', 'error', config.valueRange(['compile', 'passes']), config.t('The "autotp" DeepCompile pass cannot be combined with {0}; DeepSpeed raises NotImplementedError.', joinList(config.t, others.map((p) => `"${p}"`))), {
      path: ['compile', 'passes'],
    }),
  ];
};

/** ZenFlow interval settings must agree with the selection strategy (§4.5). */
export const zenflowIntervals: Rule = (config) => {
  const base = [ZERO, 'zenflow'];
  if (!config.section(base)) return [];
  // Compared as written: ZenFlowConfig raises ValueError on "Epoch" or any other value before the intervals
  // are read (zenflow_config.py:54-55); the schema's enum error reports that, so nothing more to say here.
  const strategy = config.has([...base, 'select_strategy']) ? config.get([...base, 'select_strategy']) : 'auto';
  if (strategy !== 'auto' && strategy !== 'step' && strategy !== 'epoch') return [];
  const select = config.has([...base, 'select_interval']) ? config.get([...base, 'select_interval']) : 'auto';
  const update = config.has([...base, 'update_interval']) ? config.get([...base, 'update_interval']) : 'auto';
  const path = [...base, 'select_interval'];
  const say = (message: string) => [config.diagnostic('zenflow-interval-invalid', 'error', config.valueRange(config.has(path) ? path : [...base, 'select_strategy']), message, { path })];
  if (strategy === 'auto' && typeof select === 'number') return say(config.t('With "select_strategy": "auto", "select_interval" must be "auto"; DeepSpeed raises on a number.'));
  if (strategy !== 'auto' && typeof select === 'string') return say(config.t('With "select_strategy": "{0}", "select_interval" must be a number.', strategy));
  // With "epoch" the interval counts epochs: DeepSpeed multiplies it by the steps per epoch before comparing.
  // 0 turns re-selection off and is never compared (zenflow/engine.py:62).
  if (strategy === 'step' && typeof select === 'number' && select !== 0 && typeof update === 'number' && select < update) return say(config.t('"select_interval" ({0}) must be at least "update_interval" ({1}).', select, update));
  return [];
};

/**
 * What ZenFlow's optimizers assert when they are built: at stages 1 and 2 it runs only with optimizer offload
 * (zenflow_stage_1_and_2.py: "Zenflow must be used with cpu offload"), and "offload": true needs overlap_comm
 * at every stage (off by default below stage 3).
 */
export const zenflowRequirements: Rule = (config) => {
  const base = [ZERO, 'zenflow'];
  const stage = config.knownStage();
  if (!config.section(base) || stage === undefined || stage === 0) return [];
  const out = [];
  if (stage < 3 && !config.optimizerOffloaded()) {
    out.push(
      config.diagnostic('zenflow-needs-offload', 'error', config.keyRange(base), config.t('ZenFlow at ZeRO stage {0} runs only with optimizer offload: DeepSpeed raises ValueError ("Zenflow must be used with cpu offload").', stage), {
        path: base,
        fixes: [fix(config.t('Offload the optimizer to the CPU'), [{ op: 'set', path: [ZERO, 'offload_optimizer', 'device'], value: 'cpu' }], true)],
      }),
    );
  }
  const overlapPath = [ZERO, 'overlap_comm'];
  // null or absent: on at stage 3 only (overlap_comm_valid).
  const overlapSet = config.has(overlapPath) && config.get(overlapPath) !== null;
  const overlap = overlapSet ? config.isTrue(overlapPath) : stage === 3;
  if (config.isTrue([...base, 'offload']) && !overlap) {
    const message = overlapSet
      ? config.t('ZenFlow\'s "offload": true needs "overlap_comm": true, and "overlap_comm" is off: DeepSpeed asserts ("offload selective optimizer should be used with overlap_comm").')
      : config.t('ZenFlow\'s "offload": true needs "overlap_comm": true, and "overlap_comm" is off by default at stage {0}: DeepSpeed asserts ("offload selective optimizer should be used with overlap_comm").', stage);
    out.push(
      config.diagnostic('zenflow-needs-overlap-comm', 'error', config.keyRange([...base, 'offload']), message, {
        path: [...base, 'offload'],
        fixes: [fix(config.t('Turn "{0}" on', 'overlap_comm'), [{ op: 'set', path: overlapPath, value: true }], true), fix(config.t('Turn ZenFlow "offload" off'), [{ op: 'set', path: [...base, 'offload'], value: false }])],
      }, undefined, stage === 3 ? `${DS}:deepspeed/runtime/zenflow/engine_stage3.py#L101` : undefined),
    );
  }
  return out;
};

/** tensor_parallel.dtype is a pydantic field typed torch.dtype: no JSON value passes its type check. */
export const tensorParallelDtype: Rule = (config) => {
  const path = ['tensor_parallel', 'dtype'];
  if (!config.has(path) || config.get(path) === 'auto') return [];
  return [
    config.diagnostic('tensor-parallel-dtype', 'error', config.valueRange(path),
      config.t('"dtype" in tensor_parallel is typed torch.dtype in DeepSpeed\'s pydantic config, and no JSON value is one: DeepSpeed refuses {0} (is_instance_of). Remove it and pass the dtype to deepspeed.tp_model_init() in your script.', showValue(config.get(path))),
      { path, fixes: [fix(config.t('Remove "{0}"', 'dtype'), [{ op: 'remove', path }], true)] },
    ),
  ];
};

export const parallelismRules: Rule[] = [tensorParallelDtype, pipelineWithZero, prescaleWithReduceScatter, allreduceOp, unmanagedGradAccumulation, autotpSize, deepcompilePasses, zenflowIntervals, zenflowRequirements];
export const parallelismOwnedPaths = [['gradient_allreduce_op'], ['tensor_parallel', 'dtype']];
