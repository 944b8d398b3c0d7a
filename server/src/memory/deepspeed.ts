import type { DeepSpeedEstimateInput } from './types';
import { fixed2Ratio, GiB } from './units';

/**
 * DeepSpeed's own model-state estimators, reproduced to the byte:
 * `estimate_zero2_model_states_mem_needs` (deepspeed/runtime/zero/stage_1_and_2.py) and
 * `estimate_zero3_model_states_mem_needs` (deepspeed/runtime/zero/stage3.py).
 * Python evaluates these left to right in doubles and truncates with int(); the expressions below keep
 * the same order so every rounding step matches.
 */
export interface DeepSpeedEstimate {
  /** Per node ("per CPU"), bytes. */
  cpu: number;
  /** Per GPU, bytes. */
  gpu: number;
  /** ZeRO-3 only: 4 × largest layer (its 16-bit params and grads gathered on the GPU). */
  largestLayerMemory?: number;
}

export const deepSpeedDefaults = { additionalBufferFactor: 1.5, zeroInit: true, legacyZero2: false } as const;

export function deepSpeedZero2(
  totalParams: number,
  gpusPerNode: number,
  nodes: number,
  cpuOffload: boolean,
  additionalBufferFactor = 1.5,
  legacy = false,
): DeepSpeedEstimate {
  const totalGpus = nodes * gpusPerNode;
  let gpu: number;
  let cpu: number;
  if (cpuOffload) {
    gpu = 2 * totalParams;
    // DeepSpeed's code uses all GPUs of all nodes here, though its docs say GPUs per node.
    cpu = totalParams * Math.max(4 * totalGpus, 16) * additionalBufferFactor;
  } else {
    gpu = legacy
      ? 4 * totalParams + Math.trunc((16 * totalParams) / totalGpus)
      : 2 * totalParams + Math.trunc((18 * totalParams) / totalGpus);
    cpu = totalParams * 4 * gpusPerNode * additionalBufferFactor;
  }
  return { cpu: Math.trunc(cpu), gpu: Math.trunc(gpu) };
}

export function deepSpeedZero3(
  totalParams: number,
  largestLayerParams: number,
  gpusPerNode: number,
  nodes: number,
  cpuOffload: boolean,
  cpuOffloadParams: boolean,
  zeroInit: boolean,
  additionalBufferFactor = 1.5,
): DeepSpeedEstimate {
  const totalGpus = nodes * gpusPerNode;
  const gpusFactor = 1 / nodes;
  const largestLayerMemory = 4 * largestLayerParams;
  let gpu: number;
  let cpu: number;
  if (cpuOffload) {
    if (cpuOffloadParams) {
      gpu = largestLayerMemory;
      cpu = zeroInit
        ? totalParams * 18 * gpusFactor * additionalBufferFactor
        : totalParams * Math.max(4 * gpusPerNode, 18 * gpusFactor) * additionalBufferFactor;
    } else {
      gpu = largestLayerMemory + Math.trunc((2 * totalParams) / totalGpus);
      cpu = zeroInit
        ? totalParams * 16 * gpusFactor * additionalBufferFactor
        : totalParams * Math.max(4 * gpusPerNode, 16 * gpusFactor) * additionalBufferFactor;
    }
  } else {
    gpu = largestLayerMemory + Math.trunc((18 * totalParams) / totalGpus);
    cpu = zeroInit
      ? largestLayerParams * 4 * gpusPerNode * additionalBufferFactor
      : totalParams * 4 * gpusPerNode * additionalBufferFactor;
  }
  return { cpu: Math.trunc(cpu), gpu: Math.trunc(gpu), largestLayerMemory };
}

/** One call for either stage, from the contract's input type. */
export function estimateDeepSpeed(input: DeepSpeedEstimateInput): DeepSpeedEstimate {
  if (input.stage === 2) {
    return deepSpeedZero2(input.totalParams, input.gpusPerNode, input.nodes, input.offloadOptimizer, input.additionalBufferFactor, input.legacyZero2);
  }
  return deepSpeedZero3(
    input.totalParams,
    input.largestLayerParams,
    input.gpusPerNode,
    input.nodes,
    input.offloadOptimizer,
    // DeepSpeed only offloads params together with the optimizer; param offload alone has no row.
    input.offloadOptimizer && input.offloadParam,
    input.zeroInit,
    input.additionalBufferFactor,
  );
}

/** DeepSpeed's `{x:7.2f}` / `{x:6.2f}` of bytes / 2**30. */
function gbCell(bytes: number, width: number): string {
  return fixed2Ratio(bytes, GiB).padStart(width);
}

/** `f'{OffloadDeviceEnum.cpu:4}'` as Python before 3.12 prints it. */
const paddedCpu = 'cpu ';

export interface DeepSpeedTableOptions {
  totalParams: number;
  largestLayerParams: number;
  gpusPerNode: number;
  nodes: number;
  stage: 2 | 3;
  additionalBufferFactor?: number;
  legacyZero2?: boolean;
}

/** One printed row: the numbers as DeepSpeed computes them and the exact text it prints. */
export interface DeepSpeedTableRow {
  offloadOptimizer: boolean;
  offloadParam: boolean;
  zeroInit: boolean;
  cpu: number;
  gpu: number;
  text: string;
}

export function deepSpeedTableRows(o: DeepSpeedTableOptions): DeepSpeedTableRow[] {
  const abf = o.additionalBufferFactor ?? deepSpeedDefaults.additionalBufferFactor;
  const rows: DeepSpeedTableRow[] = [];
  const row = (offloadOptimizer: boolean, offloadParam: boolean, zeroInit: boolean, r: DeepSpeedEstimate, options: string) =>
    rows.push({ offloadOptimizer, offloadParam, zeroInit, cpu: r.cpu, gpu: r.gpu, text: ` ${gbCell(r.cpu, 7)}GB | ${gbCell(r.gpu, 6)}GB | ${options}` });
  if (o.stage === 2) {
    for (const offload of [true, false]) {
      const r = deepSpeedZero2(o.totalParams, o.gpusPerNode, o.nodes, offload, abf, o.legacyZero2 ?? false);
      row(offload, false, true, r, `offload_optimizer=${offload ? paddedCpu : 'none'}`);
    }
    return rows;
  }
  for (const offloadOptimizer of [true, false]) {
    for (const offloadParam of [true, false]) {
      if (!offloadOptimizer && offloadParam) continue;
      for (const zeroInit of [true, false]) {
        const r = deepSpeedZero3(o.totalParams, o.largestLayerParams, o.gpusPerNode, o.nodes, offloadOptimizer, offloadParam, zeroInit, abf);
        const options = `offload_param=${offloadParam ? paddedCpu : 'none'}, offload_optimizer=${offloadOptimizer ? paddedCpu : 'none'}, zero_init=${zeroInit ? 1 : 0}`;
        row(offloadOptimizer, offloadParam, zeroInit, r, options);
      }
    }
  }
  return rows;
}

/**
 * The whole table as `estimate_zero{2,3}_model_states_mem_needs_all_cold` prints it: DeepSpeed's own English, line
 * for line, so `--mode deepspeed` can be compared with DeepSpeed's output (the report's own lines around it are
 * in the reader's language).
 */
// l10n-ignore-start: DeepSpeed's printout, reproduced as DeepSpeed prints it
export function formatDeepSpeedTable(o: DeepSpeedTableOptions): string {
  const millions = (n: number) => Math.trunc(n / 1e6);
  const software =
    o.stage === 3
      ? `SW: Model with ${millions(o.totalParams)}M total params, ${millions(o.largestLayerParams)}M largest layer params.`
      : `SW: Model with ${millions(o.totalParams)}M total params.`;
  const lines = [
    'Estimated memory needed for params, optim states and gradients for a:',
    `HW: Setup with ${o.nodes} ${o.nodes > 1 ? 'nodes' : 'node'}, ${o.gpusPerNode} ${o.gpusPerNode > 1 ? 'GPUs' : 'GPU'} per node.`,
    software,
    '  per CPU  |  per GPU |   Options',
    ...deepSpeedTableRows(o).map((r) => r.text),
  ];
  return lines.join('\n') + '\n';
}
// l10n-ignore-end
