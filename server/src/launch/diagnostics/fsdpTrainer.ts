/**
 * The Hugging Face Trainer's `--fsdp` and `--fsdp_config`, and ms-swift's `--fsdp`, checked as
 * `TrainingArguments.__post_init__` (transformers v4.57.6) and ms-swift's `_init_fsdp` (3602360a) read them. Each
 * error links the line that raises.
 */
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { textOf, type Hosts } from '../../host';
import { joinList, type Translate } from '../../l10n';
import { isAbsolutePath } from '../../util/paths';
import type { SourceContext } from '../command/context';
import type { LaunchCommand, TrainerPart } from '../command/launchCommand';
import { lastOption, optionExtent } from '../command/options';
import { OptionReader } from '../launchers/trainerArgs';
import { ScriptEditor } from '../edits/textEdits';
import type { FixSpec } from '../../diagnostics/fixData';
import { launchDiagnostic } from './launchDiagnostic';
import { closest } from '../fsdp/closest';
import { swiftFsdpOption, trainerFsdpConfigOptions, trainerFsdpWords } from '../fsdp/options';
import { fsdpConfigValue, fsdpWords, swiftFsdpParts, trainerConfigKeys, type FsdpConfigValue, type FsdpWord } from '../fsdp/trainerFsdp';
import { firstExisting } from './deepspeedReference';
import { raises } from '../upstream';
import { checkpointingTwice } from './fsdpLaunch';
import { strToBool, swiftOwnFsdpConfigKeys } from '../fsdp/options';

export interface Check {
  ctx: SourceContext;
  editor: ScriptEditor;
  t: Translate;
  out: Diagnostic[];
}

/**
 * The words of `--fsdp` (or of an ms-swift file's `"fsdp"`): unknown ones, offload alone, two strategies, offload
 * with no_shard. `quoted`: the words are inside quotes, so a word can be added where they are written.
 */
export function checkWords(c: Check, words: FsdpWord[], quoted: boolean): void {
  const { ctx, t, out, editor } = c;
  const known = trainerFsdpWords().values?.map(String) ?? [];
  for (const w of words) {
    if (known.includes(w.word)) continue;
    const suggestion = closest(w.word, known);
    const fixes: FixSpec[] = suggestion ? [{ id: 'change-value', title: t('Change to {0}', suggestion), ops: [editor.replace(w.start, w.end, suggestion)], preferred: true }] : [];
    const message = t('`{0}` is not an FSDP option of the Trainer ({1}): `TrainingArguments` raises ValueError.', w.word, joinList(t, known));
    out.push(launchDiagnostic(ctx, 'fsdp-invalid-value', w.start, w.end, message, { fixes }, { raises: raises.trainerUnknownWord }));
  }
  const names = words.map((w) => w.word);
  const offload = words.find((w) => w.word === 'offload');
  if (offload && names.every((n) => n === 'offload')) {
    const op = quoted ? editor.insert(offload.start, 'full_shard ') : editor.replace(offload.start, offload.end, '"full_shard offload"');
    const message = t('`--fsdp offload` needs a sharding strategy beside it (`full_shard` or `shard_grad_op`): `TrainingArguments` raises ValueError.');
    out.push(launchDiagnostic(ctx, 'fsdp-offload-without-sharding', offload.start, offload.end, message, { fixes: [{ id: 'change-value', title: t('Add {0}', 'full_shard'), ops: [op], preferred: true }] }, { severity: DiagnosticSeverity.Error, raises: raises.trainerOffloadAlone }));
  } else if (offload && names.includes('no_shard')) {
    out.push(launchDiagnostic(ctx, 'fsdp-offload-without-sharding', offload.start, offload.end, t('CPU offload with NO_SHARD: nothing is sharded, so every process keeps and moves a whole copy of the parameters and gradients in CPU RAM. Offload is meant for FULL_SHARD or SHARD_GRAD_OP.')));
  }
  const gradOp = words.find((w) => w.word === 'shard_grad_op');
  if (gradOp && names.includes('full_shard')) {
    const fixes: FixSpec[] = [{ id: 'change-value', title: t('Remove `{0}`', 'shard_grad_op'), ops: [editor.replace(gradOp.start - 1, gradOp.end, '')] }];
    out.push(launchDiagnostic(ctx, 'fsdp-conflicting-options', gradOp.start, gradOp.end, t('`full_shard` and `shard_grad_op` are two strategies: the Trainer takes one and raises ValueError for both.'), { fixes }, { raises: raises.trainerFullAndGradOp }));
  }
}

/** Python's `str(value).lower()` of a JSON value, as the Trainer compares its FSDP config strings. */
function pyLower(value: unknown): string {
  // Python's str(True).lower() is "true", as String(true) is.
  return String(value).toLowerCase();
}

/** A range of the document a finding is shown on. */
type At = { start: number; end: number };

/**
 * Where the findings about an FSDP config's keys are shown: in a script, all on the value that names the config
 * (no fixes: the keys are in another file); in the config file itself, each on its key, with the fix that renames it.
 */
export interface ConfigPlaces {
  key(written: string): At;
  rename?(written: string, to: string): FixSpec[];
}

/** Every finding on the value that names the config. */
function onValue(at: At): ConfigPlaces {
  return { key: () => at };
}

/**
 * The keys of a Trainer FSDP config: unknown ones, two wrapping policies, RAM-efficient loading without sync.
 * `alsoRead`: keys the program around the Trainer reads itself (ms-swift's), so they are not unknown.
 */
export function checkConfig(c: Check, config: Record<string, unknown>, places: ConfigPlaces, hasFsdp: boolean, alsoRead: ReadonlySet<string> = new Set()): void {
  const { ctx, t, out } = c;
  const keys = trainerConfigKeys(config);
  const options = trainerFsdpConfigOptions();
  for (const [name, { written }] of keys) {
    if (options.has(name) || name === 'version' || alsoRead.has(name)) continue;
    const suggestion = closest(name, options.keys());
    const message = suggestion ? t('The Trainer does not read `{0}` in its FSDP config, so it is ignored. Did you mean `{1}`?', written, suggestion) : t('The Trainer does not read `{0}` in its FSDP config, so it is ignored.', written);
    const at = places.key(written);
    // The same spelling as written: with the `fsdp_` prefix if it had one (the Trainer drops it).
    const fixes = suggestion && places.rename ? places.rename(written, written.startsWith('fsdp_') ? `fsdp_${suggestion}` : suggestion) : [];
    out.push(launchDiagnostic(ctx, 'fsdp-unknown-key', at.start, at.end, message, { key: written, ...(fixes.length && { fixes }) }));
  }
  const wrapClasses = keys.get('transformer_layer_cls_to_wrap');
  if (hasFsdp && Number(keys.get('min_num_params')?.value ?? 0) > 0 && wrapClasses?.value != null) {
    const at = places.key(wrapClasses.written);
    out.push(launchDiagnostic(ctx, 'fsdp-conflicting-options', at.start, at.end, t('The FSDP config sets both `min_num_params` and `transformer_layer_cls_to_wrap`, two wrapping policies: the Trainer raises ValueError.'), {}, { raises: raises.trainerWrapExclusive }));
  }
  const sync = pyLower(keys.get('sync_module_states')?.value ?? 'true');
  const ram = keys.get('cpu_ram_efficient_loading');
  if (hasFsdp && sync === 'false' && ram && pyLower(ram.value) === 'true') {
    const at = places.key(ram.written);
    out.push(launchDiagnostic(ctx, 'fsdp-ram-efficient-loading-without-sync', at.start, at.end, t('The FSDP config turns `cpu_ram_efficient_loading` on and `sync_module_states` off: the Trainer raises ValueError, since only rank 0 loads the weights.'), {}, { raises: raises.trainerRamEfficientNeedsSync }));
  }
}

/**
 * Keys of an FSDP config that the version ms-swift sets (`fsdp_version`, default 2, exported as FSDP_VERSION)
 * does not read: FSDP1's prefetch, `use_orig_params` and `limit_all_gathers` under FSDP2 (accelerate drops or
 * ignores them), FSDP2's `reshard_after_forward` under FSDP1 (the strategy words of `fsdp` decide).
 */
export function checkVersion(c: Check, config: Record<string, unknown>, version: 1 | 2, places: ConfigPlaces): void {
  const { ctx, t, out } = c;
  const options = trainerFsdpConfigOptions();
  for (const [name, { written }] of trainerConfigKeys(config)) {
    const versions = options.get(name)?.meta.versions;
    if (!versions || versions.includes(version)) continue;
    const message = version === 2
      ? t('`{0}` is an FSDP1 option and this FSDP config runs FSDP2 (`fsdp_version` {1}), so it has no effect.', written, version)
      : t('`{0}` is read by FSDP2 only and this FSDP config runs FSDP1 (`fsdp_version` {1}): the strategy words of `fsdp` decide how it shards.', written, version);
    const severity = version === 2 ? DiagnosticSeverity.Information : DiagnosticSeverity.Warning;
    const at = places.key(written);
    out.push(launchDiagnostic(ctx, 'fsdp-ignored-by-version', at.start, at.end, message, { key: written, version }, { severity }));
  }
}

/** The JSON a config value holds: inline, a preset, or read from the first file that exists. */
async function configJson(hosts: Hosts, value: FsdpConfigValue, preset: (name: string) => unknown): Promise<{ json?: Record<string, unknown>; found: boolean; file?: string }> {
  if (value.kind === 'inline') return { json: value.json, found: true };
  if (value.kind === 'preset') return { json: preset(value.name) as Record<string, unknown>, found: true };
  if (value.kind !== 'file') return { found: true };
  const file = await firstExisting(hosts.fs, value.candidates);
  if (!file) return { found: false };
  const text = await hosts.fs.readFile(file, 'config').then(textOf, () => undefined);
  try {
    const json = text === undefined ? undefined : (JSON.parse(text) as unknown);
    return { json: json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined, found: true, file };
  } catch {
    return { found: true, file };
  }
}

function notFound(c: Check, value: FsdpConfigValue & { kind: 'file' }, message: string, raises: string, fixes: FixSpec[] = []): void {
  // A relative path is opened from the working directory, which the script does not fix.
  const severity = isAbsolutePath(value.path) ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning;
  c.out.push(launchDiagnostic(c.ctx, 'fsdp-config-not-found', value.start, value.end, message, { path: value.path, candidates: value.candidates, fixes }, { severity, raises }));
}

/** `python train.py --fsdp … --fsdp_config …` (the HF Trainer). */
async function hfTrainer(c: Check, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart): Promise<void> {
  const { ctx, t, out, editor } = c;
  const reader = new OptionReader(ctx, launch.env, trainer.parsed);
  const fsdp = reader.option('fsdp');
  const words = fsdp ? fsdpWords(ctx, fsdp, reader.text(fsdp)) : [];
  const hasFsdp = words.length > 0;
  if (fsdp) checkWords(c, words, fsdp.values[0]?.quoted || fsdp.inline !== undefined);
  const ds = reader.option('deepspeed');
  if (fsdp && hasFsdp && ds && (ds.inline || ds.values.length > 0)) {
    const fsdpExtent = optionExtent(fsdp);
    const dsExtent = optionExtent(ds);
    // A title names all it removes: the flag and its value (`--deepspeed ds_config.json`).
    const written = (e: { start: number; end: number }) => ctx.document.getText().slice(e.start, e.end).replace(/\s*\\\r?\n\s*/g, ' ').trim();
    const fixes: FixSpec[] = [
      { id: 'remove-flag', title: t('Remove `{0}`', written(fsdpExtent)), ops: [editor.removeWords(fsdpExtent.start, fsdpExtent.end)] },
      { id: 'remove-flag', title: t('Remove `{0}`', written(dsExtent)), ops: [editor.removeWords(dsExtent.start, dsExtent.end)] },
    ];
    const message = t('`--fsdp` and `--deepspeed` cannot be used together: the Trainer raises ValueError ("Using --fsdp xxx together with --deepspeed is not possible"). Keep one of them.');
    out.push(launchDiagnostic(ctx, 'fsdp-with-deepspeed', fsdp.nameStart, fsdpExtent.end, message, { fixes }, { raises: raises.trainerDeepSpeedAndFsdp }));
  }
  const configOption = reader.option('fsdp_config');
  if (!configOption) return;
  const value = fsdpConfigValue(ctx, configOption, reader.text(configOption));
  if (!value) return;
  if (!hasFsdp) {
    out.push(launchDiagnostic(ctx, 'fsdp-config-without-fsdp', configOption.nameStart, configOption.nameEnd, t('`--fsdp_config` does nothing without `--fsdp`: the Trainer only warns and trains without FSDP.')));
  }
  if (value.kind === 'inline' && !value.json) {
    out.push(launchDiagnostic(ctx, 'fsdp-invalid-value', value.start, value.end, t('The inline `--fsdp_config` is not valid JSON: the Trainer reads it with `json.loads`, which raises.'), {}, { raises: raises.trainerInlineJson }));
    return;
  }
  const read = await configJson(hosts, value, () => undefined);
  if (value.kind === 'file' && !read.found) {
    notFound(c, value, t("`--fsdp_config` names '{0}', which is not found next to this script or in the workspace: the Trainer opens it at start and fails unless it runs where the file is.", value.path), raises.trainerConfigFile);
    return;
  }
  if (!read.json) return;
  checkConfig(c, read.json, onValue(value), hasFsdp);
  // The Trainer copies the config's activation_checkpointing onto the plugin, then refuses it beside its own.
  const checkpointing = trainerConfigKeys(read.json).get('activation_checkpointing');
  if (hasFsdp && checkpointing && strToBool(checkpointing.value) === true) {
    const twice = checkpointingTwice(ctx, launch, configOption.written, t);
    if (twice) out.push(twice);
  }
}

/** ms-swift's `--fsdp`: its preset, or a file (or inline JSON) holding `fsdp` and `fsdp_config`. */
async function swiftTrainer(c: Check, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart): Promise<void> {
  const { ctx, t, out, editor } = c;
  const reader = new OptionReader(ctx, launch.env, trainer.parsed);
  const option = lastOption(trainer.parsed, 'fsdp');
  if (!option) return;
  const value = fsdpConfigValue(ctx, option, reader.text(option), true);
  if (!value || value.kind === 'unresolved') {
    if (value?.text && !value.text.includes('$')) {
      const presets = swiftFsdpOption().values?.map(String) ?? [];
      const suggestion = closest(value.text, presets);
      const fixes: FixSpec[] = suggestion ? [{ id: 'change-value', title: t('Change to {0}', suggestion), ops: [editor.replace(value.start, value.end, suggestion)], preferred: true }] : [];
      const message = t("`--fsdp` is neither ms-swift's preset ({0}) nor a JSON file or inline JSON ('{1}'): ms-swift parses it as JSON and fails.", joinList(t, presets), value.text);
      out.push(launchDiagnostic(ctx, 'fsdp-config-not-found', value.start, value.end, message, { fixes }, { raises: raises.swiftFsdpFile }));
    }
    return;
  }
  const read = await configJson(hosts, value, (name) => swiftFsdpOption().meta.presets?.[name]);
  if (value.kind === 'file' && !read.found) {
    notFound(c, value, t("`--fsdp` names '{0}', which is not found next to this script or in the workspace: ms-swift then parses the text as JSON and fails unless it runs where the file is.", value.path), raises.swiftFsdpFile);
    return;
  }
  if (!read.json) return;
  const parts = swiftFsdpParts(read.json);
  const words = parts.words.map((word) => ({ word, start: value.start, end: value.end }));
  // Words come from the file: report them where the script names it, without fixes that would edit the value.
  const wordChecks: Diagnostic[] = [];
  checkWords({ ...c, out: wordChecks }, words, false);
  out.push(...wordChecks.map((d) => ({ ...d, data: { ...(d.data as object), fixes: [] } })));
  checkConfig(c, parts.config ?? {}, onValue(value), true, swiftOwnFsdpConfigKeys);
  checkVersion(c, parts.config ?? {}, parts.version, onValue(value));
  const saveOnly = reader.bool('save_only_model');
  const stateDict = String(parts.config?.state_dict_type ?? 'SHARDED_STATE_DICT').toUpperCase();
  if (saveOnly?.value && stateDict.includes('SHARDED')) {
    const message = t('`--save_only_model true` with an FSDP config that saves SHARDED_STATE_DICT (ms-swift\'s default): ms-swift raises ValueError. Set `state_dict_type` to FULL_STATE_DICT in the FSDP config, or save the whole state.');
    out.push(launchDiagnostic(ctx, 'fsdp-conflicting-options', saveOnly.span.start, saveOnly.span.end, message, {}, { raises: raises.swiftSaveOnlyModelSharded }));
  }
}

/** Every check of a command's Trainer or ms-swift FSDP arguments. */
export async function fsdpTrainerDiagnostics(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, t: Translate): Promise<Diagnostic[]> {
  const trainer = launch.trainer;
  if (!trainer) return [];
  const c: Check = { ctx, editor: new ScriptEditor(ctx), t, out: [] };
  if (trainer.kind === 'python') await hfTrainer(c, hosts, launch, trainer);
  else if (trainer.kind === 'swift') await swiftTrainer(c, hosts, launch, trainer);
  return c.out;
}
