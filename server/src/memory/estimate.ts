import { activationBytes } from './activations';
import { bufferBytes, resolveBuffers } from './buffers';
import { frozenWeightBytes, loraLargestParam, loraLargestParamRough, loraTrainableParams, loraTrainableParamsRough } from './lora';
import { modelStates } from './modelStates';
import { optimizerStateBytes } from './optimizers';
import { countParams, type ParamCount } from './paramCount';
import type { EstimateInput, EstimateResult, OffloadDevice, StageOption, ZeroStage } from './types';
import { optionLabel } from '../protocol/options';

/**
 * The estimator: per-GPU, per-node CPU and NVMe bytes for one training setup. Pure arithmetic over the
 * input, no I/O, a few microseconds. docs/memory-model.md explains every term.
 */

/**
 * Whether DeepSpeed routes this setup to BF16_Optimizer: bf16 with fp32 gradient accumulation at ZeRO-1
 * without CPU offload (engine.py:1994, _do_optimizer_sanity_check; zero_cpu_offload() is true for device cpu
 * only, so NVMe offload still gets BF16_Optimizer, which has no offload). grad_accum_dtype defaults to the model
 * dtype; without ZeRO, bf16 with bf16 accumulation uses the FP16_Optimizer wrapper and fp32 accumulation is refused.
 */
export function usesBf16Optimizer(input: Pick<EstimateInput, 'precision' | 'stage' | 'fp32GradAccum' | 'offloadOptimizer'>): boolean {
  return input.precision === 'bf16' && input.fp32GradAccum === true && input.stage === 1 && input.offloadOptimizer !== 'cpu';
}

export function estimate(input: EstimateInput): EstimateResult {
  const notes: string[] = [];
  const model = input.model;
  const arch = model.architecture;
  const stage = input.stage;
  const gpus = Math.max(1, input.gpusPerNode) * Math.max(1, input.nodes);
  const mixed = input.precision !== 'fp32';
  const elementBytes = mixed ? 2 : 4;
  const zero = stage > 0;

  // Master weights and the gradient the optimizer steps with.
  const bf16Master = input.precision === 'bf16' && zero && input.bf16MasterWeightsAndGrads === true;
  const statesIn16Bit = input.precision === 'bf16' && zero && input.bf16OptimizerStates === true;
  const masterDtypeBytes = mixed ? (bf16Master ? 2 : 4) : zero ? 4 : 0;
  // ZeRO-3 steps on the weight partition itself when it already has the master dtype and stays on the GPU
  // (stage3.py, _create_fp32_partitions): fp32 training, or bf16 master weights, without optimizer offload.
  const sharedMaster = stage === 3 && input.offloadOptimizer === 'none' && (input.precision === 'fp32' || bf16Master);
  const masterBytes = sharedMaster ? 0 : masterDtypeBytes;
  // ZeRO steps on its own copy of the shard's gradient; FP16_Optimizer on a full fp32 copy.
  const optimizerGradBytes = zero ? masterDtypeBytes : mixed ? 4 : 0;
  const bf16Path = usesBf16Optimizer(input);
  // fp32 accumulation of a 16-bit model; data_types.grad_accum_dtype defaults to the model dtype (engine.py, get_data_types).
  const fp32Accum = mixed && input.fp32GradAccum === true;
  const gradAccumBytes = zero && fp32Accum ? 4 : elementBytes;
  if (!zero && (input.bf16MasterWeightsAndGrads || input.bf16OptimizerStates)) {
    notes.push('bf16 master weights / optimizer states need ZeRO stage 1–3; ignored at stage 0.');
  }
  if (!zero && fp32Accum) {
    notes.push(`DeepSpeed refuses ${input.precision} with fp32 gradient accumulation without ZeRO (NotImplementedError); counted with ${input.precision} accumulation.`);
  }
  const accumNote = zero && fp32Accum && !bf16Path ? fp32AccumulationNote(stage, input.offloadOptimizer !== 'none') : undefined;
  if (accumNote) notes.push(accumNote);

  // Trainable vs frozen parameters.
  let counts: ParamCount | undefined;
  let trainable = model.totalParams;
  let weightBytes = model.totalParams * elementBytes;
  const lora = input.lora && input.lora.rank > 0 ? input.lora : undefined;
  if (lora) {
    counts = arch ? countParams(arch) : undefined;
    trainable = arch ? loraTrainableParams(arch, lora) : loraTrainableParamsRough(model.totalParams, lora);
    if (!arch) notes.push('LoRA adapter size is a rough guess: the model has no architecture facts.');
    weightBytes = frozenWeightBytes(counts, model.totalParams, elementBytes, lora) + trainable * elementBytes;
  }
  const totalParams = model.totalParams + (lora ? trainable : 0);
  // The largest parameter the optimizer holds: ZeRO-1/2 take it over bit16_groups, the trainable params
  // (stage_1_and_2.py:379-385, 558-567). The largest layer's weight for full fine-tuning, an adapter with LoRA.
  let largestTrainable = Math.min(model.largestLayerParams, trainable);
  if (lora) largestTrainable = arch ? loraLargestParam(arch, lora) : loraLargestParamRough(model.totalParams, lora);

  const needsEmbedding = input.optimizer === 'muon';
  if (needsEmbedding && !counts && arch) counts = countParams(arch);
  const optimizerStates = optimizerStateBytes({
    optimizer: input.optimizer,
    statesIn16Bit,
    trainable,
    architecture: arch,
    loraRank: lora?.rank,
    embeddingParams: lora ? 0 : counts ? counts.embedding + counts.lmHead : 0,
  });

  const buffers = resolveBuffers(stage, input.buffers);
  const offloadOptimizer = zero ? input.offloadOptimizer : 'none';
  const offloadParam = stage === 3 ? input.offloadParam : 'none';
  if (!zero && input.offloadOptimizer !== 'none') notes.push('Optimizer offload needs ZeRO stage 1 or higher; ignored at stage 0.');
  if (stage !== 3 && input.offloadParam !== 'none') notes.push('Parameter offload exists only at ZeRO stage 3; ignored.');
  if (bf16Path && input.offloadOptimizer === 'nvme') notes.push('BF16_Optimizer has no offload (DeepSpeed keeps the ZeRO optimizer only for offload device cpu); NVMe offload ignored.');
  else if (zero && stage < 3 && input.offloadOptimizer === 'nvme') notes.push('NVMe offload needs ZeRO stage 3; counted as CPU offload.');
  if (bf16Path) notes.push('bf16 with fp32 gradient accumulation uses DeepSpeed BF16_Optimizer: a full fp32 gradient buffer per GPU.');

  const states = modelStates({
    stage,
    precision: input.precision,
    weightBytes,
    trainable,
    elementBytes,
    gradAccumBytes,
    masterBytes,
    optimizerGradBytes,
    optimizerStates,
    bf16OptimizerPath: bf16Path,
    gradientAccumulationSteps: input.gradientAccumulationSteps,
    gpus,
    offloadOptimizer,
    offloadParam,
    subGroupSize: buffers.subGroupSize,
    maxParamsInCpu: buffers.maxParamsInCpu,
    largestLayerParams: model.largestLayerParams,
    largestTrainableParam: largestTrainable,
  });

  let activations = 0;
  if (arch) {
    activations = activationBytes({
      architecture: arch,
      microBatch: input.microBatch,
      seqLen: input.seqLen,
      bytes: elementBytes,
      flashAttention: input.flashAttention,
      gradientCheckpointing: input.gradientCheckpointing,
    }).total;
  } else {
    notes.push('Activations not counted: give a model id or folder so its layers are known.');
  }

  const buffer = bufferBytes({
    stage,
    buffers,
    elementBytes,
    trainable,
    totalParams,
    largestLayerParams: model.largestLayerParams,
    paramElementBytes: elementBytes,
    // BF16_Optimizer ignores NVMe offload (see above).
    offloadOptimizer: bf16Path ? 'none' : offloadOptimizer,
    largestTrainableParam: largestTrainable,
  });

  const gpu = states.gpu;
  const subtotal = gpu.params + gpu.gradients + gpu.optimizerStates + activations + buffer;
  const overhead = input.cudaContextBytes + input.fragmentation * subtotal;
  const total = Math.round(subtotal + overhead);

  const perNode = Math.max(1, input.gpusPerNode);
  const cpu = states.cpu;
  const cpuParams = Math.round(cpu.params * perNode);
  const cpuGradients = Math.round(cpu.gradients * perNode);
  const cpuOptimizer = Math.round(cpu.optimizerStates * perNode);
  const cpuTotal = cpuParams + cpuGradients + cpuOptimizer;
  const alwaysPinned = Math.round(states.cpuAlwaysPinned * perNode);
  if (states.cpuAccumulationBuffer > 0) {
    notes.push(`Gradient accumulation (${input.gradientAccumulationSteps} steps) with ZeRO-${stage} optimizer offload: each rank keeps its partition's gradients in a CPU buffer between micro-steps (accumulated_grads_in_cpu), ${elementBytes} bytes/param.`);
  }
  // offload_*.pin_memory defaults to true since DeepSpeed 0.19.5 (offload_config.py).
  const pinMemory = input.pinMemory ?? true;
  const pinned = pinMemory ? cpuTotal : alwaysPinned;
  if (cpuTotal > 0) notes.push(pinMemory ? `Offloaded CPU memory is pinned (pin_memory: true${input.pinMemory === undefined ? ', the default' : ''}).` : 'Offloaded CPU memory is pageable (pin_memory: false); NVMe swap buffers and the CPU copy of NVMe-offloaded params are always pinned.');

  return {
    perGpu: {
      params: Math.round(gpu.params),
      gradients: Math.round(gpu.gradients),
      optimizerStates: Math.round(gpu.optimizerStates),
      activations: Math.round(activations),
      buffers: Math.round(buffer),
      overhead: Math.round(overhead),
      total,
    },
    perCpu: { params: cpuParams, gradients: cpuGradients, optimizerStates: cpuOptimizer, total: cpuTotal, pinned },
    nvme: Math.round(states.nvme * perNode),
    fits: input.gpuMemoryBytes === undefined ? null : total <= input.gpuMemoryBytes,
    notes,
  };
}

/** Why fp32 gradient accumulation outside BF16_Optimizer costs what it does at this stage (undefined: nothing). */
function fp32AccumulationNote(stage: ZeroStage, offloaded: boolean): string | undefined {
  if (stage === 1) return 'fp32 gradient accumulation at ZeRO-1: every gradient is kept as an fp32 copy on the GPU until the step (param.grad_accum), 4 bytes/param instead of 2.';
  if (stage === 3) return `fp32 gradient accumulation at ZeRO-3: the gradient partition is fp32, 4 bytes/param instead of 2 (${offloaded ? 'in CPU memory under optimizer offload' : 'on the GPU'}).`;
  return undefined;
}

const stageChoices: Array<[ZeroStage, OffloadDevice, OffloadDevice]> = [
  [0, 'none', 'none'],
  [1, 'none', 'none'],
  [1, 'cpu', 'none'],
  [2, 'none', 'none'],
  [2, 'cpu', 'none'],
  [3, 'none', 'none'],
  [3, 'cpu', 'none'],
  [3, 'cpu', 'cpu'],
];

/** The same setup at every stage: stages 0–3, CPU optimizer offload at 1–3, CPU param offload at 3. */
export function estimateAllOptions(input: EstimateInput): StageOption[] {
  return stageChoices.map(([stage, offloadOptimizer, offloadParam]) => ({
    stage,
    offloadOptimizer,
    offloadParam,
    label: optionLabel({ stage, offloadOptimizer, offloadParam }),
    // overlap_comm's default depends on the stage, so a user's explicit value is kept and the rest re-derived.
    result: estimate({ ...input, stage, offloadOptimizer, offloadParam }),
  }));
}
