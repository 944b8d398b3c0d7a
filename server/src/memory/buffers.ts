import type { BufferSettings, OffloadDevice, ZeroStage } from './types';

/** DeepSpeed's defaults (deepspeed/runtime/zero/config.py and offload_config.py), in elements. */
export const deepSpeedBufferDefaults = {
  reduceBucketSize: 5e8,
  allgatherBucketSize: 5e8,
  prefetchBucketSize: 5e7,
  maxLiveParameters: 1e9,
  maxReuseDistance: 1e9,
  subGroupSize: 1e9,
  /** offload_param.max_in_cpu (offload_config.py). */
  maxParamsInCpu: 1e9,
} as const;

/** `overlap_comm` defaults to true at stage 3 only (DeepSpeed's `overlap_comm_valid` validator). */
export function overlapCommDefault(stage: ZeroStage): boolean {
  return stage === 3;
}

export interface ResolvedBuffers {
  reduceBucketSize: number;
  allgatherBucketSize: number;
  overlapComm: boolean;
  prefetchBucketSize: number;
  maxLiveParameters: number;
  maxReuseDistance: number;
  subGroupSize: number;
  maxParamsInCpu: number;
  gather16BitOnSave: boolean;
}

export function resolveBuffers(stage: ZeroStage, b: BufferSettings | undefined): ResolvedBuffers {
  return {
    reduceBucketSize: b?.reduceBucketSize ?? deepSpeedBufferDefaults.reduceBucketSize,
    allgatherBucketSize: b?.allgatherBucketSize ?? deepSpeedBufferDefaults.allgatherBucketSize,
    overlapComm: b?.overlapComm ?? overlapCommDefault(stage),
    prefetchBucketSize: b?.prefetchBucketSize ?? deepSpeedBufferDefaults.prefetchBucketSize,
    maxLiveParameters: b?.maxLiveParameters ?? deepSpeedBufferDefaults.maxLiveParameters,
    maxReuseDistance: b?.maxReuseDistance ?? deepSpeedBufferDefaults.maxReuseDistance,
    subGroupSize: b?.subGroupSize ?? deepSpeedBufferDefaults.subGroupSize,
    maxParamsInCpu: b?.maxParamsInCpu ?? deepSpeedBufferDefaults.maxParamsInCpu,
    gather16BitOnSave: b?.gather16BitOnSave ?? false,
  };
}

export interface BufferInput {
  stage: ZeroStage;
  buffers: ResolvedBuffers;
  /** Bytes of a 16-bit (or fp32) gradient / parameter element. */
  elementBytes: number;
  /** Params that get gradients (trainable). */
  trainable: number;
  /** All params (for ZeRO-3 gathers, frozen ones too). */
  totalParams: number;
  largestLayerParams: number;
  /** Bytes of the gathered params of one element (frozen QLoRA weights are smaller; we use the dtype). */
  paramElementBytes: number;
  /** Optimizer offload in effect ('none' where DeepSpeed ignores it). */
  offloadOptimizer: OffloadDevice;
  /** Elements of the largest trainable parameter. */
  largestTrainableParam: number;
}

/** ZeRO's communication and gather buffers, by the phase they live in. */
export interface BufferBreakdown {
  /** Allocated at init and kept (ZeRO-1/2 offload staging buffer). */
  persistent: number;
  /** Live in forward + backward: reduce buckets, ZeRO-3's gathered parameters and the largest layer's full gradient. */
  forwardBackward: number;
  /** Of `forwardBackward`, ZeRO-3's gathered parameters (allocated and freed per module, so cached as parameter-sized blocks). */
  gathered: number;
  /** Live after the optimizer step: ZeRO-1/2's all-gather of the updated partitions. */
  afterStep: number;
}

/**
 * GPU bytes of ZeRO's communication and gather buffers (docs/memory-model.md §5).
 * - Stage 1/2: one flat gradient bucket of `reduce_bucket_size` elements, two with `overlap_comm` (DeepSpeed
 *   double-buffers so reduction overlaps compute), in backward. The all-gather after the step writes into the
 *   parameters themselves in `allgather_bucket_size` chunks. With optimizer offload, a staging buffer of the
 *   largest trainable parameter stays on the GPU for the run.
 * - Stage 3: the parameters gathered at once: the current module, the prefetch bucket and every parameter the
 *   trace uses again within `stage3_max_reuse_distance` elements (partitioned_param_coordinator.py,
 *   `__params_to_release`: such parameters are not released), at most the whole model; the largest layer's full
 *   gradient before it is reduce-scattered; and the gradient bucket (`reduce_bucket_size`, doubled with overlap_comm).
 * Gather buckets never exceed what there is to put in them; the reduce buckets are allocated whole.
 */
export function bufferBytes(i: BufferInput): BufferBreakdown {
  const b = i.buffers;
  const none = { persistent: 0, forwardBackward: 0, gathered: 0, afterStep: 0 };
  if (i.stage === 0 || i.trainable === 0) return none;
  const bucketCopies = b.overlapComm ? 2 : 1;
  // With contiguous_gradients (the default) the reduce buckets are allocated at their full size up front
  // (torch.empty(reduce_bucket_size) in stage_1_and_2.py and stage3.py), however few parameters are trained.
  const reduce = b.reduceBucketSize * i.elementBytes * bucketCopies;
  if (i.stage === 1 || i.stage === 2) {
    // Only the optimizer's params (the trainable ones) are gathered back after the step.
    const gather = Math.min(b.allgatherBucketSize, i.trainable) * i.paramElementBytes;
    // Optimizer offload (cpu; nvme counts as cpu here) allocates at init a GPU buffer of the largest trainable
    // parameter in the param dtype, kept for the run: it stages gradients copied to and from the CPU
    // (temp_grad_buffer_for_gpu_offload, stage_1_and_2.py:591-593, used at 1005 and 1522).
    const offloadStaging = i.offloadOptimizer === 'none' ? 0 : i.largestTrainableParam * i.elementBytes;
    return { persistent: offloadStaging, forwardBackward: reduce, gathered: 0, afterStep: gather };
  }
  const largest = Math.min(i.largestLayerParams, i.totalParams);
  const live = Math.min(i.totalParams, largest + b.prefetchBucketSize + b.maxReuseDistance);
  const gathered = Math.max(live, largest) * i.paramElementBytes;
  const largestGrad = Math.min(largest, i.trainable) * i.elementBytes;
  return { persistent: 0, forwardBackward: gathered + largestGrad + reduce, gathered, afterStep: 0 };
}
