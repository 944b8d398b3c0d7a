import { describeSource, formatCount, formatGiB, formatGiBValue, formatGpuCount, optionLabel, phaseLabel, sameOption, type EstimateResult, type Sourced, type ZeroOption, type ZeroStage } from '../protocol';
import { hasNumbers, type ConfigAnalysis, type OptionEstimate } from '../training/analysis';
import { communicationOf, deviceName, fitMark, shardsOf } from './present';
import { setContextCommandLink } from './setContextCommand';
import { markdownText } from '../util/markdown';
import { english, type Translate } from '../protocol';
import { alternativeTable } from './alternativeRows';

/**
 * The hover on `"stage"`: every option with its per-GPU and CPU cost, whether it fits, its communication
 * volume and what it shards, with the current option marked, and the context the numbers assume.
 */
export function stageHoverMarkdown(analysis: ConfigAnalysis, uri: string, t: Translate = english): string {
  // The costliest hover to build (an estimate per option); an analysis belongs to one version and never changes.
  let byUri = built.get(analysis);
  if (!byUri) built.set(analysis, (byUri = new Map()));
  const key = `${t === english ? '' : t('Option')}\u0000${uri}`;
  let markdown = byUri.get(key);
  if (markdown === undefined) byUri.set(key, (markdown = buildStageHover(analysis, uri, t)));
  return markdown;
}

const built = new WeakMap<ConfigAnalysis, Map<string, string>>();

function buildStageHover(analysis: ConfigAnalysis, uri: string, t: Translate): string {
  const lines: string[] = [];
  if (hasNumbers(analysis)) {
    lines.push(`**ZeRO options for ${markdownText(analysis.model!.displayName)}** on ${formatGpuCount(analysis.context.gpusPerNode!.value, analysis.context.nodes.value)}`);
    lines.push('', ...numbersTable(analysis));
    const running = analysis.alternatives.find((a) => a.current);
    const current = analysis.estimate(analysis.current);
    if (current) lines.push('', ...peakBreakdown(running?.label ?? optionLabel(analysis.current), current));
    const side = alternativeTable(analysis, t);
    if (side.length) lines.push('', ...side);
  } else {
    lines.push('**ZeRO stages**', '', ...shapeTable(analysis.current));
    lines.push('', `No memory estimate yet: ${markdownText(whatIsMissing(analysis))} ${setContextCommandLink(uri, analysis.missing)}`);
  }
  lines.push('', contextLine(analysis));
  if (hasNumbers(analysis)) {
    lines.push('', 'Per GPU: what the GPU must hold, judged against its size — reserved memory (the allocator keeps freed blocks) plus the CUDA context and NCCL, as nvidia-smi shows it. Allocated: live tensors at the peak (torch.cuda.max_memory_allocated).');
  }
  lines.push('', 'Ψ: one copy of the 16-bit parameters (or trainable parameters with LoRA). Stages 0–2 all-reduce gradients (2Ψ per step, like plain data parallelism); ZeRO-3 also all-gathers parameters in the backward pass (3Ψ).');
  const notes = [...analysis.notes, ...(analysis.estimate(analysis.current)?.notes ?? [])];
  if (notes.length) lines.push('', ...notes.map((n) => `- ${markdownText(n)}`));
  return lines.join('\n');
}

/** Keeps "101.6 GiB" on one line: VS Code's narrow hover would otherwise wrap the unit under the number. */
function cell(size: string): string {
  return size.replace(/ /g, '\u00a0');
}

function numbersTable(analysis: ConfigAnalysis): string[] {
  const memory = analysis.gpuMemoryBytes;
  const rows = [...analysis.options];
  // The current option may be one the standard list lacks (parameter offload without optimizer offload, NVMe).
  // Under FSDP or Megatron the run is an alternative row: no ZeRO row is current.
  const zeroRun = !analysis.alternatives.some((a) => a.current);
  const currentResult = zeroRun ? analysis.estimate(analysis.current) : undefined;
  if (!rows.some((o) => sameOption(o.target, analysis.current)) && currentResult) {
    rows.push({ target: analysis.current, label: optionLabel(analysis.current), result: currentResult });
  }
  rows.sort((a, b) => a.target.stage - b.target.stage || offloadCount(a.target) - offloadCount(b.target));
  const out = [
    `| | Option | Per GPU | Allocated | Peak | CPU RAM / node | Fits${memory ? ` ${formatGiB(memory)}` : ''} | Comm. / step | Shards |`,
    '|:-:|---|--:|--:|---|--:|:-:|:-:|---|',
  ];
  for (const option of rows) out.push(row(option, zeroRun && sameOption(option.target, analysis.current)));
  return out;
}

function row(option: OptionEstimate, current: boolean): string {
  const { target, result } = option;
  const bold = (s: string): string => (current ? `**${s}**` : s);
  const cpu = result.perCpu.total > 0 ? cell(formatGiB(result.perCpu.total)) : '—';
  const nvme = result.nvme > 0 ? ` + NVMe ${cell(formatGiB(result.nvme))}` : '';
  const peak = result.perGpu.peakPhase ? phaseLabel(result.perGpu.peakPhase) : '—';
  return `| ${current ? '▶' : ''} | ${bold(optionLabel(target))} | ${bold(cell(formatGiB(result.perGpu.total)))} | ${cell(formatGiB(result.perGpu.allocated))} | ${peak} | ${cpu}${nvme} | ${fitMark(result)} | ${communicationOf(target.stage)} | ${shards(target)} |`;
}

/**
 * What the current option's peak is made of: the phase, its live tensors by kind, the allocator's cache and the
 * CUDA context; then where the estimate is unsure and errs high.
 */
function peakBreakdown(label: string, result: EstimateResult): string[] {
  const g = result.perGpu;
  if (!g.peakPhase) return [];
  const parts: Array<[string, number]> = [
    ['weights', g.params],
    ['gradients', g.gradients],
    ['optimizer states', g.optimizerStates],
    ['activations', g.activations],
    ['buffers', g.buffers],
    ['step workspaces', g.temporaries],
    ['other models', g.extraModels],
  ];
  const shown = parts.filter(([, bytes]) => bytes >= 0.05 * 2 ** 30).map(([name, bytes]) => `${name} ${formatGiBValue(bytes)}`);
  const out = [
    `**${label}** peaks in the ${phaseLabel(g.peakPhase)}: ${cell(formatGiB(g.total - g.allocatorCache - g.cudaContext))} allocated (${shown.join(', ') || 'nothing large'}) + ${cell(formatGiB(g.allocatorCache))} allocator cache + ${cell(formatGiB(g.cudaContext))} CUDA context and NCCL = ${cell(formatGiB(g.total))}.`,
  ];
  if (result.errsHigh.length) out.push('', `Errs high where unsure: ${result.errsHigh.join('; ')}.`);
  return out;
}

function shards(target: ZeroOption): string {
  const moved: string[] = [];
  if (target.offloadOptimizer !== 'none' && target.stage > 0) moved.push(`optimizer → ${deviceName(target.offloadOptimizer)}`);
  if (target.offloadParam !== 'none' && target.stage === 3) moved.push(`parameters → ${deviceName(target.offloadParam)}`);
  return shardsOf(target.stage) + (moved.length ? `; ${moved.join(', ')}` : '');
}

function offloadCount(t: ZeroOption): number {
  return (t.offloadOptimizer !== 'none' ? 1 : 0) + (t.offloadParam !== 'none' ? 2 : 0);
}

/** Without a model or GPU count: what each stage does, with no numbers. */
function shapeTable(current: ZeroOption): string[] {
  const out = ['| | Stage | Comm. / step | Shards |', '|:-:|---|:-:|---|'];
  for (const stage of [0, 1, 2, 3] as ZeroStage[]) {
    out.push(`| ${stage === current.stage ? '▶' : ''} | ZeRO-${stage} | ${communicationOf(stage)} | ${shardsOf(stage)} |`);
  }
  return out;
}

export function whatIsMissing(analysis: ConfigAnalysis): string {
  if (analysis.modelProblem) return `${analysis.modelProblem}.`;
  const needs: string[] = [];
  if (analysis.missing.includes('model')) needs.push('the model');
  if (analysis.missing.includes('gpusPerNode')) needs.push('the number of GPUs');
  return needs.length
    ? `ZeRO Lens does not know ${needs.join(' or ')} for this config (no launch script in the workspace references it, and zeroLens.${needs[0] === 'the model' ? 'model' : 'gpusPerNode'} is not set).`
    : 'the estimate is not available.';
}

/** "Context: Qwen3-8B (8.19B params) — train.sh line 3 · 8 GPUs — train.sh line 1 · ..." (Markdown; names and paths escaped). */
export function contextLine(analysis: ConfigAnalysis): string {
  const c = analysis.context;
  const from = (source: Sourced<unknown>['source']): string => ` _(${markdownText(describeSource(source))})_`;
  const item = <T>(label: string, value: Sourced<T> | undefined, show: (v: T) => string = String): string | undefined =>
    value ? `${label} ${markdownText(show(value.value))}${from(value.source)}` : undefined;
  const parts = [
    c.model ? `model ${markdownText(analysis.model?.displayName ?? c.model.value)}${analysis.model ? ` (${formatCount(analysis.model.totalParams)} params)` : ''}${from(c.model.source)}` : 'model unknown',
    c.gpusPerNode ? item('GPUs/node', c.gpusPerNode) : 'GPUs unknown',
    c.nodes.value > 1 || c.nodes.source.kind !== 'default' ? item('nodes', c.nodes) : undefined,
    c.gpuMemoryGiB ? item('GPU memory', c.gpuMemoryGiB, (v) => `${v} GiB`) : 'GPU memory unknown (set zeroLens.gpuMemoryGiB to check the fit)',
    item('micro-batch', c.microBatchSize),
    item('gradient accumulation', c.gradientAccumulationSteps),
    item('sequence', c.sequenceLength),
    item('gradient checkpointing', c.gradientCheckpointing, (v) => (v ? 'on' : 'off')),
    c.lora ? item('LoRA rank', c.lora, (v) => `${v.rank}${v.quantBits ? ` (${v.quantBits}-bit base)` : ''}`) : 'full fine-tuning',
    item('precision', c.dtype),
  ];
  return `Context: ${parts.filter((p) => !!p).join(' · ')}`;
}
