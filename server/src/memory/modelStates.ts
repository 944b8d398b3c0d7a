import type { OffloadDevice, Precision, ZeroStage } from './types';

/**
 * Parameters, gradients and optimizer states of ONE rank, by where they live, for a ZeRO stage,
 * precision path and offload choice. All inputs are resolved (no defaults here) so this stays a few
 * multiplications. See docs/memory-model.md §"Model states" for the reasoning behind each term.
 */
export interface ModelStateInput {
  stage: ZeroStage;
  precision: Precision;
  /** Storage bytes of all weights (16-bit/fp32 trainable weights + frozen base weights, possibly quantised). */
  weightBytes: number;
  trainable: number;
  /** Bytes per trainable element of weights and of the gradients autograd produces (2 or 4). */
  elementBytes: number;
  /**
   * Bytes per element of the gradients ZeRO accumulates (data_types.grad_accum_dtype; the model dtype by
   * default): ZeRO-1's per-parameter copies and ZeRO-3's partition. ZeRO-2's partition stays in elementBytes.
   */
  gradAccumBytes: number;
  /** Bytes per trainable param of the master copy the optimizer updates (4, 2 with bf16 master, 0 for plain fp32). */
  masterBytes: number;
  /** Bytes per trainable param of the gradient handed to the optimizer (its own copy), 0 if none. */
  optimizerGradBytes: number;
  /** Optimizer-state bytes for all trainable params (already × trainable). */
  optimizerStates: number;
  /** bf16 with an fp32 gradient-accumulation buffer: DeepSpeed's BF16_Optimizer. */
  bf16OptimizerPath: boolean;
  /** gradient_accumulation_steps (micro-batches per optimizer step). */
  gradientAccumulationSteps: number;
  gpus: number;
  offloadOptimizer: OffloadDevice;
  offloadParam: OffloadDevice;
  subGroupSize: number;
  /** offload_param.max_in_cpu: trainable elements per rank kept in CPU memory under NVMe param offload. */
  maxParamsInCpu: number;
  largestLayerParams: number;
  /** Elements of the largest trainable parameter (the largest layer's weight, or LoRA's largest adapter). */
  largestTrainableParam: number;
}

export interface Placement {
  params: number;
  gradients: number;
  optimizerStates: number;
}

export interface ModelStates {
  /** What stays on the GPU for the whole run: weights, persistent gradient buffers, master weights and optimizer states. */
  gpu: Placement;
  /** Gradients that exist on the GPU at the end of the backward pass and are freed by the optimizer step (16-bit, or fp32 accumulation copies). */
  backwardGradients: number;
  /** The gradient copy the optimizer steps with, on the GPU during the step only (fp32 for mixed precision; one sub-group at a time under ZeRO-3). */
  stepGradient: number;
  /** The flattening copy of the 16-bit gradients the step makes before it converts them (`flatten(averaged_gradients)`). */
  stepFlatten: number;
  /** Elements the optimizer steps at once on the GPU (the rank's partition, or one ZeRO-3 sub-group); 0 when it steps on the CPU. */
  stepElements: number;
  cpu: Placement;
  /** Part of `cpu` that is page-locked regardless of pin_memory (NVMe swap buffers, NVMe params kept in CPU). */
  cpuAlwaysPinned: number;
  /** Part of `cpu.gradients` that is ZeRO-2's CPU buffer for accumulating gradients across micro-steps. */
  cpuAccumulationBuffer: number;
  nvme: number;
}

/** DeepSpeed's defaults for NVMe swapping: offload_optimizer.buffer_count and offload_param buffer_count/buffer_size. */
const OPTIMIZER_SWAP_BUFFERS = 4;
const PARAM_SWAP_BUFFERS = 5;
const PARAM_SWAP_BUFFER_SIZE = 1e8;

export function modelStates(i: ModelStateInput): ModelStates {
  const N = i.gpus;
  const T = i.trainable;
  const shardT = T / N;
  const gpu: Placement = { params: 0, gradients: 0, optimizerStates: 0 };
  const cpu: Placement = { params: 0, gradients: 0, optimizerStates: 0 };
  let nvme = 0;
  let pinned = 0;
  let accumulationBuffer = 0;

  const empty = { cpu, cpuAlwaysPinned: 0, cpuAccumulationBuffer: 0, nvme };
  if (i.bf16OptimizerPath) {
    // bf16 weights, transient bf16 grads, a FULL fp32 accumulation buffer (allocated at init and kept,
    // bf16_optimizer.py: fp32_groups_gradients_flat), master + states sharded over DP; the step works on views of it.
    gpu.params = i.weightBytes;
    gpu.gradients = 4 * T;
    gpu.optimizerStates = (4 * T + i.optimizerStates) / N;
    return { gpu, backwardGradients: 2 * T, stepGradient: 0, stepFlatten: 0, stepElements: shardT, ...empty };
  }

  const master = i.masterBytes * T;
  const stage = i.stage;
  if (stage === 0) {
    // FP16_Optimizer (and its bf16 wrapper): 16-bit gradients until the step, which converts each to fp32 and
    // flattens the converted list into the fp32 master's gradient (fused_optimizer.py:288-294,
    // `_flatten_dense_tensors([p.grad.to(data_type) ...])`): the per-parameter fp32 copies and the flat one coexist.
    gpu.params = i.weightBytes;
    gpu.optimizerStates = master + i.optimizerStates;
    return {
      gpu,
      backwardGradients: i.elementBytes * T,
      stepGradient: i.optimizerGradBytes * T,
      stepFlatten: i.optimizerGradBytes * T,
      stepElements: T,
      ...empty,
    };
  }

  // Optimizer side of one rank: master + states of its shard, and the gradient copy it steps with.
  const optimizerShard = (master + i.optimizerStates) / N;
  // ZeRO-3 steps one sub-group at a time (stage3.py, _prepare_fp32_grad_for_sub_group / step): sub-groups hold up to
  // sub_group_size partition elements; ZeRO-1/2 step the whole partition of a parameter group at once.
  const stepElements = stage === 3 ? Math.min(shardT, i.subGroupSize) : shardT;
  const optimizerGrad = i.optimizerGradBytes * shardT;

  gpu.params = stage === 3 ? i.weightBytes / N : i.weightBytes;
  // The rank's gradient partition: ZeRO-2 keeps it in the model dtype (stage_1_and_2.py, grads_in_partition, allocated
  // at the first reduction of every step and released after it), ZeRO-3 in the accumulation dtype, allocated at init
  // and kept (stage3.py:742, grad_partitions_flat_buffer).
  const gradPartition = (stage === 3 ? i.gradAccumBytes : i.elementBytes) * shardT;
  // Stage 1 keeps every parameter's full gradient until the step, converted to the accumulation dtype when that
  // differs from the model's (stage_1_and_2.py:361-364 use_grad_accum_attribute, 1123-1129 param.grad_accum).
  let backwardGradients = stage === 1 ? i.gradAccumBytes * T : stage === 2 ? gradPartition : 0;
  if (stage === 3) gpu.gradients = gradPartition;
  let stepGradient = 0;
  let stepFlatten = 0;
  let steppedOnGpu = 0;

  if (i.offloadOptimizer === 'none') {
    // The step flattens the rank's 16-bit gradients (a copy) and converts them to the master dtype
    // (stage_1_and_2.py:2352-2367, `flatten(averaged_gradients).to(fp32)`; stage3.py the same per sub-group).
    stepGradient = i.optimizerGradBytes * stepElements;
    stepFlatten = i.optimizerGradBytes > 0 ? (stage === 3 ? i.gradAccumBytes : i.elementBytes) * stepElements : 0;
    steppedOnGpu = stepElements;
    gpu.optimizerStates = optimizerShard;
  } else {
    // NVMe offload (stage 3) swaps the optimizer's gradient copy out with the states, sub-group by sub-group
    // (stage3.py:1393-1415, swap_out_gradients); CPU offload keeps it in CPU memory.
    const swapOptimizer = i.offloadOptimizer === 'nvme' && stage === 3;
    if (swapOptimizer) nvme += optimizerShard + optimizerGrad;
    else cpu.gradients = optimizerGrad;
    // Under offload no 16-bit gradient partition stays on the GPU: ZeRO-2 copies each reduced gradient straight
    // into the CPU fp32 buffer (stage_1_and_2.py, copy_grads_in_partition), and ZeRO-3 allocates its partition
    // on the offload device (stage3.py:328, self.device = cpu, also with NVMe), where it counts.
    if (stage === 2) backwardGradients = 0;
    if (stage === 3) {
      gpu.gradients = 0;
      cpu.gradients += gradPartition;
    }
    // Stages 1 and 2 also keep a 16-bit CPU copy of the rank's weight partition to copy updated weights back.
    if (stage < 3) cpu.params = i.elementBytes * shardT;
    // And a CPU buffer the size of the largest trainable parameter in the param dtype, pinned with pin_memory,
    // allocated at init and kept (temp_grad_buffer_for_cpu_offload, stage_1_and_2.py:585-590; nothing reads or
    // frees it). Its GPU twin is in buffers.ts.
    if (stage < 3) cpu.gradients += i.elementBytes * i.largestTrainableParam;
    // With more than one micro-step ZeRO-2 also carries the gradients of the rank's params from one micro-step to the
    // next in CPU buffers of the param dtype, allocated at the first and kept (stage_1_and_2.py:1525-1530, 1555-1556,
    // from copy_grads_in_partition:1656 when micro_step_id > 0 or not at the boundary). ZeRO-1 reduces only at the
    // boundary, and its micro_step_id is still 0 there: it rises in setup_buckets (2494-2495) only after an epilogue
    // (_release_ipg_buffers, 835), which stage 1 runs only at the boundary. With bf16 master weights (masterBytes 2)
    // the buffer is the master gradient partition itself. ZeRO-3 accumulates into its gradient partition (stage3.py:1904-1920).
    if (stage === 2 && i.gradientAccumulationSteps > 1 && i.masterBytes === 4) {
      accumulationBuffer = i.elementBytes * shardT;
      cpu.gradients += accumulationBuffer;
    }
    if (swapOptimizer) {
      const buffers = OPTIMIZER_SWAP_BUFFERS * Math.min(i.subGroupSize, shardT) * 4;
      cpu.optimizerStates = buffers;
      pinned += buffers;
    } else {
      cpu.optimizerStates = optimizerShard;
    }
  }

  if (stage === 3 && i.offloadParam !== 'none') {
    const shard = gpu.params;
    gpu.params = 0;
    if (i.offloadParam === 'cpu') {
      cpu.params = shard;
    } else {
      // Every partition is written to NVMe and its swap file stays there. Up to offload_param.max_in_cpu trainable
      // elements per rank also get a pinned CPU buffer, allocated whole even when a sub-group does not fit in it
      // and stays on NVMe (stage3.py:839-862, _create_param_groups_fp16_flat_cpu_memory).
      nvme += shard;
      const resident = Math.min(shardT, i.maxParamsInCpu) * i.elementBytes;
      // The swap buffers hold one rank's partition of a parameter each (partition_parameters.py, get_buffer(param,
      // partition_size)); DeepSpeed refuses a partition larger than buffer_size, so it is raised to at least that.
      const bufferSize = Math.max(PARAM_SWAP_BUFFER_SIZE, Math.ceil(i.largestLayerParams / N));
      const buffers = PARAM_SWAP_BUFFERS * bufferSize * i.elementBytes;
      cpu.params = resident + buffers;
      pinned += resident + buffers;
    }
  }
  return { gpu, backwardGradients, stepGradient, stepFlatten, stepElements: steppedOnGpu, cpu, cpuAlwaysPinned: pinned, cpuAccumulationBuffer: accumulationBuffer, nvme };
}
