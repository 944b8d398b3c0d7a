import type { BufferSettings, OffloadDevice, ZeroStage } from './types';

/** DeepSpeed's defaults (deepspeed/runtime/zero/config.py and offload_config.py), in elements. */
export const deepSpeedBufferDefaults = {
  reduceBucketSize: 5e8,
  allgatherBucketSize: 5e8,
  prefetchBucketSize: 5e7,
  maxLiveParameters: 1e9,
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
  subGroupSize: number;
  maxParamsInCpu: number;
}

export function resolveBuffers(stage: ZeroStage, b: BufferSettings | undefined): ResolvedBuffers {
  return {
    reduceBucketSize: b?.reduceBucketSize ?? deepSpeedBufferDefaults.reduceBucketSize,
    allgatherBucketSize: b?.allgatherBucketSize ?? deepSpeedBufferDefaults.allgatherBucketSize,
    overlapComm: b?.overlapComm ?? overlapCommDefault(stage),
    prefetchBucketSize: b?.prefetchBucketSize ?? deepSpeedBufferDefaults.prefetchBucketSize,
    maxLiveParameters: b?.maxLiveParameters ?? deepSpeedBufferDefaults.maxLiveParameters,
    subGroupSize: b?.subGroupSize ?? deepSpeedBufferDefaults.subGroupSize,
    maxParamsInCpu: b?.maxParamsInCpu ?? deepSpeedBufferDefaults.maxParamsInCpu,
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

/**
 * GPU bytes of ZeRO's communication and gather buffers at their peak (the backward pass).
 * - Stage 1/2: one flat gradient bucket of `reduce_bucket_size` elements, two with `overlap_comm`
 *   (DeepSpeed double-buffers so reduction overlaps compute). The all-gather after the step writes into
 *   the parameters themselves in `allgather_bucket_size` chunks and happens after the backward buckets
 *   are freed, so only the larger of the two phases counts. With optimizer offload, a staging buffer of the
 *   largest trainable parameter stays on the GPU through both.
 * - Stage 3: the parameters gathered at once (the current module plus the prefetch bucket, at most
 *   `stage3_max_live_parameters`, at least the largest layer), the largest layer's full gradient before it
 *   is reduce-scattered, and the gradient bucket (`reduce_bucket_size`, doubled with `overlap_comm`).
 * Gather buckets never exceed what there is to put in them; the reduce buckets are allocated whole.
 */
export function bufferBytes(i: BufferInput): number {
  const b = i.buffers;
  if (i.stage === 0 || i.trainable === 0) return 0;
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
    return Math.max(reduce, gather) + offloadStaging;
  }
  const largest = Math.min(i.largestLayerParams, i.totalParams);
  const live = Math.min(b.maxLiveParameters, i.totalParams, largest + b.prefetchBucketSize);
  const gathered = Math.max(live, largest) * i.paramElementBytes;
  const largestGrad = Math.min(largest, i.trainable) * i.elementBytes;
  return gathered + largestGrad + reduce;
}
