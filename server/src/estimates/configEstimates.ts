import { translator } from '../l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { InlayHintKind, MarkupKind, type Diagnostic, type InlayHint, type Range } from 'vscode-languageserver-types';
import type { Node } from 'jsonc-parser';
import type { FeatureContributor } from '../feature';
import { findProperty, type ConfigParses, type ParsedConfig } from '../dsconfig/parse';
import type { Translate } from '../protocol';
import { hasNumbers, type ConfigAnalysis } from '../training/analysis';
import type { TrainingService } from '../training/service';
import { fitDiagnostic, hostMemoryDiagnostic } from './fitDiagnostic';
import { offloadHintText, offloadHintTooltip, peakTooltip, stageHintText } from './present';
import { setTrainingContextCommandFor } from './setContextCommand';
import { stageCodeActions } from './stageActions';
import { stageHoverMarkdown, contextLine, whatIsMissing } from './stageHover';
import { zeroSectionCode, zeroSectionDiagnostic } from './zeroSectionDiagnostic';
import { dataFixActions } from '../diagnostics/fixActions';
import { pathOf } from '../util/paths';
import { unlimited } from '../util/budget';
import { ConfigView } from '../dsconfig/validation/configView';
import { autoepWorldChecks } from '../dsconfig/validation/rules/expertParallel';
import { contextWorldSize } from '../training/worldSize';
import { elasticityWorldChecks } from '../dsconfig/validation/rules/elasticity';
import { batchWorldChecks } from '../dsconfig/validation/rules/batch';
import { configReader } from '../launch/deepspeedPlugin';
import { consumerDiagnostics } from './consumerDiagnostics';
import { rangeOfSpan } from '../util/textRange';

const stagePath = ['zero_optimization', 'stage'];

/**
 * Where stage warnings and fixes attach: the stage value, else the zero_optimization key, else (a config
 * without ZeRO, which DeepSpeed runs as stage 0) the first key of the file.
 */
function stageAnchor(parsed: ParsedConfig): Node | undefined {
  const stage = findProperty(parsed.root, stagePath);
  if (stage?.children?.[1]) return stage.children[1];
  const zero = findProperty(parsed.root, ['zero_optimization'])?.children?.[0];
  if (zero) return zero;
  return parsed.root?.type === 'object' ? parsed.root.children?.[0]?.children?.[0] : undefined;
}

/**
 * A stage written as "auto" (filled by accelerate) or as an invalid value says nothing about what will run:
 * no estimate or warning for it (the ds_config checks explain the value itself).
 */
function stageIsKnown(parsed: ParsedConfig): boolean {
  const value = findProperty(parsed.root, stagePath)?.children?.[1]?.value;
  return value === undefined || value === 0 || value === 1 || value === 2 || value === 3;
}

function lineTouches(document: TextDocument, node: Node, range: Range): boolean {
  const first = document.positionAt(node.offset).line;
  const last = document.positionAt(node.offset + node.length).line;
  return range.start.line <= last && range.end.line >= first;
}

/** The memory estimates of a ds_config: the stage hint, hover table, fit warning and stage fixes. */
export function createConfigEstimates(training: TrainingService, parses: ConfigParses): FeatureContributor {
  return {
    name: (t) => t('memory estimate'),
    async validate(document, settings, budget = unlimited) {
      // These checks run first (see languageService.ts): they start the parse, in slices for a huge config.
      const parsed = await parses.parseForValidation(document, budget);
      await budget.checkpoint();
      if (!parsed) return [];
      const anchor = stageAnchor(parsed);
      if (!parsed.root) return [];
      const t = translator(settings.locale);
      const out: Diagnostic[] = [];
      // One analysis and one list of launches serve every check below.
      const analysis = await training.analyzeConfig(document, settings);
      const launches = await training.referencesTo(pathOf(document.uri));
      const missing = zeroSectionDiagnostic(document, parsed, launches, t);
      if (missing) out.push(missing);
      const stage = anchor && stageIsKnown(parsed) ? rangeOfSpan(document, anchor) : undefined;
      const fit = stage ? fitDiagnostic(analysis, stage, document, t) : undefined;
      if (fit) out.push(fit);
      const host = stage && settings.cpuMemoryGiB ? hostMemoryDiagnostic(analysis, stage, document, settings) : undefined;
      if (host) out.push(host);
      const view = new ConfigView(document, parsed, undefined, undefined, settings.locale);
      // Checks that need the world size, when the context knows the GPU count (a launch script or the settings).
      const world = contextWorldSize(analysis.context, t);
      if (world) {
        // The HF Trainer, accelerate, ms-swift and LLaMA-Factory run data-parallel over every GPU; a plain
        // `deepspeed train.py --deepspeed_config` script may bring an mpu of its own.
        const plain = launches.length > 0 && !launches.some((l) => configReader(l));
        out.push(...batchWorldChecks(view, world, plain), ...autoepWorldChecks(view, world), ...elasticityWorldChecks(view, world));
      }
      // What fails under the consumers the workspace's launches are (HF Trainer / accelerate, or plain DeepSpeed).
      out.push(...consumerDiagnostics(view, launches, launches.length ? analysis.model : undefined, t));
      return out;
    },

    // Asked on every hover, nearly always elsewhere: answered without an async frame there.
    hover(document, position, settings) {
      const stage = findProperty(parses.parse(document).root, stagePath);
      const offset = document.offsetAt(position);
      if (!stage || offset < stage.offset || offset > stage.offset + stage.length) return Promise.resolve(null);
      return training.analyzeConfig(document, settings).then((analysis) => ({
        contents: { kind: MarkupKind.Markdown, value: stageHoverMarkdown(analysis, document.uri, translator(settings.locale)) },
        range: rangeOfSpan(document, stage),
      }));
    },

    async codeActions(document, range, context, settings) {
      const parsed = parses.parse(document);
      const anchor = stageAnchor(parsed);
      if (!parsed.root) return [];
      // Its fix is data like every ds_config fix (JSON ops, found by path in the current text).
      const missing = dataFixActions(document, context.diagnostics.filter((d) => d.source === 'zero-lens' && d.code === zeroSectionCode), parsed.root);
      const ours = context.diagnostics.filter((d) => d.source === 'zero-lens' && d.code === 'estimate-exceeds-gpu-memory');
      if (!ours.length && !(anchor && lineTouches(document, anchor, range))) return missing;
      return [...missing, ...stageCodeActions(document, parsed, await training.analyzeConfig(document, settings), ours, translator(settings.locale))];
    },

    async inlayHints(document, range, settings) {
      const parsed = parses.parse(document);
      const stage = findProperty(parsed.root, stagePath)?.children?.[1];
      if (!stage || !stageIsKnown(parsed)) return [];
      const start = document.offsetAt(range.start);
      const end = document.offsetAt(range.end);
      const analysis = await training.analyzeConfig(document, settings);
      const t = translator(settings.locale);
      const hints: InlayHint[] = [];
      if (stage.offset + stage.length >= start && stage.offset <= end) hints.push(stageHint(document, stage, analysis, t));
      for (const [kind, path] of [
        ['optimizer', ['zero_optimization', 'offload_optimizer', 'device']],
        ['param', ['zero_optimization', 'offload_param', 'device']],
      ] as const) {
        const device = findProperty(parsed.root, [...path])?.children?.[1];
        if (!device || device.offset > end || device.offset + device.length < start) continue;
        const hint = offloadHint(document, device, kind, analysis, t);
        if (hint) hints.push(hint);
      }
      return hints;
    },
  };
}

function stageHint(document: TextDocument, stage: Node, analysis: ConfigAnalysis, t: Translate): InlayHint {
  const position = document.positionAt(stage.offset + stage.length);
  const result = analysis.estimate(analysis.current);
  if (!hasNumbers(analysis) || !result) {
    // Never an invented number: say what is missing and offer to set it.
    const command = setTrainingContextCommandFor(document.uri, analysis.missing, t);
    return {
      position,
      label: [{ value: missingLabel(analysis, t), command, tooltip: whatIsMissing(analysis, t) }],
      kind: InlayHintKind.Type,
      paddingLeft: true,
    };
  }
  const text = stageHintText(result, analysis.model!.displayName, analysis.context.gpusPerNode!.value, analysis.context.nodes.value, analysis.gpuMemoryBytes, t);
  return {
    position,
    label: text,
    kind: InlayHintKind.Type,
    paddingLeft: true,
    tooltip: { kind: MarkupKind.Markdown, value: `${peakTooltip(result, t)}\n\n${contextLine(analysis, t)}` },
  };
}

/** What the hint asks for instead of a number. */
function missingLabel(analysis: ConfigAnalysis, t: Translate): string {
  if (analysis.modelProblem) return t('unknown model · set the model for a memory estimate…');
  const model = analysis.missing.includes('model');
  const gpus = analysis.missing.includes('gpusPerNode');
  if (model && gpus) return t('set model & GPUs for a memory estimate…');
  return model ? t('set the model for a memory estimate…') : t('set the GPU count for a memory estimate…');
}

function offloadHint(document: TextDocument, device: Node, kind: 'optimizer' | 'param', analysis: ConfigAnalysis, t: Translate): InlayHint | undefined {
  const value = kind === 'optimizer' ? analysis.current.offloadOptimizer : analysis.current.offloadParam;
  if (value === 'none' || device.value !== value) return undefined;
  const result = analysis.estimate(analysis.current);
  if (!hasNumbers(analysis) || !result) return undefined;
  const text = offloadHintText(kind, value, result, t);
  if (!text) return undefined;
  const tooltip = value === 'cpu' ? offloadHintTooltip(result, t) : undefined;
  return { position: document.positionAt(device.offset + device.length), label: text, kind: InlayHintKind.Type, paddingLeft: true, ...(tooltip && { tooltip }) };
}
