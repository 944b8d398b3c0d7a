/** What `zero-lens estimate` prints: the JSON document and the text tables. */
import { formatCount, formatGiB, optionLabel, type Source, type ZeroStage } from '../protocol';
import { estimate } from '../memory/estimate';
import { estimateDeepSpeedResult } from '../memory/deepspeedResult';
import { formatDeepSpeedTable } from '../memory/deepspeed';
import { resolveBuffers } from '../memory/buffers';
import { fitMark, formatStageTable } from '../memory/report';
import type { EstimateInput, EstimateResult } from '../memory/types';
import { contextView } from '../training/contextView';
import type { EstimateArgs } from './estimateArgs';
import type { EstimateRun } from './estimate';

/** The JSON output's version: a consumer that reads it can check it has the shape it expects. */
export const estimateSchemaVersion = 1;

const stages: ZeroStage[] = [0, 1, 2, 3];

function resultAt(args: EstimateArgs, input: EstimateInput, stage: ZeroStage): EstimateResult | undefined {
  const at: EstimateInput = { ...input, stage };
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
  const input = run.analysis.input!;
  const selected = resultAt(args, input, input.stage)!;
  const output = {
    schemaVersion: estimateSchemaVersion,
    mode: args.mode,
    file: run.file ?? null,
    model: { id: input.model.id, displayName: input.model.displayName },
    perGpu: selected.perGpu,
    perCpu: selected.perCpu,
    nvme: selected.nvme,
    fits: selected.fits,
    stages: stages.map((stage) => {
      const result = resultAt(args, input, stage);
      return { stage, label: optionLabel({ ...input, stage }), perGpuTotal: result ? result.perGpu.total : null, fits: result ? result.fits : null };
    }),
    /** The training context as the editor shows it, each value with where it came from. */
    context: contextView(run.analysis),
    current: run.analysis.current,
    inputs: reportedInputs(args, run, input),
    notes: [...new Set([...run.notes, ...selected.notes])],
  };
  return JSON.stringify(output, null, 2) + '\n';
}

export function textReport(args: EstimateArgs, run: EstimateRun): string {
  const i = run.analysis.input!;
  const m = i.model;
  const selected = resultAt(args, i, i.stage)!;
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
        (i.lora ? `, LoRA rank ${i.lora.rank}${i.lora.quantBits ? ' (QLoRA 4-bit)' : ''}` : ', full fine-tuning'),
      '',
    );
    const columns = stages.map((stage) => ({ stage, label: optionLabel({ ...i, stage }), result: resultAt(args, i, stage) }));
    out.push(formatStageTable(columns, i.stage).trimEnd());
    out.push('', `* selected stage: ${fitMark(selected.fits)}`);
  }
  const notes = [...new Set([...run.notes, ...selected.notes])];
  if (notes.length) out.push('', 'Notes:', ...notes.map((n) => `  - ${n}`));
  return out.join('\n') + '\n';
}
