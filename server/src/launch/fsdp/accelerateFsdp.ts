/**
 * An accelerate config's `fsdp_config` as `accelerate launch` hands it to `FullyShardedDataParallelPlugin`
 * (accelerate 16cb6eb8): each key becomes its `--fsdp_*` option, unset ones keep the launcher's defaults
 * (commands/launch.py:513-604), and utils/launch.py:304-332 turns them into the `FSDP_*` variables the plugin
 * reads (utils/dataclasses.py:1815-2011).
 */
import type { Fact, FsdpSettings, SourceSpan } from '../facts';
import { accelerateFsdpName, shardingStrategyOf, strToBool } from './options';
import type { KeyValueEntry as WrittenEntry } from '../keyValueEntry';

/** `fsdp_config`'s entries by the `fsdp_` name accelerate reads them as; a later spelling of a key wins. */
export function byAccelerateName<E extends WrittenEntry>(entries: Map<string, E>): Map<string, E> {
  const out = new Map<string, E>();
  for (const entry of entries.values()) out.set(accelerateFsdpName(entry.key), entry);
  return out;
}

/** The FSDP version the plugin runs: `FSDP_VERSION` from `fsdp_version`, 1 when unset (launch.py:514-519). */
export function fsdpVersionOf(fsdp: Map<string, WrittenEntry>): 1 | 2 {
  return String(fsdp.get('fsdp_version')?.value ?? '1').trim() === '2' ? 2 : 1;
}

/**
 * The strategy the run shards with. FSDP1: `fsdp_sharding_strategy` (default FULL_SHARD), which the launcher
 * always passes and the plugin prefers (utils/launch.py:313, utils/dataclasses.py:1836-1848, accelerator.py:1940).
 * FSDP2: `fsdp_reshard_after_forward` (default true) as FULL_SHARD or SHARD_GRAD_OP.
 */
export function strategyOf(fsdp: Map<string, WrittenEntry>, version: 1 | 2): FsdpSettings['strategy'] {
  if (version === 2) return strToBool(fsdp.get('fsdp_reshard_after_forward')?.value ?? true) === false ? 'SHARD_GRAD_OP' : 'FULL_SHARD';
  return shardingStrategyOf(fsdp.get('fsdp_sharding_strategy')?.value ?? 'FULL_SHARD') ?? 'FULL_SHARD';
}

const autoWraps = ['TRANSFORMER_BASED_WRAP', 'SIZE_BASED_WRAP', 'NO_WRAP'] as const;

/** How an accelerate config with `distributed_type: FSDP` runs FSDP; undefined for another distributed type. */
export function accelerateFsdpSettings(
  distributedType: WrittenEntry | undefined,
  entries: Map<string, WrittenEntry>,
  span: (start: number, end: number) => SourceSpan,
): FsdpSettings | undefined {
  if (!distributedType || String(distributedType.value ?? '').toUpperCase() !== 'FSDP') return undefined;
  const fsdp = byAccelerateName(entries);
  const version = fsdpVersionOf(fsdp);
  const wrap = String(fsdp.get('fsdp_auto_wrap_policy')?.value ?? 'NO_WRAP').toUpperCase();
  const settings: FsdpSettings = {
    via: 'distributed_type',
    span: span(distributedType.valueStart, distributedType.valueEnd),
    version,
    strategy: strategyOf(fsdp, version),
    offloadParams: strToBool(fsdp.get('fsdp_offload_params')?.value ?? false) === true,
    autoWrap: (autoWraps as readonly string[]).includes(wrap) ? (wrap as FsdpSettings['autoWrap']) : 'NO_WRAP',
  };
  const checkpointing = fsdp.get('fsdp_activation_checkpointing');
  if (checkpointing && strToBool(checkpointing.value) === true) {
    const fact: Fact<boolean> = { value: true, span: span(checkpointing.keyStart, checkpointing.valueEnd), via: checkpointing.key };
    settings.activationCheckpointing = fact;
  }
  if (version === 1) settings.useOrigParams = strToBool(fsdp.get('fsdp_use_orig_params')?.value ?? true) !== false;
  return settings;
}
