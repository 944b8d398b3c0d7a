import type { Diagnostic } from 'vscode-languageserver-types';
import { fix, type ConfigView } from '../configView';
import type { Rule } from './rule';
import { andList } from '../../../l10n';

const ZERO = 'zero_optimization';
const DOCS = 'https://www.deepspeed.ai/docs/config-json/#deepcompile-activation-offload';
const OFFLOAD_FLAGS = ['offload_activation', 'offload_opt_states', 'offload_parameters'] as const;

/**
 * engine.compile() builds the DeepCompile ZeRO backend unless an "autosp" or "autotp" pass takes over
 * (engine.py:5697-5702); it falls back to plain torch.compile at stage 0 (engine.py:5656-5662).
 */
function deepcompileZeroBackend(config: ConfigView): boolean {
  if (!config.isTrue(['compile', 'deepcompile'])) return false;
  const passes = config.get(['compile', 'passes']);
  return !(Array.isArray(passes) && (passes.includes('autosp') || passes.includes('autotp')));
}

/** offload_parameters as init_z3 sees it: the user's flag, or set by the engine when both ZeRO offloads are "cpu" (engine.py:5664-5669). */
function offloadParameters(config: ConfigView): { on: boolean; implicit: boolean } {
  if (config.isTrue(['compile', 'offload_parameters'])) return { on: true, implicit: false };
  const implicit = config.get([ZERO, 'offload_param', 'device']) === 'cpu' && config.get([ZERO, 'offload_optimizer', 'device']) === 'cpu';
  return { on: implicit, implicit };
}

/** The DeepCompile offload combinations init_z3 refuses with ValueError before it compiles (compile/init_z3.py:93, :100, :148). */
function stage3Conflicts(config: ConfigView): Diagnostic[] {
  const optStates = config.isTrue(['compile', 'offload_opt_states']);
  const activation = config.isTrue(['compile', 'offload_activation']);
  const parameters = offloadParameters(config);
  const paramsWord = parameters.implicit ? config.t('"offload_parameters" (turned on by the engine because ZeRO offloads both parameters and optimizer to "cpu")') : '"offload_parameters"';
  const out: Diagnostic[] = [];
  const conflict = (key: string, message: string, fixes: ReturnType<typeof fix>[]) =>
    out.push(config.diagnostic('deepcompile-offload-conflict', 'error', config.keyRange(['compile', key]), config.t('{0} When the model is compiled, DeepSpeed raises ValueError.', message), { path: ['compile', key], fixes }, DOCS));
  const turnOff = (key: string, preferred = false) => fix(config.t('Set "{0}": false', key), [{ op: 'set', path: ['compile', key], value: false }], preferred);

  const zeroOptimizerOffload = optStates && config.optimizerOffloaded();
  if (zeroOptimizerOffload) {
    conflict('offload_opt_states', config.t('DeepCompile\'s "offload_opt_states" cannot be combined with ZeRO\'s optimizer offload to "cpu" or "nvme": both manage the same optimizer states.'), [
      turnOff('offload_opt_states', true),
    ]);
  }
  if (activation && (parameters.on || optStates)) {
    const others = andList(config.t, [parameters.on ? paramsWord : undefined, optStates ? '"offload_opt_states"' : undefined].filter((w): w is string => Boolean(w)));
    conflict('offload_activation', config.t('DeepCompile\'s "offload_activation" cannot be combined with {0}: choose one offloading target.', others), [turnOff('offload_activation', true)]);
  }
  // init_z3 checks this pair only after the two checks above, so it adds nothing when the first one fired.
  if (parameters.on && optStates && !zeroOptimizerOffload) {
    conflict('offload_opt_states', config.t('DeepCompile\'s {0} and "offload_opt_states" cannot be on together: choose one offloading target.', paramsWord), [turnOff('offload_opt_states', true)]);
  }
  return out;
}

/** init_z1_and_2 never reads the offload flags (compile/init_z1_and_2.py): below stage 3 they do nothing. */
function unusedBelowStage3(config: ConfigView, stage: number): Diagnostic[] {
  return OFFLOAD_FLAGS.filter((key) => config.isTrue(['compile', key])).map((key) =>
    config.diagnostic('ignored-at-stage', 'warning', config.keyRange(['compile', key]),
      config.t('"{0}" is only read by DeepCompile\'s ZeRO stage 3 backend; with "stage": {1} DeepSpeed ignores it.', key, stage),
      { path: ['compile', key], stage, stages: [3], fixes: [fix(config.t('Remove "{0}"', key), [{ op: 'remove', path: ['compile', key] }])] },
      DOCS,
    ),
  );
}

export const deepcompileOffload: Rule = (config) => {
  const stage = config.knownStage();
  if (stage === undefined || stage === 0 || !deepcompileZeroBackend(config)) return [];
  return stage === 3 ? stage3Conflicts(config) : unusedBelowStage3(config, stage);
};

export const deepcompileRules: Rule[] = [deepcompileOffload];
