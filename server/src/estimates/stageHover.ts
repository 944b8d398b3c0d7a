import { describeSource, english, listSeparator, formatCount, formatGiB, formatGiBValue, formatGpuCount, optionLabel, phaseLabel, sameOption, type EstimateResult, type Sourced, type Translate, type ZeroOption, type ZeroStage } from '../protocol';
import { hasNumbers, type ConfigAnalysis, type OptionEstimate } from '../training/analysis';
import { deviceName, fitMark, optionTableHeader, shardsOf } from './present';
import { communicationCell, communicationLegend, zeroGathers } from './communication';
import { setContextCommandLink } from './setContextCommand';
import { markdownText, unbrokenCell as cell, cjkWordsWhole } from '../util/markdown';
import { alternativeTable } from './alternativeRows';

/**
 * The hover on `"stage"`: every option with its per-GPU and CPU cost, whether it fits, its communication
 * volume and what it shards, with the current option marked, and the context the numbers assume; in the reader's
 * language (`t`).
 */
export function stageHoverMarkdown(analysis: ConfigAnalysis, uri: string, t: Translate = english): string {
  // The costliest hover to build (an estimate per option); an analysis belongs to one version and never changes.
  let byLanguage = built.get(analysis);
  if (!byLanguage) built.set(analysis, (byLanguage = new Map()));
  let byUri = byLanguage.get(t);
  if (!byUri) byLanguage.set(t, (byUri = new Map()));
  let markdown = byUri.get(uri);
  if (markdown === undefined) byUri.set(uri, (markdown = buildStageHover(analysis, uri, t)));
  return markdown;
}

/** Per analysis, per translator (one per locale), per URI. */
const built = new WeakMap<ConfigAnalysis, Map<Translate, Map<string, string>>>();

function buildStageHover(analysis: ConfigAnalysis, uri: string, t: Translate): string {
  const lines: string[] = [];
  if (hasNumbers(analysis)) {
    lines.push(t('**ZeRO options for {0}** on {1}', markdownText(analysis.model!.displayName), formatGpuCount(analysis.context.gpusPerNode!.value, analysis.context.nodes.value, t)));
    lines.push('', ...numbersTable(analysis, t));
    const running = analysis.alternatives.find((a) => a.current);
    const current = analysis.estimate(analysis.current);
    if (current) lines.push('', ...peakBreakdown(running?.label ?? optionLabel(analysis.current, t), current, t));
    const side = alternativeTable(analysis, t);
    if (side.length) lines.push('', ...side);
  } else {
    // A run FSDP, Megatron or plain PyTorch carries out is none of the ZeRO rows.
    const other = otherEngine(analysis, t);
    lines.push(other ? t('**ZeRO stages** (for comparison: this run uses {0})', other) : t('**ZeRO stages**'), '', ...shapeTable(other ? undefined : analysis.current, t));
    lines.push('', t('No memory estimate yet: {0} {1}', markdownText(whatIsMissing(analysis, t)), setContextCommandLink(uri, analysis.missing, t)));
  }
  lines.push('', contextLine(analysis, t));
  if (hasNumbers(analysis)) {
    lines.push('', t('Per GPU: what the GPU must hold, judged against its size — reserved memory (the allocator keeps freed blocks) plus the CUDA context and NCCL, as nvidia-smi shows it. Allocated: live tensors at the peak (torch.cuda.max_memory_allocated).'));
  }
  lines.push('', communicationLegend(hasNumbers(analysis) ? analysis.estimate(analysis.current)?.params : undefined, t));
  const notes = [...analysis.notes, ...(analysis.estimate(analysis.current)?.notes ?? [])];
  if (notes.length) lines.push('', ...notes.map((n) => `- ${markdownText(n)}`));
  return lines.join('\n');
}

function numbersTable(analysis: ConfigAnalysis, t: Translate): string[] {
  const memory = analysis.gpuMemoryBytes;
  const rows = [...analysis.options];
  // The current option may be one the standard list lacks (parameter offload without optimizer offload, NVMe).
  // Under FSDP or Megatron the run is an alternative row: no ZeRO row is current.
  const zeroRun = !analysis.alternatives.some((a) => a.current);
  const currentResult = zeroRun ? analysis.estimate(analysis.current) : undefined;
  if (!rows.some((o) => sameOption(o.target, analysis.current)) && currentResult) {
    rows.push({ target: analysis.current, label: optionLabel(analysis.current, t), result: currentResult });
  }
  rows.sort((a, b) => a.target.stage - b.target.stage || offloadCount(a.target) - offloadCount(b.target));
  const out = optionTableHeader(memory, t);
  for (const option of rows) out.push(row(option, zeroRun && sameOption(option.target, analysis.current), t));
  return out;
}

function row(option: OptionEstimate, current: boolean, t: Translate): string {
  const { target, result } = option;
  const bold = (s: string): string => (current ? `**${s}**` : s);
  const cpu = result.perCpu.total > 0 ? cell(formatGiB(result.perCpu.total)) : '—';
  const nvme = result.nvme > 0 ? ` + NVMe ${cell(formatGiB(result.nvme))}` : '';
  const peak = result.perGpu.peakPhase ? cjkWordsWhole(phaseLabel(result.perGpu.peakPhase, t)) : '—';
  return `| ${current ? '▶' : ''} | ${bold(cjkWordsWhole(optionLabel(target, t)))} | ${bold(cell(formatGiB(result.perGpu.total)))} | ${cell(formatGiB(result.perGpu.allocated))} | ${peak} | ${cpu}${nvme} | ${fitMark(result)} | ${cell(communicationCell(zeroGathers(target.stage), result.params))} | ${shards(target, t)} |`;
}

/**
 * What the current option's peak is made of: the phase, its live tensors by kind, the allocator's cache and the
 * CUDA context; then where the estimate is unsure and errs high.
 */
function peakBreakdown(label: string, result: EstimateResult, t: Translate): string[] {
  const g = result.perGpu;
  if (!g.peakPhase) return [];
  const parts: Array<[string, number]> = [
    [t('weights'), g.params],
    [t('gradients'), g.gradients],
    [t('optimizer states'), g.optimizerStates],
    [t('activations'), g.activations],
    [t('buffers'), g.buffers],
    [t('workspaces'), g.temporaries],
    [t('other models'), g.extraModels],
  ];
  const shown = parts.filter(([, bytes]) => bytes >= 0.05 * 2 ** 30).map(([name, bytes]) => `${name} ${formatGiBValue(bytes)}`);
  const out = [
    t(
      '**{0}** peaks in the {1}: {2} allocated ({3}) + {4} allocator cache + {5} CUDA context and NCCL = {6}.',
      label,
      phaseLabel(g.peakPhase, t),
      cell(formatGiB(g.total - g.allocatorCache - g.cudaContext)),
      shown.join(listSeparator(t)) || t('nothing large'),
      cell(formatGiB(g.allocatorCache)),
      cell(formatGiB(g.cudaContext)),
      cell(formatGiB(g.total)),
    ),
  ];
  if (result.errsHigh.length) out.push('', t('Errs high where unsure: {0}.', result.errsHigh.join(t({ message: '; ', comment: 'between the clauses of a list' }))));
  return out;
}

function shards(target: ZeroOption, t: Translate): string {
  const moved: string[] = [];
  if (target.offloadOptimizer !== 'none' && target.stage > 0) moved.push(t('optimizer → {0}', deviceName(target.offloadOptimizer)));
  if (target.offloadParam !== 'none' && target.stage === 3) moved.push(t('parameters → {0}', deviceName(target.offloadParam)));
  return shardsOf(target.stage, t) + (moved.length ? t({ message: '; ', comment: 'between the clauses of a list' }) + moved.join(listSeparator(t)) : '');
}

function offloadCount(t: ZeroOption): number {
  return (t.offloadOptimizer !== 'none' ? 1 : 0) + (t.offloadParam !== 'none' ? 2 : 0);
}

/** Without a model or GPU count: what each stage does, with no numbers. */
/** The engine a run uses other than DeepSpeed, named for the reader; undefined under DeepSpeed. */
function otherEngine(analysis: ConfigAnalysis, t: Translate): string | undefined {
  if (analysis.engine === 'fsdp') return 'PyTorch FSDP';
  if (analysis.engine === 'megatron') return t('Megatron-Core tensor and pipeline parallelism');
  if (analysis.engine === 'torch') return t('plain PyTorch');
  return undefined;
}

function shapeTable(current: ZeroOption | undefined, t: Translate): string[] {
  const out = [`| | ${t({ message: 'Stage', comment: 'table column' })} | ${t('Comm. / step')} | ${t('Shards')} |`, '|:-:|---|:-:|---|'];
  for (const stage of [0, 1, 2, 3] as ZeroStage[]) {
    out.push(`| ${stage === current?.stage ? '▶' : ''} | ZeRO-${stage} | ${communicationCell(zeroGathers(stage))} | ${shardsOf(stage, t)} |`);
  }
  return out;
}

export function whatIsMissing(analysis: ConfigAnalysis, t: Translate = english): string {
  if (analysis.modelProblem) return t('{0}.', analysis.modelProblem);
  const model = analysis.missing.includes('model');
  const gpus = analysis.missing.includes('gpusPerNode');
  if (model && gpus) return t('ZeRO Lens does not know the model or the number of GPUs for this config (no launch script in the workspace references it, and zeroLens.model is not set).');
  if (model) return t('ZeRO Lens does not know the model for this config (no launch script in the workspace references it, and zeroLens.model is not set).');
  if (gpus) return t('ZeRO Lens does not know the number of GPUs for this config (no launch script in the workspace references it, and zeroLens.gpusPerNode is not set).');
  return t('the estimate is not available.');
}

/** "Context: Qwen3-8B (8.19B params) — train.sh line 3 · 8 GPUs — train.sh line 1 · ..." (Markdown; names and paths escaped). */
export function contextLine(analysis: ConfigAnalysis, t: Translate = english): string {
  const c = analysis.context;
  const from = (source: Sourced<unknown>['source']): string => ` _${t({ message: '({0})', args: [markdownText(describeSource(source, t))], comment: 'where a value of the training context came from' })}_`;
  const item = <T>(label: string, value: Sourced<T> | undefined, show: (v: T) => string = String): string | undefined =>
    value ? `${label} ${markdownText(show(value.value))}${from(value.source)}` : undefined;
  const model = c.model
    ? t('model {0}', markdownText(analysis.model?.displayName ?? c.model.value)) + (analysis.model ? t(' ({0} params)', formatCount(analysis.model.totalParams)) : '') + from(c.model.source)
    : t('model unknown');
  const parts = [
    model,
    c.gpusPerNode ? item(t('GPUs/node'), c.gpusPerNode) : t('GPUs unknown'),
    c.nodes.value > 1 || c.nodes.source.kind !== 'default' ? item(t('nodes'), c.nodes) : undefined,
    c.gpuMemoryGiB ? item(t('GPU memory'), c.gpuMemoryGiB, (v) => `${v} GiB`) : t('GPU memory unknown (set zeroLens.gpuMemoryGiB to check the fit)'),
    item(t('micro-batch'), c.microBatchSize),
    item(t('gradient accumulation'), c.gradientAccumulationSteps),
    item(t('sequence'), c.sequenceLength),
    item(t('gradient checkpointing'), c.gradientCheckpointing, (v) => (v ? t('on') : t('off'))),
    c.lora ? item(t('LoRA rank'), c.lora, (v) => `${v.rank}${v.quantBits ? t(' ({0}-bit base)', v.quantBits) : ''}`) : t('full fine-tuning'),
    item(t('precision'), c.dtype),
  ];
  return t('Context: {0}', parts.filter((p) => !!p).join(' · '));
}
