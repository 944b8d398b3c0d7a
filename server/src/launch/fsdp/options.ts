/**
 * The FSDP options of `schemas/fsdp.schema.json`, by the name each reader gives them: accelerate adds an
 * `fsdp_` prefix to a key of `fsdp_config` that has none (commands/launch.py:1264-1265), the Trainer drops it
 * from a key of `--fsdp_config` that has one (training_args.py:1948-1952).
 */
import schemaJson from '../../../../schemas/fsdp.schema.json';
import { optionEntries, optionEntry, type OptionEntry } from '../optionSchema';

const definitions = (schemaJson as { definitions: Record<string, unknown> }).definitions;

let accelerate: Map<string, OptionEntry> | undefined;
let trainerConfig: Map<string, OptionEntry> | undefined;
let trainerWords: OptionEntry | undefined;
let swift: OptionEntry | undefined;

/** Every key of accelerate's `fsdp_config`, by its `fsdp_` name. */
export function accelerateFsdpOptions(): Map<string, OptionEntry> {
  return (accelerate ??= optionEntries(definitions.accelerateFsdpConfig, 'x-fsdp'));
}

/** The `fsdp_` name accelerate gives a key of `fsdp_config`. */
export function accelerateFsdpName(key: string): string {
  return key.startsWith('fsdp') ? key : `fsdp_${key}`;
}

export function accelerateFsdpOption(key: string): OptionEntry | undefined {
  return accelerateFsdpOptions().get(accelerateFsdpName(key));
}

/** Every key of the Trainer's `--fsdp_config`, without its `fsdp_` prefix. */
export function trainerFsdpConfigOptions(): Map<string, OptionEntry> {
  return (trainerConfig ??= optionEntries(definitions.trainerFsdpConfig, 'x-fsdp'));
}

/**
 * Keys of an ms-swift `--fsdp` file's `fsdp_config` that ms-swift reads itself, beside the Trainer's (which
 * ignores them): `activation_cpu_offload` turns on its callback (swift/trainers/arguments.py:269-271 at 3602360a).
 */
export const swiftOwnFsdpConfigKeys: ReadonlySet<string> = new Set(['activation_cpu_offload']);

/** The name the Trainer reads a key of `--fsdp_config` by. */
export function trainerFsdpName(key: string): string {
  return key.startsWith('fsdp_') ? key.slice(5) : key;
}

export function trainerFsdpConfigOption(key: string): OptionEntry | undefined {
  return trainerFsdpConfigOptions().get(trainerFsdpName(key));
}

/** The words of the Trainer's `--fsdp` (`full_shard`, `offload`, `auto_wrap`, …). */
export function trainerFsdpWords(): OptionEntry {
  return (trainerWords ??= optionEntry('fsdp', definitions.trainerFsdpOptions, 'x-fsdp'));
}

/** ms-swift's `--fsdp`: its presets, and what each holds. */
export function swiftFsdpOption(): OptionEntry {
  return (swift ??= optionEntry('fsdp', definitions.swiftFsdp, 'x-fsdp'));
}

/** An ms-swift preset's file as ms-swift reads it (`{ fsdp, fsdp_config }`), or undefined for another value. */
export function swiftFsdpPreset(name: string): { fsdp?: string; fsdp_config?: Record<string, unknown> } | undefined {
  return swiftFsdpOption().meta.presets?.[name] as { fsdp?: string; fsdp_config?: Record<string, unknown> } | undefined;
}

/** FSDP1's sharding strategies, in accelerate's order (a number 1–5 names the same one). */
export const shardingStrategies = ['FULL_SHARD', 'SHARD_GRAD_OP', 'NO_SHARD', 'HYBRID_SHARD', 'HYBRID_SHARD_ZERO2'] as const;
export type ShardingStrategy = (typeof shardingStrategies)[number];

/** A strategy as accelerate reads one (name in any case, or its number), else undefined. */
export function shardingStrategyOf(value: unknown): ShardingStrategy | undefined {
  const text = String(value ?? '').trim().toUpperCase();
  if (/^[1-5]$/.test(text)) return shardingStrategies[Number(text) - 1];
  return (shardingStrategies as readonly string[]).includes(text) ? (text as ShardingStrategy) : undefined;
}

/** accelerate's and transformers' `str_to_bool` (utils/environment.py:59-71), for a value written in YAML or JSON. */
export function strToBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = String(value ?? '').toLowerCase();
  if (['y', 'yes', 't', 'true', 'on', '1'].includes(text)) return true;
  if (['n', 'no', 'f', 'false', 'off', '0'].includes(text)) return false;
  return undefined;
}
