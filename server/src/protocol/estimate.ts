import type { OffloadDevice, ZeroOption, ZeroStage } from './options';

export type { OffloadDevice, ZeroStage } from './options';
export type Precision = 'bf16' | 'fp16' | 'fp32';

/** Per-GPU memory of one option, in bytes, by what holds it. */
export interface GpuBreakdown {
  params: number;
  gradients: number;
  optimizerStates: number;
  activations: number;
  buffers: number;
  overhead: number;
  total: number;
}

/** What the estimator says about one setup; every size in bytes. */
export interface EstimateResult {
  perGpu: GpuBreakdown;
  /** Per node (DeepSpeed's "per CPU"). `pinned` is the part in page-locked memory. */
  perCpu: { params: number; gradients: number; optimizerStates: number; total: number; pinned: number };
  nvme: number;
  fits: boolean | null;
  /** Human-readable assumptions and caveats ("activations assume FlashAttention", ...). */
  notes: string[];
}

/** One bar in the sidebar and one row in hover tables: a stage with an offload choice and its estimate. */
export interface StageOption extends ZeroOption {
  stage: ZeroStage;
  offloadOptimizer: OffloadDevice;
  offloadParam: OffloadDevice;
  /** e.g. "ZeRO-3 + CPU offload (optimizer, params)". */
  label: string;
  result: EstimateResult;
}
