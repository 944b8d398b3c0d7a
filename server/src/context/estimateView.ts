import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ZeroLensSettings } from '../settings';
import type { ApplyOptionParams, ApplyOptionResult, EstimateView, TrainingContextView } from '../protocol';
import { classifyDocument } from '../classify';
import { parseConfig } from '../dsconfig/parse';
import type { ConfigAnalysis } from './analysis';
import { buildAnalysis } from './buildAnalysis';
import { configFileDocument, type ContextEngine } from './contextEngine';
import { optionLabel } from './present';
import { presetSwitchEdit } from './presetSwitch';
import { stageSwitchEdit } from './stageActions';
import { currentStageOption, sameOption, type StageTarget } from './stageSwitch';

/** The sidebar's view of a config or launch script: context with sources, current option, every option. */
export async function estimateView(engine: ContextEngine, document: TextDocument, settings: ZeroLensSettings): Promise<EstimateView | null> {
  const kind = classifyDocument(document, settings);
  if (!kind) return null;
  if (kind === 'ds-config') return viewOf(document.uri, kind, await engine.analyzeConfig(document, settings), true);
  const script = await engine.analyzeScript(document, settings);
  if (script) return viewOf(document.uri, kind, script.analysis, true);
  // A launch without a DeepSpeed config still has a context worth showing (model, GPUs).
  const launch = engine.launchFactsOf(document)[0];
  const analysis = await buildAnalysis({
    configPath: document.uri,
    config: undefined,
    scripts: launch ? [launch] : [],
    settings,
    resolveModel: async () => undefined,
  });
  const view = viewOf(document.uri, kind, analysis, false);
  return { ...view, missing: ['deepspeed', ...view.missing], options: [] };
}

function viewOf(uri: string, kind: EstimateView['kind'], analysis: ConfigAnalysis, hasConfig: boolean): EstimateView {
  return {
    uri,
    kind,
    missing: analysis.missing,
    context: contextView(analysis),
    current: hasConfig ? analysis.current : null,
    options: analysis.options.map((o) => ({ ...o.target, label: o.label, result: o.result })),
    gpuMemoryBytes: analysis.gpuMemoryBytes,
  };
}

export function contextView(analysis: ConfigAnalysis): TrainingContextView {
  const c = analysis.context;
  const m = analysis.model;
  return {
    model: m && c.model ? { value: { id: m.id, displayName: m.displayName, totalParams: m.totalParams }, source: c.model.source } : undefined,
    // The view needs a number; "not set" tells the sidebar it is a placeholder (missing lists it too).
    gpusPerNode: c.gpusPerNode ?? { value: 1, source: 'not set' },
    nodes: c.nodes,
    gpuMemoryGiB: c.gpuMemoryGiB,
    sequenceLength: c.sequenceLength,
    microBatchSize: c.microBatchSize,
    gradientCheckpointing: c.gradientCheckpointing,
    loraRank: c.lora ? { value: c.lora.value.rank, source: c.lora.source } : undefined,
    dtype: c.dtype,
  };
}

/** What DeepSpeed would run for a requested option (offload only where the stage reads it). */
function normalize(params: ApplyOptionParams): StageTarget {
  return {
    stage: params.stage,
    offloadOptimizer: params.stage === 0 ? 'none' : params.offloadOptimizer,
    offloadParam: params.stage === 3 ? params.offloadParam : 'none',
  };
}

const offloadDevices: readonly unknown[] = ['none', 'cpu', 'nvme'];

/** Params come off the wire (any client may send them): what is wrong with them, or undefined. */
function invalidOption(params: ApplyOptionParams): string | undefined {
  const { stage, offloadOptimizer, offloadParam } = params;
  const valid = [0, 1, 2, 3].includes(stage) && (stage === 0 || offloadDevices.includes(offloadOptimizer)) && (stage !== 3 || offloadDevices.includes(offloadParam));
  return valid ? undefined : 'Not a ZeRO option: stage must be 0, 1, 2 or 3, and offloadOptimizer (stages 1–3) and offloadParam (stage 3) "none", "cpu" or "nvme".';
}

/** The same edit as the quick fix, for the sidebar's Apply and the "Switch ZeRO stage…" quick pick. */
export async function applyOptionEdit(
  engine: ContextEngine,
  document: TextDocument,
  params: ApplyOptionParams,
  settings: ZeroLensSettings,
): Promise<ApplyOptionResult> {
  const invalid = invalidOption(params);
  if (invalid) return { edit: null, reason: invalid };
  const target = normalize(params);
  const kind = classifyDocument(document, settings);
  if (kind === 'ds-config') {
    const parsed = parseConfig(document);
    if (sameOption(currentStageOption(parsed.value), target)) return { edit: null, reason: `The config already uses ${optionLabel(target)}.` };
    const switched = stageSwitchEdit(document, parsed, target);
    return switched ? { edit: switched.edit } : { edit: null, reason: 'The config has JSON errors; fix them first so the edit cannot land in the wrong place.' };
  }
  if (!kind) return { edit: null, reason: 'ZeRO Lens does not handle this file.' };
  const config = await engine.launchConfig(document);
  const ref = config?.launch.deepspeed;
  if (!config || !ref) return { edit: null, reason: 'This script launches no DeepSpeed config (no --deepspeed or deepspeed: value ZeRO Lens can read).' };
  if (sameOption(currentStageOption(config.value), target)) return { edit: null, reason: `The launch already uses ${optionLabel(target)}.` };
  if (ref.kind === 'preset') return presetSwitchEdit(document, ref, target);
  if (ref.kind === 'file' && config.file) {
    const { document: configDocument, parsed } = configFileDocument(config.file);
    const switched = stageSwitchEdit(configDocument, parsed, target);
    return switched ? { edit: switched.edit } : { edit: null, reason: `${config.file.path} has JSON errors; fix them first.` };
  }
  return { edit: null, reason: `The DeepSpeed settings here are written inline (${ref.via}); change them by hand.` };
}
