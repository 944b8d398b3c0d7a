import type { TextDocument } from 'vscode-languageserver-textdocument';
import { InlayHintKind, type CodeAction, type Diagnostic, type InlayHint, type Range } from 'vscode-languageserver-types';
import type { FeatureContributor } from '../feature';
import { unlimited } from '../util/budget';
import type { ZeroLensSettings } from '../settings';
import { configName, formatGiB, type EstimateResult } from '../protocol';
import { translator } from '../l10n';
import { swiftPresetNames, type LaunchFacts, type SwiftPresetName } from '../launch/facts';
import { launchDiagnostic } from '../launch/diagnostics/launchDiagnostic';
import { dataFixActions, quickFixActions } from '../diagnostics/fixActions';
import { originOf, type FixSpec } from '../diagnostics/fixData';
import { replaceText } from '../diagnostics/textOps';
import type { LaunchAnalysis } from '../launch/analysis';
import { hasNumbers, type ConfigAnalysis } from '../training/analysis';
import type { EffectiveLaunch } from '../training/launches';
import type { TrainingService } from '../training/service';
import { hostMemoryExcess } from './fitDiagnostic';
import { peakTooltip, stageHintText, switchTitle } from './present';
import { stageHoverMarkdown } from './stageHover';

/** Presets a `--deepspeed` value may switch to, most memory-saving last. */
const switchTargets: SwiftPresetName[] = ['zero2', 'zero3', 'zero3_offload'];

/** The estimate of a launch as written; undefined without a model and GPU count. */
async function currentEstimate(training: TrainingService, launch: EffectiveLaunch, settings: ZeroLensSettings): Promise<{ analysis: ConfigAnalysis; result: EstimateResult } | undefined> {
  const analysis = await training.analyzeLaunch(launch.facts, settings);
  const result = analysis && hasNumbers(analysis) ? analysis.estimate(analysis.current) : undefined;
  return analysis && result ? { analysis, result } : undefined;
}

/** ms-swift launches can change preset in place; others would need their JSON edited (the ds_config hints do that). */
function canSwitchPreset(launch: EffectiveLaunch): boolean {
  const ref = launch.deepspeed;
  const facts = launch.written;
  // The value must be in this document (not in a YAML the command names) for an in-place edit.
  return (facts.launcher === 'swift' || facts.launcher === 'swift-yaml') && ref.kind !== 'unresolved' && ref.span.uri === facts.uri;
}

/** A preset switch and whether its estimate fits the GPU (null: no estimate). */
interface PresetSwitch {
  fix: FixSpec;
  fits: boolean | null;
}

/** "Switch to zero3 (≈ 14.1 GiB/GPU)" on the `--deepspeed` value, the first that fits preferred. */
async function presetSwitches(training: TrainingService, launch: EffectiveLaunch, text: string, settings: ZeroLensSettings): Promise<PresetSwitch[]> {
  if (!canSwitchPreset(launch)) return [];
  const ref = launch.deepspeed;
  const current = ref.kind === 'preset' ? ref.name : undefined;
  const t = translator(settings.locale);
  const switches: PresetSwitch[] = [];
  for (const preset of switchTargets) {
    if (preset === current) continue;
    const analysis = await training.analyzeWithPreset(launch.facts, settings, preset);
    const result = analysis && hasNumbers(analysis) ? analysis.estimate(analysis.current) : undefined;
    const estimate = !result ? '' : result.fits === false ? t('≈ {0}/GPU, does not fit', formatGiB(result.perGpu.total)) : t('≈ {0}/GPU', formatGiB(result.perGpu.total));
    const title = switchTitle(preset, estimate, t);
    switches.push({ fits: result?.fits ?? null, fix: { id: 'switch-preset', title, ops: [replaceText(text, ref.span.start, ref.span.end, preset)] } });
  }
  const firstFit = switches.find((s) => s.fits === true);
  if (firstFit) firstFit.fix.preferred = true;
  return switches;
}

function overlaps(a: Range, b: Range): boolean {
  const before = (p: { line: number; character: number }, q: { line: number; character: number }) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/**
 * The memory estimates of launch scripts and launcher YAML: the hint after each `--deepspeed` value, the
 * warning when it does not fit, the preset switches, the memory table in the hover, and the per-preset
 * estimates in completion.
 */
export interface LaunchEstimates extends FeatureContributor {
  /** Per-GPU estimate of a written command with each ms-swift preset, in `swiftPresetNames` order. */
  presetEstimates(written: LaunchFacts, settings: ZeroLensSettings): Promise<(EstimateResult | undefined)[]>;
}

export function createLaunchEstimates(training: TrainingService, launchParse: (document: TextDocument) => LaunchAnalysis): LaunchEstimates {
  const launches = (document: TextDocument) => training.launchesOf(document);
  return {
    name: (t) => t('memory estimate'),
    async validate(document, settings, budget = unlimited) {
      if (!settings.gpuMemoryGiB && !settings.cpuMemoryGiB) return [];
      const t = translator(settings.locale);
      const ctx = launchParse(document).ctx;
      const out: Diagnostic[] = [];
      for (const launch of await launches(document)) {
        await budget.checkpoint();
        const current = await currentEstimate(training, launch, settings);
        const host = current && hostMemoryExcess(current.result, settings);
        if (host) out.push(launchDiagnostic(ctx, 'estimate-exceeds-cpu-memory', launch.anchor.start, launch.anchor.end, host.message, { perNodeCpuBytes: host.needed, cpuMemoryGiB: settings.cpuMemoryGiB }));
        if (!current || current.result.fits !== false || !settings.gpuMemoryGiB) continue;
        const fixes = (await presetSwitches(training, launch, document.getText(), settings)).filter((s) => s.fits !== false).map((s) => s.fix);
        const message = t('Estimated ≈ {0} per GPU for {1}, more than the {2} GiB GPU (zeroLens.gpuMemoryGiB).', formatGiB(current.result.perGpu.total), current.analysis.model!.displayName, settings.gpuMemoryGiB);
        out.push(launchDiagnostic(ctx, 'estimate-exceeds-gpu-memory', launch.anchor.start, launch.anchor.end, message, { perGpuBytes: current.result.perGpu.total, gpuMemoryGiB: settings.gpuMemoryGiB, fixes }));
      }
      return out;
    },

    async inlayHints(document, range, settings): Promise<InlayHint[]> {
      const t = translator(settings.locale);
      const hints: InlayHint[] = [];
      const [from, to] = [document.offsetAt(range.start), document.offsetAt(range.end)];
      for (const launch of await launches(document)) {
        // Only what the editor shows: a long script asks for the lines on screen.
        if (launch.anchor.end < from || launch.anchor.start > to) continue;
        const current = await currentEstimate(training, launch, settings);
        if (!current) continue;
        const { analysis, result } = current;
        const label = stageHintText(result, analysis.model!.displayName, analysis.context.gpusPerNode!.value, analysis.context.nodes.value, analysis.gpuMemoryBytes, t);
        hints.push({ position: launch.anchor.range.end, label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: t('Per-GPU memory estimate for {0}. {1}', configName(analysis.configPath, t, true), peakTooltip(result, t)) });
      }
      // FSDP and Megatron launches: the run as written, at the value that turns FSDP on or the first parallel size.
      for (const launch of await training.parallelLaunchesOf(document)) {
        if (launch.anchor.end < from || launch.anchor.start > to) continue;
        const analysis = await training.analyzeParallelLaunch(launch.facts, settings, {}, document.uri);
        const result = hasNumbers(analysis) ? analysis.estimate(analysis.current) : undefined;
        const running = analysis.alternatives.find((a) => a.current);
        if (!result || !running) continue;
        const label = `${afterAnchor(document.getText(launch.anchor.range), running.label)} ${stageHintText(result, analysis.model!.displayName, analysis.context.gpusPerNode!.value, analysis.context.nodes.value, analysis.gpuMemoryBytes, t)}`;
        hints.push({ position: launch.anchor.range.end, label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: peakTooltip(result, t) });
      }
      return hints;
    },

    async hover(document, position, settings) {
      const offset = document.offsetAt(position);
      for (const launch of await launches(document)) {
        const { start, end } = launch.anchor;
        if (start >= end || offset < start || offset > end) continue;
        const analysis = await training.analyzeLaunch(launch.facts, settings);
        return analysis ? { contents: { kind: 'markdown', value: stageHoverMarkdown(analysis, launch.facts.uri, translator(settings.locale)) }, range: launch.anchor.range } : null;
      }
      for (const launch of await training.parallelLaunchesOf(document)) {
        const { start, end } = launch.anchor;
        if (start >= end || offset < start || offset > end) continue;
        const analysis = await training.analyzeParallelLaunch(launch.facts, settings, {}, document.uri);
        return { contents: { kind: 'markdown', value: stageHoverMarkdown(analysis, launch.facts.uri, translator(settings.locale)) }, range: launch.anchor.range };
      }
      return null;
    },

    async codeActions(document, range, context, settings): Promise<CodeAction[]> {
      // The fit warning carries some of the same switches in its data; the launch domain offers those already.
      const carried = dataFixActions(document, context.diagnostics.filter((d) => d.source === 'zero-lens'));
      const sameEdit = (a: CodeAction, b: CodeAction) => JSON.stringify(a.edit) === JSON.stringify(b.edit);
      const actions: CodeAction[] = [];
      for (const launch of await launches(document)) {
        if (!overlaps(range, launch.deepspeed.span.range)) continue;
        const fixes = (await presetSwitches(training, launch, document.getText(), settings)).map((s) => s.fix);
        for (const action of quickFixActions(document, { origin: originOf(document), fixes })) {
          if (!carried.some((a) => sameEdit(a, action)) && !actions.some((a) => sameEdit(a, action))) actions.push(action);
        }
      }
      return actions;
    },

    async presetEstimates(written, settings) {
      const facts = (await training.effectiveOf(written))?.facts ?? written;
      return Promise.all(
        swiftPresetNames.map(async (name) => {
          const analysis = await training.analyzeWithPreset(facts, settings, name);
          return analysis && hasNumbers(analysis) ? analysis.estimate(analysis.current) : undefined;
        }),
      );
    },
  };
}

/**
 * The run's label as a hint right after `anchor`, the text that turns it on: after `distributed_type: FSDP` the label
 * "FSDP FULL_SHARD" loses the "FSDP" the line already says (the hint read "FSDP FSDP FULL_SHARD ≈ …").
 */
function afterAnchor(anchor: string, label: string): string {
  const [first, ...rest] = label.split(' ');
  const said = anchor.trim().replace(/^["']|["']$/g, '');
  return rest.length > 0 && first.toLowerCase() === said.toLowerCase() ? rest.join(' ') : label;
}
