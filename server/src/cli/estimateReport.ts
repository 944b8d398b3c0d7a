/** What `zero-lens estimate` prints: the JSON document and the text tables. */
import { formatCount, formatGiB, formatGiBValue, optionLabel, phaseLabel, type Source, type ZeroStage } from '../protocol';
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

function resultAt(args: EstimateArgs, input: EstimateInput, stage: ZeroStage): EstimateResult | undefined {
  // The run's own stage keeps its engine (DDP without DeepSpeed); the other columns, and every column of an FSDP or
  // Megatron run, are what DeepSpeed would hold.
  const own = input.engine === 'torch' && (stage === input.stage || stage === 0);
  const at: EstimateInput = { ...input, stage, engine: own ? 'torch' : 'deepspeed' };
  return args.mode === 'deepspeed'
    ? estimateDeepSpeedResult(at, { zeroInit: args.deepspeed.zeroInit.value, legacyZero2: args.deepspeed.legacyZero2.value, additionalBufferFactor: args.deepspeed.additionalBufferFactor.value })
    : estimate(at);
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

export function jsonReport(args: EstimateArgs, run: EstimateRun): string {
  return JSON.stringify(jsonReportObject(args, run), null, 2) + '\n';
}

/** The JSON document `--format json` prints, as an object. */
/** The run as written: its ZeRO stage, or (full mode) its FSDP strategy or Megatron layout. */
function selectedResult(args: EstimateArgs, run: EstimateRun): EstimateResult {
  const input = run.analysis.input!;
  const running = args.mode === 'full' ? run.analysis.alternatives.find((a) => a.current) : undefined;
  return running?.result ?? resultAt(args, input, input.stage)!;
}

export function jsonReportObject(args: EstimateArgs, run: EstimateRun) {
  const input = run.analysis.input!;
  const selected = selectedResult(args, run);
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
      const result = resultAt(args, input, stage);
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

/** The workload facts that change the estimate, in a few words. */
function workloadWords(i: EstimateInput): string {
  const words: string[] = [];
  if (i.attention) words.push(`${i.attention} attention`);
  if (i.loss && i.loss !== 'standard') words.push({ liger: 'liger fused loss', chunked: 'chunked loss', logprobs: 'per-token log-probs loss' }[i.loss]);
  if (i.packing) words.push('packing');
  if (i.paddingFree) words.push('padding-free');
  if (i.sequenceParallel && i.sequenceParallel > 1) words.push(`sequence parallel ${i.sequenceParallel}`);
  if (i.frozenParams) words.push(`${formatCount(i.frozenParams)} frozen (vision tower)`);
  for (const m of i.extraModels ?? []) words.push(`${m.role} model ${m.model.displayName}${m.trainable ? ' (trained)' : ''}`);
  if (i.rollout) words.push(i.rollout.engine === 'vllm-colocate' ? `vLLM colocated (${i.rollout.gpuMemoryUtilization ?? 0.9} of the GPU)` : i.rollout.engine === 'generate' ? 'rollouts with generate' : 'vLLM server');
  return words.length ? `; ${words.join(', ')}` : '';
}

export function textReport(args: EstimateArgs, run: EstimateRun): string {
  const i = run.analysis.input!;
  const m = i.model;
  const selected = selectedResult(args, run);
  const running = args.mode === 'full' ? run.analysis.alternatives.find((a) => a.current) : undefined;
  const out: string[] = [];
  const gpus = i.gpusPerNode * i.nodes;
  if (run.file) out.push(`File: ${run.file}`);
  out.push(`Model: ${m.displayName} — ${formatCount(m.totalParams)} params (${m.totalParams.toLocaleString('en-US')}), largest layer ${formatCount(m.largestLayerParams)}`);
  out.push(
    `Setup: ${i.nodes} node${i.nodes > 1 ? 's' : ''} × ${i.gpusPerNode} GPU${i.gpusPerNode > 1 ? 's' : ''} = ${gpus}; ${i.precision}, ${i.optimizer}` +
      (i.gpuMemoryBytes ? `; ${formatGiB(i.gpuMemoryBytes)} per GPU` : '; GPU size unknown (--gpu-memory)'),
  );
  if (args.mode === 'deepspeed') {
    out.push('', "DeepSpeed's estimator (model states only: no activations, buffers or CUDA context):", '');
    for (const stage of [2, 3] as const) {
      out.push(formatDeepSpeedTable({ totalParams: m.totalParams, largestLayerParams: m.largestLayerParams, gpusPerNode: i.gpusPerNode, nodes: i.nodes, stage, legacyZero2: args.deepspeed.legacyZero2.value, additionalBufferFactor: args.deepspeed.additionalBufferFactor.value }));
    }
    out.push(`Selected (${optionLabel(i)}, zero_init=${args.deepspeed.zeroInit.value ? 1 : 0}): ${formatGiB(selected.perGpu.total)} per GPU, ${formatGiB(selected.perCpu.total)} per CPU — ${fitMark(selected.fits)}`);
  } else {
    out.push(
      `Workload: micro-batch ${i.microBatch}, gradient accumulation ${i.gradientAccumulationSteps}, sequence ${i.seqLen}, gradient checkpointing ${i.gradientCheckpointing ? 'on' : 'off'}` +
        (i.lora ? `, LoRA rank ${i.lora.rank}${i.lora.quantBits ? ' (QLoRA 4-bit)' : ''}` : ', full fine-tuning') +
        (i.engine === 'torch' ? `; plain PyTorch${i.ddp ? ' DDP' : ''}, weights in ${i.torchDtype ?? i.precision}` : '') +
        workloadWords(i),
      '',
    );
    const columns = stages.map((stage) => ({ stage, label: stage === 0 && i.engine === 'torch' ? torchLabel(i) : optionLabel({ ...i, stage }), result: resultAt(args, i, stage) }));
    out.push(formatStageTable(columns, running ? undefined : i.stage).trimEnd());
    out.push('', ...alternativeLines(run, i.gpuMemoryBytes !== undefined));
    const peak = selected.perGpu.peakPhase ? `, peak in the ${phaseLabel(selected.perGpu.peakPhase)}` : '';
    out.push('', `* ${running ? running.label : 'selected stage'}: ${fitMark(selected.fits)}${peak}; total per GPU = reserved + CUDA context and NCCL (what nvidia-smi shows), allocated = live tensors.`);
  }
  const notes = [...new Set([...run.notes, ...selected.notes])];
  if (notes.length) out.push('', 'Notes:', ...notes.map((n) => `  - ${n}`));
  if (args.mode !== 'deepspeed' && selected.errsHigh.length) out.push('', 'Errs high where unsure:', ...selected.errsHigh.map((n) => `  - ${n}`));
  return out.join('\n') + '\n';
}

/** The FSDP rows (and the run's Megatron layout) beside the ZeRO table: total, allocated, reserved per GPU and CPU per node. */
function alternativeLines(run: EstimateRun, judged: boolean): string[] {
  const rows = run.analysis.alternatives;
  if (!rows.length) return [];
  const width = Math.max(...rows.map((r) => r.label.length)) + 2;
  const num = (bytes: number) => formatGiBValue(bytes).padStart(9);
  const out = [`${'GiB'.padEnd(width + 2)}${'total'.padStart(9)}${'allocated'.padStart(10)}${'reserved'.padStart(9)}${'CPU/node'.padStart(9)}${judged ? '  fits' : ''}`];
  for (const r of rows) {
    const g = r.result.perGpu;
    out.push(`${r.current ? '* ' : '  '}${r.label.padEnd(width)}${num(g.total)} ${num(g.allocated)}${num(g.reserved)}${num(r.result.perCpu.total)}${judged ? `  ${fitMark(r.result.fits)}` : ''}`);
  }
  return out;
}
