import type { Hover } from 'vscode-languageserver-types';
import type { FileSystemHost } from '../../host';
import { baseName, pathOf } from '../../util/paths';
import { markdownCode, markdownText } from '../../util/markdown';
import type { LaunchAnalysis } from '../analysis';
import type { DeepSpeedReference } from '../facts';
import { presetAutoKeys, swiftPresets } from '../swiftPresets';
import { effectiveFacts, type FactsOfFile } from '../references';
import { firstExisting } from '../diagnostics/deepspeedReference';
import { locate } from '../locate';
import { flagTable } from './flagTables';
import { accelerateFlags, llamaFactoryKeys, swiftFlags } from '../flagDocs';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import type { SourceContext } from '../command/context';
import { translator, type Locale } from '../../l10n';
import { fsdpYamlHover } from './fsdpYaml';

function presetMarkdown(name: keyof typeof swiftPresets): string {
  const p = swiftPresets[name];
  const offload = (d: string) => (d === 'none' ? '–' : `**${d}** (pinned)`);
  return [
    `**ms-swift preset \`${name}\`** — ${p.summary}`,
    '',
    '| stage | offload_optimizer | offload_param |',
    '|:-:|:-:|:-:|',
    `| ${p.stage} | ${p.stage === 0 ? '–' : offload(p.offloadOptimizer)} | ${p.stage === 3 ? offload(p.offloadParam) : '–'} |`,
    '',
    p.details,
    '',
    `"auto" (filled by the HF Trainer from the arguments): ${presetAutoKeys.map((k) => `\`${k}\``).join(', ')}.`,
    '',
    '<details><summary>Preset JSON (swift/config/' + name + '.json)</summary>',
    '',
    '```json',
    p.json.trimEnd(),
    '```',
    '</details>',
  ].join('\n');
}

/** `inYaml`: the reference is a launcher YAML's value (`deepspeed: '{…}'`), not a command-line argument. */
async function referenceMarkdown(fs: FileSystemHost, ref: DeepSpeedReference, inYaml: boolean): Promise<string> {
  switch (ref.kind) {
    case 'preset':
      return presetMarkdown(ref.name);
    case 'file': {
      const found = await firstExisting(fs, ref.candidates);
      return found ? `**DeepSpeed config** ${markdownCode(ref.path)} → ${markdownCode(found)}` : `**DeepSpeed config** ${markdownCode(ref.path)} (not found)`;
    }
    case 'inline':
      if (ref.mapping) return `**DeepSpeed config** written as a YAML mapping under ${markdownCode(`${ref.via}:`)}; ms-swift passes it on as JSON (swift/cli/main.py:66-67, json.dumps)`;
      // What ms-swift reads after json_repair, so the reader sees the config the estimate is made for.
      return ref.repairedJson === undefined
        ? `**Inline DeepSpeed config** (JSON in ${inYaml ? `the value of ${markdownCode(`${ref.via}:`)}` : 'the argument'})`
        : `**Inline DeepSpeed config**, not valid JSON: ms-swift repairs it and reads ${markdownCode(ref.repairedJson)}`;
    case 'settings':
      return `**DeepSpeed via ${markdownText(ref.via)}**: ZeRO-${ref.stage ?? 2}, optimizer offload ${markdownText(String(ref.offloadOptimizer ?? 'none'))}, parameter offload ${markdownText(String(ref.offloadParam ?? 'none'))}`;
    default:
      return `${markdownCode(ref.text)} is not a DeepSpeed preset or file ZeRO Lens can read.`;
  }
}

const teacherNote = [
  "**Teacher model's DeepSpeed config** (ms-swift `--teacher_deepspeed`, GKD and GRPO distillation): the frozen teacher",
  'is prepared with it instead of `--deepspeed` (swift/rlhf_trainers/rollout_mixin.py:231-244). Below ZeRO-3 ms-swift',
  'runs the teacher at stage 0, a whole copy on every GPU (rlhf_trainers/utils.py:360-361). The memory estimate on',
  '`--deepspeed` counts the teacher under "other models": a whole 16-bit copy below ZeRO-3, 1/N of it under ZeRO-3,',
  'none on the GPU with `zero3_offload`; the options it compares are the trained model\'s.',
].join(' ');

/**
 * What a reference to a DeepSpeed config, a flag or a launcher-YAML key means. The memory table for a
 * reference is the training layer's (estimates/launchEstimates.ts), joined to this hover by the facade.
 */
export async function launchHover(analysis: LaunchAnalysis, offset: number, fs: FileSystemHost, factsOfFile: FactsOfFile, locale?: Locale): Promise<Hover | null> {
  const { ctx } = analysis;
  const all = analysis.kind === 'script' ? analysis.commands.map((c) => c.facts) : analysis.yaml ? [analysis.yaml.facts] : [];
  const at = (s: { start: number; end: number } | undefined) => !!s && s.start < s.end && offset >= s.start && offset <= s.end;
  // A script's reference from another document comes from the ms-swift YAML it names (`swift sft x.yaml`).
  const inYaml = (ref: DeepSpeedReference) => analysis.kind === 'yaml' || ref.span.uri !== ctx.uri;
  // The teacher's config: what it contains, but no memory table (that is the trained model's).
  for (const written of all) {
    const ref = written.teacherDeepspeed;
    if (ref && at(ref.span)) return { contents: { kind: 'markdown', value: `${teacherNote}\n\n---\n\n${await referenceMarkdown(fs, ref, inYaml(ref))}` }, range: ref.span.range };
  }
  // The DeepSpeed reference itself: what it contains (its own, or the one of the config file the command names).
  for (const written of all) {
    const anchor = written.deepspeed ? written.deepspeed.span : written.configFile?.span;
    if (!at(anchor)) continue;
    const ref = (await effectiveFacts(written, factsOfFile))?.deepspeed;
    if (!ref) continue;
    let markdown = await referenceMarkdown(fs, ref, inYaml(ref));
    if (ref.span.uri !== written.uri) markdown += ` _(from ${markdownText(baseName(pathOf(ref.span.uri)))})_`;
    return { contents: { kind: 'markdown', value: markdown }, range: anchor!.range };
  }
  if (analysis.kind !== 'script') return analysis.yaml ? (fsdpYamlHover(ctx, analysis.yaml, offset, translator(locale), locale) ?? yamlKeyHover(analysis.yaml, offset, ctx)) : null;
  const target = locate(analysis, offset);
  if (target?.kind !== 'name') return null;
  const table = flagTable(target.launch, target.owner);
  const doc = table?.flags[target.option.name];
  if (!doc) return null;
  return {
    contents: { kind: 'markdown', value: `**${markdownText(target.option.written)}** (${table!.program})\n\n${doc.doc}` },
    range: ctx.span(target.option.nameStart, target.option.nameEnd).range,
  };
}

/** Keys of launcher YAML: the same documentation as the matching command-line flag. */
function yamlKeyHover(yaml: YamlLaunch, offset: number, ctx: SourceContext): Hover | null {
  const table = yaml.kind === 'accelerate-yaml' ? accelerateFlags : yaml.kind === 'swift-yaml' ? swiftFlags : llamaFactoryKeys;
  for (const entry of [...yaml.top.values(), ...yaml.deepspeedConfig.values()]) {
    if (offset < entry.keyStart || offset > entry.keyEnd) continue;
    const doc = table[entry.key];
    if (!doc) return null;
    const values = doc.values?.length ? `\n\nValues: ${doc.values.map((v) => `\`${v.value}\``).join(', ')}` : '';
    return { contents: { kind: 'markdown', value: `**${markdownText(entry.key)}**\n\n${doc.doc}${values}` }, range: ctx.span(entry.keyStart, entry.keyEnd).range };
  }
  return null;
}
