import type { JSONPath } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { enumValuesOf, schemaForPath } from '../../schemaIndex';
import { fix, showValue, type ConfigView } from '../configView';
import type { FixSpec } from '../fixTypes';
import type { Rule } from './rule';
import type { WorldSize } from '../worldSize';
import { joinList } from '../../../l10n';

const ZERO = 'zero_optimization';
const EP = 'expert_parallel';
const DOCS = 'https://www.deepspeed.ai/docs/config-json/#expert-parallel-autoep';

/**
 * What validate_folding_global refuses when the engine sets AutoEP up (module_inject/auto_ep_folding.py:184-262,
 * called from engine.py:594 and :604 when expert_parallel.enabled). AutoTP folding means autotp_size > 1.
 * Checks that need the world size or an mpu are left out.
 */
export const autoepConflicts: Rule = (config) => {
  // parse_autoep_config reads the raw value and the engine tests its truth (auto_ep_config.py:47, engine.py:573).
  if (!config.get([EP, 'enabled'])) return [];
  const tp = config.number(['tensor_parallel', 'autotp_size']) ?? 0;
  const out: Diagnostic[] = [];
  const say = (path: JSONPath, message: string, fixes: FixSpec[] = []) =>
    out.push(config.diagnostic('autoep-conflict', 'error', config.keyRange(path), config.t('{0} DeepSpeed raises ValueError when it sets up AutoEP.', message), { path, fixes }, DOCS));

  const tpPreset = config.get(['tensor_parallel', 'preset_model']);
  const epPreset = config.get([EP, 'preset_model']);
  // :235, whatever autotp_size is; compared as written.
  if (typeof tpPreset === 'string' && typeof epPreset === 'string' && tpPreset !== epPreset) {
    const epChoices = enumValuesOf(schemaForPath([EP, 'preset_model']) ?? {}).map((e) => e.value);
    const fixes = epChoices.includes(tpPreset) ? [fix(config.t('Use "{0}" in expert_parallel too', tpPreset), [{ op: 'set', path: [EP, 'preset_model'], value: tpPreset }], true)] : [];
    say([EP, 'preset_model'], config.t('"tensor_parallel.preset_model" ({0}) and "expert_parallel.preset_model" ({1}) must match when both are set.', showValue(tpPreset), showValue(epPreset)), fixes);
  }
  if (tp <= 1) return out;
  const folding = config.t('AutoEP with AutoTP ("autotp_size": {0})', tp);
  // auto_ep_folding.py:202
  if (config.isTrue(['compile', 'deepcompile'])) {
    say(['compile', 'deepcompile'], config.t('{0} does not support DeepCompile.', folding), [fix(config.t('Turn {0} off', 'DeepCompile'), [{ op: 'set', path: ['compile', 'deepcompile'], value: false }])]);
  }
  // :241; parse_autoep_config defaults autoep_size to 1.
  const ep = config.has([EP, 'autoep_size']) ? config.get([EP, 'autoep_size']) : 1;
  if (ep === 1) {
    say(config.has([EP, 'autoep_size']) ? [EP, 'autoep_size'] : [EP], config.t('{0} needs "autoep_size" > 1: with 1 the routed-token gradients would be duplicated across TP lanes.', folding));
  }
  // :245
  if (config.get(['use_data_before_expert_parallelism'])) {
    const path = ['use_data_before_expert_parallelism'];
    say(path, config.t('{0} does not support "use_data_before_expert_parallelism".', folding), [fix(config.t('Set it to false'), [{ op: 'set', path, value: false }], true)]);
  }
  // :249
  if (config.knownStage() === 3) {
    say([ZERO, 'stage'], config.t('{0} does not support ZeRO stage 3; use stage 0, 1 or 2.', folding), [fix(config.t('Use ZeRO stage {0}', 2), [{ op: 'set', path: [ZERO, 'stage'], value: 2 }])]);
  }
  // :253
  for (const block of zeroOffloadBlocks(config)) {
    const path = [ZERO, block];
    say(path, config.t('{0} does not support ZeRO offload: any "{1}" block counts, even with "device": "none".', folding, block), [fix(config.t('Remove "{0}"', block), [{ op: 'remove', path }])]);
  }
  return out;
};

/**
 * The ZeRO offload blocks the engine sees as set: validate_folding_global tests `offload_* is not None`
 * (engine.py:614-615), and the deprecated cpu_offload / cpu_offload_param true become such blocks.
 */
function zeroOffloadBlocks(config: ConfigView): string[] {
  const set = (key: string) => config.has([ZERO, key]) && config.get([ZERO, key]) !== null;
  const blocks: string[] = [];
  if (set('offload_optimizer')) blocks.push('offload_optimizer');
  else if (config.isTrue([ZERO, 'cpu_offload'])) blocks.push('cpu_offload');
  if (set('offload_param')) blocks.push('offload_param');
  else if (config.isTrue([ZERO, 'cpu_offload_param'])) blocks.push('cpu_offload_param');
  return blocks;
}

export const expertParallelRules: Rule[] = [autoepConflicts];

/**
 * What build_folding_spec refuses once the world size is known (module_inject/auto_ep_folding.py:81-125, called
 * from validate_autoep_config and engine.py:594-595 when expert_parallel.enabled): autotp_size and
 * autoep_size × expert_tensor_parallel_size must divide the pipeline stage, world_size / pp_size. pp_size comes
 * from an mpu the config does not show, but a stage size divides the world size, so a value that does not divide
 * the world size fails whatever pp_size is; nothing is said otherwise. The num_experts checks
 * (auto_ep_config.py:276-290) need the model and are left out.
 */
export function autoepWorldChecks(config: ConfigView, world: WorldSize): Diagnostic[] {
  if (!config.get([EP, 'enabled'])) return [];
  const positive = (path: JSONPath, fallback: number): number | undefined => {
    if (!config.has(path)) return fallback;
    const value = config.get(path);
    return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
  };
  const out: Diagnostic[] = [];
  const say = (path: JSONPath, message: string) => {
    const text = config.t('{0} DeepSpeed raises ValueError when it sets up AutoEP ("... must divide the stage size", world_size / pp_size). Values that divide {1}: {2}.', message, world.gpus, joinList(config.t, divisorsOf(world.gpus)));
    out.push(config.diagnostic('autoep-conflict', 'error', config.keyRange(path), text, { path }, DOCS));
  };

  // :104-108; autotp_size 0 (off) is passed as 1.
  const tp = config.number(['tensor_parallel', 'autotp_size']);
  if (tp !== undefined && Number.isInteger(tp) && tp > 1 && world.gpus % tp !== 0) {
    say(['tensor_parallel', 'autotp_size'], config.t('{0} does not divide the world size of {1}.', `"autotp_size" ${tp}`, world.label));
  }
  // :110-115
  const ep = positive([EP, 'autoep_size'], 1);
  const etp = positive([EP, 'expert_tensor_parallel_size'], 1);
  if (ep !== undefined && etp !== undefined && world.gpus % (ep * etp) !== 0) {
    const width = etp === 1 ? `"autoep_size" ${ep}` : `"autoep_size" × "expert_tensor_parallel_size" (${ep} × ${etp} = ${ep * etp})`;
    say(config.has([EP, 'autoep_size']) ? [EP, 'autoep_size'] : [EP, 'expert_tensor_parallel_size'], config.t('{0} does not divide the world size of {1}.', width, world.label));
  }
  return out;
}

/** The divisors of n in ascending order, found up to √n: the GPU count comes from a script or a setting, unbounded. */
function divisorsOf(n: number): number[] {
  const low: number[] = [];
  const high: number[] = [];
  for (let d = 1; d * d <= n; d++) {
    if (n % d !== 0) continue;
    low.push(d);
    if (d * d !== n) high.unshift(n / d);
  }
  return [...low, ...high];
}
