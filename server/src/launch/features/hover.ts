import type { Hover } from 'vscode-languageserver-types';
import type { FileSystemHost } from '../../host';
import { baseName, pathOf } from '../../util/paths';
import { markdownCode, markdownText } from '../../util/markdown';
import { builtConfigPath, configName } from '../../protocol';
import type { LaunchAnalysis } from '../analysis';
import type { DeepSpeedReference } from '../facts';
import { presetAutoKeys, presetProse, swiftPresets } from '../swiftPresets';
import { effectiveFacts, type FactsOfFile } from '../references';
import { firstExisting } from '../diagnostics/deepspeedReference';
import { locate } from '../locate';
import { flagTable } from './flagTables';
import { accelerateFlags, llamaFactoryKeys, swiftFlags } from '../flagDocs';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import type { SourceContext } from '../command/context';
import { joinList, say, translator, type Locale, type Translate } from '../../l10n';
import { fsdpYamlHover } from './fsdpYaml';
import { documentedFlagHover, documentedFlags } from './parallelFlags';
import { fsdpValueHover } from './fsdpScript';

/**
 * One line on what the preset is, the rest folded: the memory table follows this in the hover (the facade joins
 * them), and a hover taller than the space beside the line shows its top and scrolls the rest.
 */
function presetMarkdown(name: keyof typeof swiftPresets, t: Translate): string {
  const p = swiftPresets[name];
  const prose = presetProse(name, t);
  const offload = (d: string) => (d === 'none' ? '–' : `**${d}** (pinned)`);
  return [
    `**${t('ms-swift preset {0}', `\`${name}\``)}** — ${prose.summary}`,
    '',
    `<details><summary>${t('What the preset sets, and its JSON ({0})', `swift/config/${name}.json`)}</summary>`,
    '',
    '| stage | offload_optimizer | offload_param |',
    '|:-:|:-:|:-:|',
    `| ${p.stage} | ${p.stage === 0 ? '–' : offload(p.offloadOptimizer)} | ${p.stage === 3 ? offload(p.offloadParam) : '–'} |`,
    '',
    prose.details,
    '',
    t('"auto" (filled by the Hugging Face Trainer from the arguments): {0}.', joinList(t, presetAutoKeys.map((k) => `\`${k}\``))),
    '',
    '```json',
    p.json.trimEnd(),
    '```',
    '</details>',
  ].join('\n');
}

/**
 * `inYaml`: the reference is a launcher YAML's value (`deepspeed: '{…}'`), not a command-line argument.
 * `lineOf`: the 1-based line of an offset of the script being hovered (where a here-document writes the config).
 */
async function referenceMarkdown(fs: FileSystemHost, ref: DeepSpeedReference, inYaml: boolean, t: Translate, lineOf: (offset: number) => number): Promise<string> {
  switch (ref.kind) {
    case 'preset':
      return presetMarkdown(ref.name, t);
    case 'file': {
      const found = await firstExisting(fs, ref.candidates);
      if (found) return `**${t('DeepSpeed config')}** ${markdownCode(ref.path)} → ${markdownCode(found)}`;
      // The script writes the file before it launches: the launch reads that text, so it is not missing.
      if (ref.written) return `**${t('DeepSpeed config')}** ${markdownCode(ref.path)}${t(', written by this script (here-document, lines {0}–{1})', lineOf(ref.written.start), lineOf(Math.max(ref.written.start, ref.written.end - 1)))}`;
      return `**${t('DeepSpeed config')}** ${markdownCode(ref.path)} ${t('(not found)')}`;
    }
    case 'inline':
      if (ref.mapping) return t('**DeepSpeed config** written as a YAML mapping under {0}; ms-swift passes it on as JSON (swift/cli/main.py:66-67, json.dumps)', markdownCode(`${ref.via}:`));
      // What ms-swift reads after json_repair, so the reader sees the config the estimate is made for.
      return ref.repairedJson === undefined
        ? inYaml
          ? t('**Inline DeepSpeed config** (JSON in the value of {0})', markdownCode(`${ref.via}:`))
          : t('**Inline DeepSpeed config** (JSON in the argument)')
        : t('**Inline DeepSpeed config**, not valid JSON: ms-swift repairs it and reads {0}', markdownCode(ref.repairedJson));
    case 'settings':
      // A config the program builds from flags is named so: "--zero_stage 2 --offload (DeepSpeed-Chat builds the config)".
      return t('**DeepSpeed via {0}**: ZeRO-{1}, optimizer offload {2}, parameter offload {3}', markdownText(ref.builtBy ? configName(builtConfigPath(ref.flags!, ref.builtBy), t) : ref.via), ref.stage ?? 2, markdownText(String(ref.offloadOptimizer ?? 'none')), markdownText(String(ref.offloadParam ?? 'none')));
    default:
      return t('{0} is not a DeepSpeed preset or file ZeRO Lens can read.', markdownCode(ref.text));
  }
}

function teacherNote(t: Translate): string {
  return t("**Teacher model's DeepSpeed config** (ms-swift `--teacher_deepspeed`, GKD and GRPO distillation): the frozen teacher is prepared with it instead of `--deepspeed` (swift/rlhf_trainers/rollout_mixin.py:231-244). Below ZeRO-3 ms-swift runs the teacher at stage 0, a whole copy on every GPU (rlhf_trainers/utils.py:360-361). The memory estimate on `--deepspeed` counts the teacher under \"other models\": a whole 16-bit copy below ZeRO-3, 1/N of it under ZeRO-3, none on the GPU with `zero3_offload`; the options it compares are the trained model's.");
}

/**
 * What a reference to a DeepSpeed config, a flag or a launcher-YAML key means. The memory table for a
 * reference is the training layer's (estimates/launchEstimates.ts), joined to this hover by the facade.
 */
export async function launchHover(analysis: LaunchAnalysis, offset: number, fs: FileSystemHost, factsOfFile: FactsOfFile, locale?: Locale): Promise<Hover | null> {
  const { ctx } = analysis;
  const t = translator(locale);
  const all = analysis.kind === 'script' ? analysis.commands.map((c) => c.facts) : analysis.yaml ? [analysis.yaml.facts] : [];
  const at = (s: { start: number; end: number } | undefined) => !!s && s.start < s.end && offset >= s.start && offset <= s.end;
  // A script's reference from another document comes from the ms-swift YAML it names (`swift sft x.yaml`).
  const inYaml = (ref: DeepSpeedReference) => analysis.kind === 'yaml' || ref.span.uri !== ctx.uri;
  const lineOf = (offset: number) => ctx.document.positionAt(offset).line + 1;
  // The teacher's config: what it contains, but no memory table (that is the trained model's).
  for (const written of all) {
    const ref = written.teacherDeepspeed;
    if (ref && at(ref.span)) return { contents: { kind: 'markdown', value: `${teacherNote(t)}\n\n---\n\n${await referenceMarkdown(fs, ref, inYaml(ref), t, lineOf)}` }, range: ref.span.range };
  }
  // The DeepSpeed reference itself: what it contains (its own, or the one of the config file the command names).
  for (const written of all) {
    const anchor = written.deepspeed ? written.deepspeed.span : written.configFile?.span;
    if (!at(anchor)) continue;
    const ref = (await effectiveFacts(written, factsOfFile))?.deepspeed;
    if (!ref) continue;
    let markdown = await referenceMarkdown(fs, ref, inYaml(ref), t, lineOf);
    if (ref.span.uri !== written.uri) markdown += ` _${t('(from {0})', markdownText(baseName(pathOf(ref.span.uri))))}_`;
    return { contents: { kind: 'markdown', value: markdown }, range: anchor!.range };
  }
  if (analysis.kind !== 'script') return analysis.yaml ? (fsdpYamlHover(ctx, analysis.yaml, offset, t, locale) ?? yamlKeyHover(analysis.yaml, offset, ctx, t)) : null;
  const target = locate(analysis, offset);
  if (target?.kind === 'value') return fsdpValueHover(ctx, target, offset, t, locale);
  if (target?.kind !== 'name') return null;
  const documented = documentedFlags(target.launch, target.owner, t).get(target.option.name);
  if (documented) return documentedFlagHover(ctx, documented, target.option, t, locale);
  const table = flagTable(target.launch, target.owner);
  const doc = table?.flags[target.option.name];
  if (!doc) return null;
  return {
    contents: { kind: 'markdown', value: `**${markdownText(target.option.written)}** (${table!.program})\n\n${say(t, doc.doc)}` },
    range: ctx.span(target.option.nameStart, target.option.nameEnd).range,
  };
}

/** Keys of launcher YAML: the same documentation as the matching command-line flag. */
function yamlKeyHover(yaml: YamlLaunch, offset: number, ctx: SourceContext, t: Translate): Hover | null {
  const table = yaml.kind === 'accelerate-yaml' ? accelerateFlags : yaml.kind === 'swift-yaml' ? swiftFlags : llamaFactoryKeys;
  for (const entry of [...yaml.top.values(), ...yaml.deepspeedConfig.values()]) {
    if (offset < entry.keyStart || offset > entry.keyEnd) continue;
    const doc = table[entry.key];
    if (!doc) return null;
    const values = doc.values?.length ? `\n\n${t('Values: {0}', joinList(t, doc.values.map((v) => `\`${v.value}\``)))}` : '';
    return { contents: { kind: 'markdown', value: `**${markdownText(entry.key)}**\n\n${say(t, doc.doc)}${values}` }, range: ctx.span(entry.keyStart, entry.keyEnd).range };
  }
  return null;
}
