/** What `zero-lens estimate` prints: the JSON document and the text tables. */
import { padColumns, textWidth } from '../util/textWidth';
import { configName, english, joinList, formatCount, formatGiB, formatGiBValue, optionLabel, phaseLabel, type Source, type Translate, type ZeroStage } from '../protocol';
import { estimate, torchLabel } from '../memory/estimate';
import { estimateDeepSpeedResult } from '../memory/deepspeedResult';
import { formatDeepSpeedTable } from '../memory/deepspeed';
import { resolveBuffers } from '../memory/buffers';
import { fitMark, formatStageTable } from '../memory/report';
import type { EstimateInput, EstimateResult } from '../memory/types';
import { contextView } from '../training/contextView';
import type { EstimateArgs } from './estimateArgs';
import type { EstimateRun } from './estimate';

/**
 * The JSON output's version: a consumer that reads it can check it has the shape it expects.
 * 2: `perGpu.total` is the device total 'fits' is judged on (reserved + CUDA context + NCCL), beside
 * `perGpu.allocated` and `perGpu.reserved`; `perGpu.peakPhase` and `phases` (every phase of the run); `perCpu.peakPhase`;
 * `errsHigh`; each `stages` entry gains `allocated`, `reserved` and `peakPhase`.
 */
export const estimateSchemaVersion = 2;

const stages: ZeroStage[] = [0, 1, 2, 3];

function resultAt(args: EstimateArgs, input: EstimateInput, stage: ZeroStage, t: Translate): EstimateResult | undefined {
  // The run's own stage keeps its engine (DDP without DeepSpeed); the other columns, and every column of an FSDP or
  // Megatron run, are what DeepSpeed would hold.
  const own = input.engine === 'torch' && (stage === input.stage || stage === 0);
  const at: EstimateInput = { ...input, stage, engine: own ? 'torch' : 'deepspeed' };
  return args.mode === 'deepspeed'
    ? estimateDeepSpeedResult(at, { zeroInit: args.deepspeed.zeroInit.value, legacyZero2: args.deepspeed.legacyZero2.value, additionalBufferFactor: args.deepspeed.additionalBufferFactor.value }, t)
    : estimate(at, t);
}

/** Every input the estimate used, with where it came from. */
function reportedInputs(args: EstimateArgs, run: EstimateRun, input: EstimateInput): Record<string, { value: unknown; source: Source }> {
  const sources = run.analysis.inputSources;
  const model = input.model;
  const inputs: Record<string, { value: unknown; source: Source }> = {
    model: { value: model.id, source: model.source },
    totalParams: { value: model.totalParams, source: run.countSources?.totalParams ?? model.source },
    largestLayerParams: { value: model.largestLayerParams, source: run.countSources?.largestLayerParams ?? model.source },
  };
  for (const [key, source] of Object.entries(sources)) {
    if (key === 'model') continue;
    const value = key in input ? (input as unknown as Record<string, unknown>)[key] : (input.buffers as Record<string, unknown> | undefined)?.[key];
    inputs[key] = { value: value ?? null, source };
  }
  inputs.mode = { value: args.mode, source: args.mode === 'full' ? { kind: 'default' } : { kind: 'cli', flag: '--mode' } };
  if (args.mode === 'deepspeed') {
    inputs.zeroInit = args.deepspeed.zeroInit;
    inputs.legacyZero2 = args.deepspeed.legacyZero2;
    inputs.additionalBufferFactor = args.deepspeed.additionalBufferFactor;
  } else {
    // Buffer sizes nobody gave are DeepSpeed's defaults (overlap_comm's depends on the stage).
    for (const [key, value] of Object.entries(resolveBuffers(input.stage, input.buffers))) inputs[key] ??= { value, source: { kind: 'default' } };
  }
  return inputs;
}

/** The JSON document; its notes (prose for people) are in the reader's language (`t`), its data as always. */
export function jsonReport(args: EstimateArgs, run: EstimateRun, t: Translate = english): string {
  return JSON.stringify(jsonReportObject(args, run, t), null, 2) + '\n';
}

/** The JSON document `--format json` prints, as an object. */
/** The run as written: its ZeRO stage, or (full mode) its FSDP strategy or Megatron layout. */
function selectedResult(args: EstimateArgs, run: EstimateRun, t: Translate): EstimateResult {
  const input = run.analysis.input!;
  const running = args.mode === 'full' ? run.analysis.alternatives.find((a) => a.current) : undefined;
  return running?.result ?? resultAt(args, input, input.stage, t)!;
}

export function jsonReportObject(args: EstimateArgs, run: EstimateRun, t: Translate = english) {
  const input = run.analysis.input!;
  const selected = selectedResult(args, run, t);
  return {
    schemaVersion: estimateSchemaVersion,
    mode: args.mode,
    file: run.file ?? null,
    model: { id: input.model.id, displayName: input.model.displayName },
    perGpu: selected.perGpu,
    phases: selected.phases,
    perCpu: selected.perCpu,
    nvme: selected.nvme,
    fits: selected.fits,
    stages: stages.map((stage) => {
      const result = resultAt(args, input, stage, t);
      return {
        stage,
        label: optionLabel({ ...input, stage }),
        perGpuTotal: result ? result.perGpu.total : null,
        allocated: result ? result.perGpu.allocated : null,
        reserved: result ? result.perGpu.reserved : null,
        peakPhase: result ? result.perGpu.peakPhase : null,
        fits: result ? result.fits : null,
      };
    }),
    /** The same job under FSDP (and the Megatron layout a run uses), beside the ZeRO stages; `current` marks the run. */
    alternatives: args.mode === 'full'
      ? run.analysis.alternatives.map((a) => ({ family: a.family, label: a.label, current: a.current, perGpuTotal: a.result.perGpu.total, allocated: a.result.perGpu.allocated, reserved: a.result.perGpu.reserved, peakPhase: a.result.perGpu.peakPhase, perCpuTotal: a.result.perCpu.total, fits: a.result.fits }))
      : [],
    /** The training context as the editor shows it, each value with where it came from. */
    context: contextView(run.analysis),
    current: run.analysis.current,
    inputs: reportedInputs(args, run, input),
    notes: [...new Set([...run.notes, ...selected.notes])],
    errsHigh: selected.errsHigh,
  };
}

/** The models a run holds besides the trained one, by their role: "reference model Qwen3-8B". */
function extraModelWords(role: string, name: string, t: Translate): string {
  switch (role) {
    case 'reference':
      return t('reference model {0}', name);
    case 'reward':
      return t('reward model {0}', name);
    case 'value':
      return t('value model {0}', name);
    case 'teacher':
      return t('teacher model {0}', name);
    default:
      return `${role} ${name}`;
  }
}

/** The workload facts that change the estimate, in a few words. */
function workloadWords(i: EstimateInput, t: Translate): string {
  const words: string[] = [];
  if (i.attention) words.push(t('{0} attention', i.attention));
  if (i.loss && i.loss !== 'standard') words.push({ liger: t('liger fused loss'), chunked: t('chunked loss'), logprobs: t('per-token log-probs loss'), jsd: t('GKD divergence over the full vocabulary') }[i.loss]);
  if (i.packing) words.push(t('packing'));
  if (i.paddingFree) words.push(t('padding-free'));
  if (i.sequenceParallel && i.sequenceParallel > 1) words.push(t('sequence parallel {0}', i.sequenceParallel));
  if (i.frozenParams) words.push(t('{0} frozen (vision tower)', formatCount(i.frozenParams)));
  for (const m of i.extraModels ?? []) words.push(extraModelWords(m.role, m.model.displayName, t) + (m.trainable ? t(' (trained)') : ''));
  if (i.rollout) {
    const engine = i.rollout.engine;
    words.push(engine === 'vllm-colocate' ? t('vLLM colocated ({0} of the GPU)', i.rollout.gpuMemoryUtilization ?? 0.9) : engine === 'generate' ? t('rollouts with generate') : t('vLLM server'));
  }
  return words.length ? t({ message: '; ', comment: 'between the clauses of a list' }) + joinList(t, words) : '';
}

/** The training setup in one line: nodes, GPUs, precision, optimizer and the GPU's size. */
function setupLine(i: EstimateInput, t: Translate): string {
  const nodes = i.nodes > 1 ? t('{0} nodes', i.nodes) : t('1 node');
  const gpus = i.gpusPerNode > 1 ? t('{0} GPUs', i.gpusPerNode) : t('1 GPU');
  const memory = i.gpuMemoryBytes ? t('; {0} per GPU', formatGiB(i.gpuMemoryBytes)) : t('; GPU size unknown (--gpu-memory)');
  return t('Setup: {0} × {1} = {2}; {3}, {4}', nodes, gpus, i.gpusPerNode * i.nodes, i.precision, i.optimizer) + memory;
}

/** What the run trains on and how: batch, sequence, checkpointing, LoRA, the engine and the workload facts. */
function workloadLine(i: EstimateInput, t: Translate): string {
  const checkpointing = i.gradientCheckpointing ? t('on') : t('off');
  const lora = i.lora ? t(', LoRA rank {0}', i.lora.rank) + (i.lora.quantBits ? t(' (QLoRA 4-bit)') : '') : t(', full fine-tuning');
  const torch = i.engine !== 'torch' ? '' : i.ddp ? t('; plain PyTorch DDP, weights in {0}', i.torchDtype ?? i.precision) : t('; plain PyTorch, weights in {0}', i.torchDtype ?? i.precision);
  return t('Workload: micro-batch {0}, gradient accumulation {1}, sequence {2}, gradient checkpointing {3}', i.microBatch, i.gradientAccumulationSteps, i.seqLen, checkpointing) + lora + torch + workloadWords(i, t);
}

/** The text report, in the reader's language (`t`); the numbers are the JSON report's. */
export function textReport(args: EstimateArgs, run: EstimateRun, t: Translate = english): string {
  const i = run.analysis.input!;
  const m = i.model;
  const selected = selectedResult(args, run, t);
  const running = args.mode === 'full' ? run.analysis.alternatives.find((a) => a.current) : undefined;
  const out: string[] = [];
  if (run.file) out.push(t('File: {0}', run.file));
  // A script's config is another file, a preset or one its program builds from flags: say which the numbers use.
  const config = configName(run.analysis.configPath, t);
  if (run.file && run.analysis.engine === 'deepspeed' && config !== configName(run.file, t)) out.push(t('DeepSpeed config: {0}', config));
  const count = m.totalParams.toLocaleString('en-US');
  // A model given as --params is named by its count: said once.
  out.push(
    m.id === 'custom'
      ? t('Model: {0} params ({1}), largest layer {2}', formatCount(m.totalParams), count, formatCount(m.largestLayerParams))
      : t('Model: {0} — {1} params ({2}), largest layer {3}', m.displayName, formatCount(m.totalParams), count, formatCount(m.largestLayerParams)),
  );
  out.push(setupLine(i, t));
  if (args.mode === 'deepspeed') {
    out.push('', t("DeepSpeed's estimator (model states only: no activations, buffers or CUDA context):"), '');
    for (const stage of [2, 3] as const) {
      out.push(formatDeepSpeedTable({ totalParams: m.totalParams, largestLayerParams: m.largestLayerParams, gpusPerNode: i.gpusPerNode, nodes: i.nodes, stage, legacyZero2: args.deepspeed.legacyZero2.value, additionalBufferFactor: args.deepspeed.additionalBufferFactor.value }));
    }
    const zeroInit = `zero_init=${args.deepspeed.zeroInit.value ? 1 : 0}`;
    out.push(t('Selected ({0}, {1}): {2} per GPU, {3} per CPU — {4}', optionLabel(i, t), zeroInit, formatGiB(selected.perGpu.total), formatGiB(selected.perCpu.total), fitMark(selected.fits, t)));
  } else {
    out.push(workloadLine(i, t), '');
    const columns = stages.map((stage) => ({ stage, label: stage === 0 && i.engine === 'torch' ? torchLabel(i, t) : optionLabel({ ...i, stage }, t), result: resultAt(args, i, stage, t) }));
    out.push(formatStageTable(columns, running ? undefined : i.stage, t).trimEnd());
    const side = alternativeLines(run, i.gpuMemoryBytes !== undefined, t);
    if (side.length) out.push('', ...side);
    const mark = fitMark(selected.fits, t);
    const what = running ? running.label : t('selected stage');
    out.push(
      '',
      selected.perGpu.peakPhase
        ? t('* {0}: {1}, peak in the {2}; total per GPU = reserved + CUDA context and NCCL (what nvidia-smi shows), allocated = live tensors.', what, mark, phaseLabel(selected.perGpu.peakPhase, t))
        : t('* {0}: {1}; total per GPU = reserved + CUDA context and NCCL (what nvidia-smi shows), allocated = live tensors.', what, mark),
    );
  }
  const notes = [...new Set([...run.notes, ...selected.notes])];
  if (notes.length) out.push('', t('Notes:'), ...notes.map((n) => `  - ${n}`));
  if (args.mode !== 'deepspeed' && selected.errsHigh.length) out.push('', t('Errs high where unsure:'), ...selected.errsHigh.map((n) => `  - ${n}`));
  return out.join('\n') + '\n';
}

/** The FSDP rows (and the run's Megatron layout) beside the ZeRO table: total, allocated, reserved per GPU and CPU per node. */
function alternativeLines(run: EstimateRun, judged: boolean, t: Translate): string[] {
  const rows = run.analysis.alternatives;
  if (!rows.length) return [];
  const width = Math.max(...rows.map((r) => textWidth(r.label))) + 2;
  const columns: [string, (r: (typeof rows)[number]) => number, number][] = [
    [t('total'), (r) => r.result.perGpu.total, 9],
    [t('allocated'), (r) => r.result.perGpu.allocated, 10],
    [t('reserved'), (r) => r.result.perGpu.reserved, 9],
    [t('CPU/node'), (r) => r.result.perCpu.total, 9],
  ];
  // A column is as wide as its header and a space (Chinese headers take two terminal columns a character).
  const widths = columns.map(([head, , least]) => Math.max(least, textWidth(head) + 1));
  const out = [`${'GiB'.padEnd(width + 2)}${columns.map(([head], i) => padColumns(head, widths[i], 'start')).join('')}${judged ? `  ${t('fits')}` : ''}`];
  for (const r of rows) {
    const cells = columns.map(([, bytes], i) => formatGiBValue(bytes(r)).padStart(widths[i])).join('');
    out.push(`${r.current ? '* ' : '  '}${padColumns(r.label, width, 'end')}${cells}${judged ? `  ${fitMark(r.result.fits, t)}` : ''}`);
  }
  return out;
}
