import { CompletionItemKind, type CompletionItem, type Range } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { ZeroLensSettings } from '../../settings';
import { isConfigFileName } from '../../classify';
import { formatGiB, type EstimateResult } from '../../protocol';
import { relativePath } from '../../util/paths';
import type { LaunchAnalysis } from '../analysis';
import type { LaunchCommand } from '../command/launchCommand';
import { swiftPresetNames, type LaunchFacts } from '../facts';
import { presetProse } from '../swiftPresets';
import { locate } from '../locate';
import { flagTable } from './flagTables';
import { accelerateFlags, type FlagValue } from '../flagDocs';
import { swiftDeepSpeedFlags } from '../launchers/swift';
import { msg, say, translator, type Translate } from '../../l10n';
import { fsdpYamlCompletions } from './fsdpYaml';
import { quotedWhereBoolean } from '../yaml/pyyamlBool';
import { typedYamlValue } from '../yaml/typedValue';
import { yamlScalar } from '../yaml/plainScalar';
import { shellWord } from '../shell/quote';
import { documentedFlagItems, documentedFlags } from './parallelFlags';
import { documentedValueCompletions } from './fsdpScript';

/** ms-swift flags (and config-file keys) that take a preset name, a JSON path or inline JSON. */
const swiftDeepSpeedKeys: string[] = swiftDeepSpeedFlags.map((f) => f.name);

/**
 * Workspace JSON files that look like DeepSpeed configs, relative to the file being edited; once the path typed
 * starts with neither `.` nor `/`, relative to the workspace folder that holds each file instead. LLaMA-Factory's
 * and ms-swift's examples name configs from the repository root, where they are run (`examples/deepspeed/…`), and
 * the editor filters the items by what was typed, so `../deepspeed/…` items matched nothing there.
 */
async function jsonConfigItems(
  hosts: Hosts,
  from: { fileDir: string; folders: string[] },
  range: Range,
  typed: string,
  settings: ZeroLensSettings,
  write: (path: string) => string = (path) => path,
): Promise<CompletionItem[]> {
  const t = translator(settings.locale);
  const files = (await hosts.workspace.jsonFiles()).filter((f) => isConfigFileName(f, settings) || /[\\/](ds_?config|deepspeed|ds)[^\\/]*[\\/][^\\/]+$/i.test(f));
  const fromRoot = typed !== '' && !/^[./\\~]/.test(typed);
  return files.slice(0, 200).map((file, i) => {
    const root = fromRoot ? from.folders.find((folder) => !relativePath(folder, file).startsWith('..')) : undefined;
    let rel = relativePath(root ?? from.fileDir, file);
    if (!root && !rel.startsWith('.')) rel = `./${rel}`;
    return { label: rel, kind: CompletionItemKind.File, detail: t('DeepSpeed config in the workspace'), textEdit: { range, newText: write(rel) }, sortText: `1${String(i).padStart(4, '0')}` };
  });
}

/** The six presets; with `estimates` (one per preset), each shows what this command would need with it. */
function presetItems(range: Range, settings: ZeroLensSettings, estimates: (EstimateResult | undefined)[] = []): CompletionItem[] {
  const t = translator(settings.locale);
  return swiftPresetNames.map((name, i) => {
    const preset = presetProse(name, t);
    const estimate = estimates[i];
    const fit = estimate?.fits === false ? ` ${t('(does not fit)')}` : '';
    return {
      label: name,
      kind: CompletionItemKind.EnumMember,
      detail: estimate ? `≈ ${formatGiB(estimate.perGpu.total)}/GPU${fit} · ${preset.summary}` : preset.summary,
      documentation: { kind: 'markdown', value: `${preset.summary}\n\n${preset.details}` },
      textEdit: { range, newText: name },
      sortText: `0${i}`,
    };
  });
}

/** Per-GPU estimates of a command with each ms-swift preset, in `swiftPresetNames` order (the training layer's). */
export type PresetEstimates = (written: LaunchFacts, settings: ZeroLensSettings) => Promise<(EstimateResult | undefined)[]>;

function flagItems(launch: LaunchCommand, owner: 'launcher' | 'trainer', range: Range, dashes: string, settings: ZeroLensSettings): CompletionItem[] {
  const t = translator(settings.locale);
  const documented = documentedFlags(launch, owner, t);
  const items = documentedFlagItems(documented, range, dashes, t, settings.locale);
  const table = flagTable(launch, owner);
  if (!table) return items;
  return items.concat(Object.entries(table.flags).filter(([name]) => !documented.has(name)).map(([name, doc]) => ({
    label: `--${name}`,
    kind: CompletionItemKind.Property,
    detail: table.program,
    documentation: say(t, doc.doc),
    filterText: `${dashes}${name}`,
    textEdit: { range, newText: `--${name}` },
  })));
}

/** The launch command whose lines hold `offset`, and whether the offset is in the launcher's part. */
function commandAt(analysis: Extract<LaunchAnalysis, { kind: 'script' }>, offset: number): { launch: LaunchCommand; owner: 'launcher' | 'trainer' } | undefined {
  const launch = analysis.commands.find((c) => offset >= c.command.start && offset <= c.command.end + 1);
  if (!launch) return undefined;
  const script = launch.launcher?.script;
  return { launch, owner: launch.launcher && (!script || offset <= script.start) ? 'launcher' : 'trainer' };
}

/**
 * A quoted value without its quotes: the items replace what is between them and keep them, and the editor filters
 * them by the text typed after the opening quote (a range that starts at the quote matches no item).
 */
function insideQuotes<T extends { start: number; end: number }>(text: string, value: T, offset: number): T {
  const quote = text[value.start];
  if ((quote !== '"' && quote !== "'") || offset <= value.start) return value;
  const closed = value.end - 1 > value.start && text[value.end - 1] === quote;
  // One quoted string, closed or still being typed; `"$DS"_x` is left whole.
  if (text.slice(value.start + 1, closed ? value.end - 1 : value.end).includes(quote)) return value;
  if (closed && offset >= value.end) return value;
  return { ...value, start: value.start + 1, end: closed ? value.end - 1 : value.end };
}

export async function scriptCompletions(
  analysis: LaunchAnalysis,
  offset: number,
  hosts: Hosts,
  presetEstimates: PresetEstimates | undefined,
  settings: ZeroLensSettings,
): Promise<CompletionItem[]> {
  if (analysis.kind !== 'script') return yamlCompletions(analysis, offset, hosts, settings);
  const { ctx } = analysis;
  const located = locate(analysis, offset);
  const target = located?.kind === 'value' ? insideQuotes(ctx.document.getText(), located, offset) : located;
  if (target?.kind === 'value') {
    const range = ctx.span(target.start, target.end).range;
    const typed = ctx.document.getText().slice(target.start, offset);
    // Outside quotes the user opened, a path is written as one shell word.
    const write = target === located ? shellWord : undefined;
    const name = target.option.name;
    const trainer = target.launch.trainer;
    if (target.owner === 'trainer' && swiftDeepSpeedKeys.includes(name) && trainer?.kind === 'swift') {
      // Never for --teacher_deepspeed: the teacher is another model.
      const estimates = name === 'deepspeed' && presetEstimates ? await presetEstimates(target.launch.facts, settings) : [];
      return [...presetItems(range, settings, estimates), ...(await jsonConfigItems(hosts, ctx, range, typed, settings, write))];
    }
    if ((target.owner === 'trainer' && (name === 'deepspeed' || name === 'deepspeed_config')) || (target.owner === 'launcher' && name === 'deepspeed_config_file')) {
      return jsonConfigItems(hosts, ctx, range, typed, settings, write);
    }
    const documented = await documentedValueCompletions(ctx, hosts, target, offset, translator(settings.locale), settings.locale, write);
    if (documented) return documented;
    const values = flagTable(target.launch, target.owner)?.flags[name]?.values;
    const t = translator(settings.locale);
    return (values ?? []).map((v, i) => ({ label: v.value, kind: CompletionItemKind.Value, detail: valueDetail(v, t), textEdit: { range, newText: v.value }, sortText: String(i).padStart(3, '0') }));
  }
  // A flag being typed: `-`, `--`, `--deeps`.
  const text = ctx.document.getText();
  const before = text.slice(Math.max(0, offset - 200), offset);
  const typed = /(?:^|[\s])(-{1,2}[A-Za-z0-9_-]*)$/.exec(before);
  if (typed) {
    const at = commandAt(analysis, offset);
    if (!at) return [];
    // The whole flag under the cursor is replaced (as a ds_config key is), not the part before the cursor only.
    const rest = /^[A-Za-z0-9_-]*/.exec(text.slice(offset))![0];
    const range = ctx.span(offset - typed[1].length, offset + rest.length).range;
    return flagItems(at.launch, at.owner, range, typed[1].startsWith('--') ? '--' : '-', settings);
  }
  return [];
}

/** What a value means, in the reader's language, when the table says. */
const valueDetail = (value: FlagValue, t: Translate): string | undefined => (value.doc ? say(t, value.doc) : undefined);

const yamlValueKeys: Record<string, FlagValue[] | undefined> = {
  zero_stage: accelerateFlags.zero_stage.values,
  offload_optimizer_device: accelerateFlags.offload_optimizer_device.values,
  offload_param_device: accelerateFlags.offload_param_device.values,
  zero3_init_flag: accelerateFlags.zero3_init_flag.values,
  mixed_precision: accelerateFlags.mixed_precision.values,
  distributed_type: [{ value: 'DEEPSPEED', doc: msg('DeepSpeed (deepspeed_config section)') }],
  finetuning_type: ['lora', 'oft', 'freeze', 'full'].map((v) => ({ value: v })),
};

async function yamlCompletions(analysis: Extract<LaunchAnalysis, { kind: 'yaml' }>, offset: number, hosts: Hosts, settings: ZeroLensSettings): Promise<CompletionItem[]> {
  const { ctx } = analysis;
  const fsdp = fsdpYamlCompletions(ctx, analysis.yaml, offset, translator(settings.locale), settings.locale);
  if (fsdp) return fsdp;
  const text = ctx.document.getText();
  const value = typedYamlValue(text, offset);
  if (!value) return [];
  const range = ctx.span(value.start, value.end).range;
  // Outside quotes the user opened, a path is written as one YAML value.
  const write = value.quoted ? undefined : yamlScalar;
  if (swiftDeepSpeedKeys.includes(value.key) && analysis.yaml?.kind === 'swift-yaml') {
    return [...presetItems(range, settings), ...(await jsonConfigItems(hosts, ctx, range, value.typed, settings, write))];
  }
  if (value.key === 'deepspeed' || value.key === 'deepspeed_config_file') return jsonConfigItems(hosts, ctx, range, value.typed, settings, write);
  const t = translator(settings.locale);
  return (yamlValueKeys[value.key] ?? []).map((v) => {
    // mixed_precision: no unquoted is False to the launcher; inside quotes it is the string already.
    const written = value.quoted ? v.value : quotedWhereBoolean(v.value);
    return { label: written, kind: CompletionItemKind.Value, detail: valueDetail(v, t), textEdit: { range, newText: written } };
  });
}
