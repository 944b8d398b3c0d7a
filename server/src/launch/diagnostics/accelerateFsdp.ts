/**
 * An accelerate config's `fsdp_config` checked as `accelerate launch` and `FullyShardedDataParallelPlugin` read it
 * (accelerate 16cb6eb8): keys the launcher has no option for, values the plugin refuses (each error links the line
 * that raises), options the chosen FSDP version does not read, the launcher's own refusal, and sections that
 * `distributed_type` leaves unused.
 */
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { Translate } from '../../l10n';
import type { SourceContext } from '../command/context';
import type { YamlEntry, YamlLaunch } from '../yaml/analyzeYaml';
import { launchDiagnostic } from './launchDiagnostic';
import type { FixSpec } from '../../diagnostics/fixData';
import { accelerateFsdpName, accelerateFsdpOptions, shardingStrategyOf, strToBool } from '../fsdp/options';
import { byAccelerateName, fsdpVersionOf, strategyOf } from '../fsdp/accelerateFsdp';
import { closest } from '../fsdp/closest';
import type { OptionEntry } from '../optionSchema';
import { raises } from '../upstream';
import { accelerateParallelism } from './accelerateParallelism';
import { removeEntry, renameKey, replaceEntry, setValue } from './yamlEntryOps';

/** Python's truth of a YAML value the launcher tests with `and`/`not` (a quoted "false" is true). */
function truthy(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  if (typeof value === 'number') return value !== 0;
  return value !== null && value !== undefined && value !== false;
}

/** `distributed_type` names one family; the other family's section is then not used. */
function unusedSections(ctx: SourceContext, yaml: YamlLaunch, t: Translate): Diagnostic[] {
  const type = yaml.top.get('distributed_type');
  const written = (type?.text ?? String(type?.value ?? '')).toUpperCase();
  if (!type || !written) return [];
  const out: Diagnostic[] = [];
  const report = (section: string, other: 'DEEPSPEED' | 'FSDP') => {
    const entry = yaml.top.get(section);
    if (!entry) return;
    const fixes: FixSpec[] = [
      { id: 'remove-entry', title: t('Remove `{0}`', section), ops: [removeEntry(ctx, entry)] },
      { id: 'change-value', title: t('Set `distributed_type` to {0}', other), ops: [setValue(ctx, type, other)] },
    ];
    const message = t('`distributed_type` is {0}, so `accelerate launch` does not use `{1}`: none of its settings apply to this run. Remove the section, or set `distributed_type: {2}` to train with it.', written, section, other);
    out.push(launchDiagnostic(ctx, 'fsdp-section-ignored', entry.keyStart, entry.keyEnd, message, { section, fixes }));
  };
  if (written !== 'DEEPSPEED' && yaml.deepspeedConfig.size > 0) report('deepspeed_config', 'DEEPSPEED');
  if (written !== 'FSDP' && yaml.fsdpConfig.size > 0) report('fsdp_config', 'FSDP');
  return out;
}

/** Whether a value is one the option takes, as the plugin compares it. */
function accepted(option: OptionEntry, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (option.name === 'fsdp_sharding_strategy') return shardingStrategyOf(value) !== undefined;
  if (option.name === 'fsdp_state_dict_type' && /^[1-3]$/.test(String(value))) return true;
  if (option.values && option.types.includes('string')) return option.values.map(String).includes(String(value).toUpperCase());
  if (option.types.includes('boolean')) return strToBool(value) !== undefined;
  return true;
}

function invalidValue(ctx: SourceContext, e: YamlEntry, option: OptionEntry, t: Translate, severity?: DiagnosticSeverity): Diagnostic {
  const allowed = option.values?.map(String) ?? (option.types.includes('boolean') ? ['true', 'false'] : []);
  const suggestion = closest(String(e.value), allowed);
  const fixes: FixSpec[] = suggestion ? [{ id: 'change-value', title: t('Change to {0}', suggestion), ops: [setValue(ctx, e, suggestion)], preferred: true }] : [];
  const message = t('`{0}` takes {1}, not `{2}`: accelerate refuses it when it builds the FSDP plugin.', e.key, allowed.join(' | '), String(e.value));
  const ref = option.meta.invalid ?? option.meta.reads;
  return launchDiagnostic(ctx, 'fsdp-invalid-value', e.valueStart, e.valueEnd, message, { key: e.key, fixes }, { raises: ref, severity });
}

/** Keys accelerate has no option for, and values the plugin refuses. */
function keysAndValues(ctx: SourceContext, yaml: YamlLaunch, version: 1 | 2, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const options = accelerateFsdpOptions();
  const wrap = String(byAccelerateName(yaml.fsdpConfig).get('fsdp_auto_wrap_policy')?.value ?? 'NO_WRAP').toUpperCase();
  for (const e of yaml.fsdpConfig.values()) {
    const name = accelerateFsdpName(e.key);
    const option = options.get(name);
    if (!option) {
      const suggestion = closest(name, options.keys());
      const fixes: FixSpec[] = suggestion ? [{ id: 'rename-key', title: t('Rename to `{0}`', suggestion), ops: [renameKey(ctx, e, suggestion)], preferred: true }] : [];
      out.push(launchDiagnostic(ctx, 'fsdp-unknown-key', e.keyStart, e.keyEnd, t('`accelerate launch` has no FSDP option `{0}`, so it ignores this key.', name), { key: e.key, fixes }));
      continue;
    }
    // Options the version does not read are reported by versionChecks, whatever their value.
    if (option.meta.versions && !option.meta.versions.includes(version)) continue;
    if (name === 'fsdp_version') {
      if (!['1', '2'].includes(String(e.value).trim())) out.push(invalidValue(ctx, e, option, t, DiagnosticSeverity.Warning));
      continue;
    }
    if (name === 'fsdp_reshard_after_forward') {
      if (strToBool(e.value) === undefined) out.push(reshardNotBoolean(ctx, e, t));
      continue;
    }
    if (name === 'fsdp_min_num_params') {
      // int() of what the launcher passes: YAML's `1e8` (a string to PyYAML) or `1.0e+8` (a float) both fail.
      const raw = ctx.document.getText().slice(e.valueStart, e.valueEnd).trim().replace(/^['"]|['"]$/g, '');
      if (wrap === 'SIZE_BASED_WRAP' && raw !== '' && !/^\d+$/.test(raw)) {
        const n = Number(raw);
        const fixes: FixSpec[] = Number.isSafeInteger(n) && n >= 0 ? [{ id: 'change-value', title: t('Change to {0}', String(n)), ops: [setValue(ctx, e, String(n))], preferred: true }] : [];
        const message = t('`fsdp_min_num_params` must be written as a whole number: the plugin reads it with `int()`, which refuses `{0}` (ValueError).', raw);
        out.push(launchDiagnostic(ctx, 'fsdp-invalid-value', e.valueStart, e.valueEnd, message, { key: e.key, fixes }, { raises: raises.pluginMinNumParams }));
      }
      continue;
    }
    if (name === 'fsdp_state_dict_type' && version === 2 && String(e.value).toUpperCase() === 'LOCAL_STATE_DICT') {
      const fixes: FixSpec[] = [{ id: 'change-value', title: t('Change to {0}', 'SHARDED_STATE_DICT'), ops: [setValue(ctx, e, 'SHARDED_STATE_DICT')], preferred: true }];
      out.push(launchDiagnostic(ctx, 'fsdp-invalid-value', e.valueStart, e.valueEnd, t('FSDP2 has no `LOCAL_STATE_DICT`: accelerate raises ValueError. Use SHARDED_STATE_DICT or FULL_STATE_DICT.'), { key: e.key, fixes }, { raises: raises.pluginStateDictFsdp2 }));
      continue;
    }
    if (!accepted(option, e.value)) out.push(invalidValue(ctx, e, option, t));
  }
  return out;
}

/** FSDP2's `reshard_after_forward` through `str_to_bool`: a strategy name raises ValueError. */
function reshardNotBoolean(ctx: SourceContext, e: YamlEntry, t: Translate): Diagnostic {
  const strategy = shardingStrategyOf(e.value);
  const meant = strategy === 'FULL_SHARD' || strategy === 'HYBRID_SHARD' ? 'true' : strategy === 'SHARD_GRAD_OP' || strategy === 'HYBRID_SHARD_ZERO2' ? 'false' : undefined;
  const fixes: FixSpec[] = meant ? [{ id: 'change-value', title: t('Change to {0}', meant), ops: [setValue(ctx, e, meant)], preferred: true }] : [];
  const message = t('Under FSDP2 `fsdp_reshard_after_forward` is true or false (true frees the gathered parameters after each forward, like FULL_SHARD): accelerate reads `{0}` with `str_to_bool` and raises ValueError.', String(e.value));
  return launchDiagnostic(ctx, 'fsdp-invalid-value', e.valueStart, e.valueEnd, message, { key: e.key, fixes }, { raises: raises.pluginReshardBool });
}

/** Options one FSDP version does not read, and the strategy key that decides in each. */
function versionChecks(ctx: SourceContext, yaml: YamlLaunch, version: 1 | 2, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const fsdp = byAccelerateName(yaml.fsdpConfig);
  const strategy = strategyOf(fsdp, version);
  const reshard = fsdp.get('fsdp_reshard_after_forward');
  const sharding = fsdp.get('fsdp_sharding_strategy');
  const ignored = (e: YamlEntry, message: string, fixes: FixSpec[], severity?: DiagnosticSeverity) =>
    out.push(launchDiagnostic(ctx, 'fsdp-ignored-by-version', e.keyStart, e.keyEnd, message, { key: e.key, version, fixes }, { severity }));
  if (version === 1 && reshard) {
    // What `accelerate config` writes for FSDP1; the launcher passes fsdp_sharding_strategy instead.
    const written = typeof reshard.value === 'boolean' ? (reshard.value ? 'FULL_SHARD' : 'SHARD_GRAD_OP') : shardingStrategyOf(reshard.value);
    if (written && written !== strategy) {
      const fixes: FixSpec[] = sharding ? [] : [{ id: 'rename-key', title: t('Write it as `fsdp_sharding_strategy: {0}`', written), ops: [replaceEntry(ctx, reshard, `fsdp_sharding_strategy: ${written}`)], preferred: true }];
      ignored(reshard, t('Under FSDP1 `accelerate launch` always passes `fsdp_sharding_strategy` (here {0}) and the plugin prefers it, so this {1} is not used and the run shards as {0}. Write the strategy as `fsdp_sharding_strategy`.', strategy, written), fixes);
    }
  }
  if (version === 2 && sharding) {
    const named = shardingStrategyOf(sharding.value);
    const meant = named === 'FULL_SHARD' || named === 'HYBRID_SHARD' ? 'true' : named === 'SHARD_GRAD_OP' || named === 'HYBRID_SHARD_ZERO2' ? 'false' : undefined;
    const fixes: FixSpec[] = meant && !reshard ? [{ id: 'rename-key', title: t('Write it as `fsdp_reshard_after_forward: {0}`', meant), ops: [replaceEntry(ctx, sharding, `fsdp_reshard_after_forward: ${meant}`)], preferred: true }] : [];
    ignored(sharding, t('FSDP2 does not read `fsdp_sharding_strategy`: `fsdp_reshard_after_forward` decides (true, like FULL_SHARD, unless set), so this run shards as {0}.', strategy), fixes);
  }
  if (version === 2) {
    for (const name of ['fsdp_backward_prefetch', 'fsdp_forward_prefetch', 'fsdp_use_orig_params', 'fsdp_sync_module_states']) {
      const e = fsdp.get(name);
      if (!e) continue;
      ignored(e, t('FSDP2 does not read `{0}` (an FSDP1 option), so it has no effect here.', name), [{ id: 'remove-entry', title: t('Remove `{0}`', e.key), ops: [removeEntry(ctx, e)] }], DiagnosticSeverity.Information);
    }
  }
  return out;
}

/** The launcher refuses CPU-RAM-efficient loading without the broadcast that fills the other ranks. */
function ramEfficientLoading(ctx: SourceContext, yaml: YamlLaunch, t: Translate): Diagnostic[] {
  const fsdp = byAccelerateName(yaml.fsdpConfig);
  const ram = fsdp.get('fsdp_cpu_ram_efficient_loading');
  const sync = fsdp.get('fsdp_sync_module_states');
  // Unset, both are the launcher's default string "true" (commands/launch.py:584-598).
  if (!sync || truthy(sync.value) || (ram && !truthy(ram.value))) return [];
  const fixes: FixSpec[] = [{ id: 'change-value', title: t('Set `fsdp_sync_module_states: true`'), ops: [setValue(ctx, sync, 'true')], preferred: true }];
  if (ram) fixes.push({ id: 'change-value', title: t('Set `fsdp_cpu_ram_efficient_loading: false`'), ops: [setValue(ctx, ram, 'false')] });
  const message = ram
    ? t('`fsdp_cpu_ram_efficient_loading` is on and `fsdp_sync_module_states` is false: `accelerate launch` refuses to start (ValueError), because only rank 0 loads the weights and the others need the broadcast.')
    : t('`fsdp_sync_module_states` is false while `fsdp_cpu_ram_efficient_loading` keeps the launcher\'s default, true: `accelerate launch` refuses to start (ValueError). Set both, or turn the efficient loading off.');
  return [launchDiagnostic(ctx, 'fsdp-ram-efficient-loading-without-sync', sync.valueStart, sync.valueEnd, message, { fixes }, { raises: raises.launchRamEfficientNeedsSync })];
}

/** Offloading a model every GPU holds whole: the Trainer's documentation allows offload only with sharding. */
function offloadWithoutSharding(ctx: SourceContext, yaml: YamlLaunch, version: 1 | 2, t: Translate): Diagnostic[] {
  const fsdp = byAccelerateName(yaml.fsdpConfig);
  const offload = fsdp.get('fsdp_offload_params');
  if (!offload || strToBool(offload.value) !== true || version !== 1 || strategyOf(fsdp, 1) !== 'NO_SHARD') return [];
  const message = t('CPU offload with NO_SHARD: nothing is sharded, so every process keeps and moves a whole copy of the parameters and gradients in CPU RAM. Offload is meant for FULL_SHARD or SHARD_GRAD_OP.');
  return [launchDiagnostic(ctx, 'fsdp-offload-without-sharding', offload.valueStart, offload.valueEnd, message, { key: offload.key })];
}

/** Every FSDP check of an accelerate config. */
export function accelerateFsdpDiagnostics(ctx: SourceContext, yaml: YamlLaunch, t: Translate): Diagnostic[] {
  if (yaml.kind !== 'accelerate-yaml') return [];
  const out = unusedSections(ctx, yaml, t);
  out.push(...accelerateParallelism(ctx, yaml, t));
  if (String(yaml.top.get('distributed_type')?.value ?? '').toUpperCase() !== 'FSDP') return out;
  const version = fsdpVersionOf(byAccelerateName(yaml.fsdpConfig));
  out.push(...keysAndValues(ctx, yaml, version, t));
  out.push(...versionChecks(ctx, yaml, version, t));
  out.push(...ramEfficientLoading(ctx, yaml, t));
  out.push(...offloadWithoutSharding(ctx, yaml, version, t));
  return out;
}
