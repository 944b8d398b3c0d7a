/**
 * The Hugging Face Trainer's FSDP arguments as `TrainingArguments.__post_init__` reads them (transformers
 * v4.57.6, training_args.py:1915-2043): `--fsdp` is one string of words, `--fsdp_config` a JSON file or inline
 * JSON (`{`…, :1604-1612) whose keys lose an `fsdp_` prefix. ms-swift's `--fsdp` names a file (or its preset) that
 * holds both (`{"fsdp": "…", "fsdp_config": {…}}`, swift/arguments/sft_args.py:284-329).
 */
import type { SourceContext } from '../command/context';
import type { Option } from '../command/options';
import { valueRange } from '../command/options';
import { looksLikePath } from '../deepspeedValue';
import type { FsdpSettings } from '../facts';
import { shardingStrategies, strToBool, swiftFsdpPreset, trainerFsdpName } from './options';

/** One word of `--fsdp`, with its document offsets (the whole value's when it comes from a variable). */
export interface FsdpWord {
  word: string;
  start: number;
  end: number;
}

/** The words of `--fsdp` where they are written; `resolved` is the value with the script's variables put in. */
export function fsdpWords(ctx: SourceContext, option: Option, resolved: string | undefined): FsdpWord[] {
  const range = option.inline ?? (option.values.length ? { start: option.values[0].start, end: option.values[option.values.length - 1].end } : undefined);
  if (!range) return [];
  const text = resolved ?? [option.inline?.text ?? '', ...option.values.map((v) => v.value)].join(' ');
  const raw = ctx.document.getText().slice(range.start, range.end);
  const out: FsdpWord[] = [];
  let cursor = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const at = raw.indexOf(word, cursor);
    if (at < 0) {
      out.push({ word, start: range.start, end: range.end });
      continue;
    }
    out.push({ word, start: range.start + at, end: range.start + at + word.length });
    cursor = at + word.length;
  }
  return out;
}

/** What a `--fsdp_config` (or ms-swift `--fsdp`) value is: inline JSON, a file, or unknown until run. */
export type FsdpConfigValue = { start: number; end: number; text: string } & (
  | { kind: 'inline'; json: Record<string, unknown> | undefined }
  | { kind: 'file'; path: string; candidates: string[] }
  | { kind: 'preset'; name: string }
  | { kind: 'unresolved' }
);

/** Reads a `--fsdp_config` value (or ms-swift's `--fsdp`, where `presets` holds its preset names). */
export function fsdpConfigValue(ctx: SourceContext, option: Option, resolved: string | undefined, presets = false): FsdpConfigValue | undefined {
  const range = valueRange(option);
  if (!range) return undefined;
  const base = { start: range.start, end: range.end, text: resolved ?? '' };
  if (resolved === undefined) return { ...base, kind: 'unresolved' };
  const text = resolved.trim();
  if (presets && swiftFsdpPreset(text)) return { ...base, kind: 'preset', name: text };
  if (text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { ...base, kind: 'inline', json: json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined };
  }
  if (looksLikePath(text) || !presets) return { ...base, kind: 'file', path: text, candidates: ctx.candidates(text) };
  return { ...base, kind: 'unresolved' };
}

/** `fsdp_config` with the Trainer's names (the `fsdp_` prefix dropped), a later spelling winning. */
export function trainerConfigKeys(config: Record<string, unknown> | undefined): Map<string, { written: string; value: unknown }> {
  const out = new Map<string, { written: string; value: unknown }>();
  for (const [written, value] of Object.entries(config ?? {})) out.set(trainerFsdpName(written), { written, value });
  return out;
}

/**
 * How the Trainer runs FSDP from its words and config. The version is what accelerate's plugin reads from
 * `FSDP_VERSION`: 1 unless something sets it (ms-swift sets its config's `fsdp_version`, default 2).
 */
export function trainerFsdpSettings(words: string[], config: Record<string, unknown> | undefined, base: Pick<FsdpSettings, 'via' | 'span'>, version: 1 | 2): FsdpSettings {
  const keys = trainerConfigKeys(config);
  let strategy: FsdpSettings['strategy'] = 'FULL_SHARD';
  // The last strategy word wins: each sets FSDP_SHARDING_STRATEGY in turn (training_args.py:2011-2016).
  for (const word of words) {
    const upper = word.toUpperCase();
    if ((shardingStrategies as readonly string[]).includes(upper)) strategy = upper as FsdpSettings['strategy'];
  }
  const minParams = Number(keys.get('min_num_params')?.value ?? 0);
  const settings: FsdpSettings = {
    ...base,
    version,
    strategy,
    offloadParams: words.includes('offload'),
    autoWrap: words.includes('auto_wrap') ? (minParams > 0 ? 'SIZE_BASED_WRAP' : 'TRANSFORMER_BASED_WRAP') : 'NO_WRAP',
  };
  const checkpointing = keys.get('activation_checkpointing');
  if (checkpointing && strToBool(checkpointing.value) === true) settings.activationCheckpointing = { value: true, span: base.span, via: `fsdp_config.${checkpointing.written}` };
  if (version === 1) settings.useOrigParams = strToBool(keys.get('use_orig_params')?.value ?? true) !== false;
  return settings;
}

/** ms-swift's `--fsdp` file: its words (default `full_shard auto_wrap`) and config; its version (default 2). */
export function swiftFsdpParts(file: Record<string, unknown> | undefined): { words: string[]; config: Record<string, unknown> | undefined; version: 1 | 2 } {
  const config = file?.fsdp_config && typeof file.fsdp_config === 'object' ? (file.fsdp_config as Record<string, unknown>) : undefined;
  const words = String(file?.fsdp ?? 'full_shard auto_wrap').split(/\s+/).filter(Boolean);
  return { words, config, version: String(config?.fsdp_version ?? 2) === '1' ? 1 : 2 };
}
