import { english, type Translate } from './l10n';
import type { OffloadDevice, ZeroOption, ZeroStage } from './options';

export type { OffloadDevice, ZeroStage } from './options';
export type Precision = 'bf16' | 'fp16' | 'fp32';

/**
 * The phases of a training run, in the order they happen. The per-GPU peak is the largest of them: what is
 * live in one phase (the fp32 gradient copy of the optimizer step) need not coexist with another's (the
 * activations of forward and backward).
 */
export type PhaseName = 'load' | 'optimizer-init' | 'forward-backward' | 'optimizer-step' | 'checkpoint-save' | 'rollout';

/** A phase as a reader names it (hovers, hints, the sidebar, the CLI), in the reader's language. */
export function phaseLabel(phase: PhaseName, t: Translate = english): string {
  switch (phase) {
    case 'load':
      return t('model loading');
    case 'optimizer-init':
      return t('optimizer creation');
    case 'forward-backward':
      return t('forward + backward');
    case 'optimizer-step':
      return t('optimizer step');
    case 'checkpoint-save':
      return t('checkpoint save');
    case 'rollout':
      return t('rollout (generation)');
  }
}

/** What is live on one GPU in one phase, in bytes, by what holds it. `allocated` is their sum. */
export interface GpuTerms {
  /** The trained model's weights on this GPU (16-bit, fp32 or quantised; the rank's partition under ZeRO-3). */
  params: number;
  /** Gradients: what autograd produces, ZeRO's partitions and buckets of them, the optimizer's fp32 copy. */
  gradients: number;
  /** Master weights and optimizer states on this GPU. */
  optimizerStates: number;
  /** Tensors saved for the backward pass, logits and the loss. */
  activations: number;
  /** Communication and gather buffers: ZeRO buckets and gathered parameters, DDP's gradient buckets. */
  buffers: number;
  /** Short-lived workspaces: the optimizer's step temporaries, flattening copies. */
  temporaries: number;
  /** Models the run holds besides the trained one: reference, reward, value and teacher models, a colocated rollout engine. */
  extraModels: number;
  /** Sum of the above: what `torch.cuda.max_memory_allocated` reports for this phase. */
  allocated: number;
}

/** One phase's footprint: GPU (allocated, the allocator's reserve, the whole device) and CPU RAM per node. */
export interface PhaseEstimate extends GpuTerms {
  phase: PhaseName;
  /** What the caching allocator holds in this phase (`max_memory_reserved`): allocated + blocks cached from earlier phases that this one cannot reuse. */
  reserved: number;
  /** reserved + CUDA context + NCCL: the device memory this process uses (what nvidia-smi shows); 'fits' is judged on it. */
  total: number;
  /** CPU RAM per node live in this phase. */
  cpu: number;
}

/** Per-GPU memory of one option, in bytes: the terms of the phase that sets the peak, and the peak itself. */
export interface GpuBreakdown extends GpuTerms {
  /** The phase whose `total` is the largest; null where no phases are modelled (DeepSpeed mode). */
  peakPhase: PhaseName | null;
  /** Peak `torch.cuda.max_memory_reserved`: allocated plus what the caching allocator keeps. */
  reserved: number;
  /** Part of `reserved` the allocator holds in cached blocks (reserved − allocated). */
  allocatorCache: number;
  /** CUDA context and kernels, plus NCCL's communicator buffers: device memory outside torch's allocator. */
  cudaContext: number;
  /** allocatorCache + cudaContext: everything besides live tensors. */
  overhead: number;
  /** reserved + cudaContext: what the GPU must hold ('fits' is judged on it); what nvidia-smi shows. */
  total: number;
}

/** What the estimator says about one setup; every size in bytes. */
export interface EstimateResult {
  perGpu: GpuBreakdown;
  /** Every phase of the run, in order (empty in DeepSpeed mode). */
  phases: PhaseEstimate[];
  /** Per node (DeepSpeed's "per CPU"), at its peak phase. `pinned` is the part in page-locked memory. */
  perCpu: { params: number; gradients: number; optimizerStates: number; total: number; pinned: number; peakPhase: PhaseName | null };
  nvme: number;
  fits: boolean | null;
  /** Human-readable assumptions and caveats ("activations assume FlashAttention", ...). */
  notes: string[];
  /** Where the model is unsure and errs high (unknown data lengths, unmodelled kernels), in words for hovers. */
  errsHigh: string[];
  /** Parameters of what is trained (the model, its adapters, a trained value model) and how many of them train. */
  params: { total: number; trainable: number };
}

/**
 * A run of another family beside the ZeRO options, for the same job: an FSDP strategy, or the Megatron layout a
 * launch runs. The hover table and the sidebar show them next to the ZeRO rows.
 */
export interface AlternativeOption {
  family: 'fsdp' | 'megatron';
  /** "FSDP FULL_SHARD + CPU offload", "Megatron TP 2 · PP 1" (identifiers, the same in every language). */
  label: string;
  /** FSDP's strategy (FULL_SHARD, SHARD_GRAD_OP, …) and offload; absent for Megatron. */
  strategy?: string;
  offloadParams?: boolean;
  /** The run as the document describes it (ZeRO's rows are then the comparison). */
  current: boolean;
  result: EstimateResult;
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
