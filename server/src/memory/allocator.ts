import { GiB } from './units';

/**
 * What the GPU holds besides live tensors: the caching allocator's reserve, the CUDA context and NCCL's buffers
 * (docs/memory-model.md §8). Each default is a measurement (bench/gpu/results/h200-mechanisms.json, NVIDIA H200,
 * torch 2.11, CUDA 13, lazy module loading); `zeroLens.cudaContextGiB` and `zeroLens.fragmentation` override them.
 */

/**
 * Device memory outside torch's pool in a training process: the CUDA context, cuBLAS's workspace and the kernels
 * training loads (lazily, CUDA_MODULE_LOADING=LAZY, torch's default since 2.0). Measured as device used − reserved
 * after the second training step of every run: 0.913–0.919 GiB; 0.669 GiB of it is there after the first matmul.
 */
export const CUDA_CONTEXT_BYTES = 986_710_016;
/** NCCL's own buffers for one communicator, outside torch's pool (nccl.outside_torch: 0.545 GiB). */
export const NCCL_BYTES = 585_105_408;

/**
 * Share of the activation bytes the allocator keeps in blocks the next step cannot reuse. With full
 * checkpointing the backward pass recomputes one layer at a time among the saved inputs and the gradients it
 * produces, so freed blocks are split and stay pinned by neighbours: 8–16% measured on LoRA runs (Qwen2.5-1.5B,
 * Llama-3.2-3B, Qwen2.5-7B, 4k–8k tokens); without checkpointing activations are freed in reverse order of
 * allocation and coalesce: 3–4% measured.
 */
export const ACTIVATION_CACHE_SHARE = { checkpointed: 0.12, plain: 0.03 } as const;

/**
 * The same share under PyTorch FSDP with checkpointing, where the compute stream's pool is apart from the pools of
 * FSDP's own streams (all-gather outputs, offload's staging copies, reduce-scatter outputs: a block cached for
 * one stream never serves another). Measured on one H200 (bench/gpu/results/h200-fsdp-sharded-pools.json,
 * `torch.cuda.memory_snapshot()` after two steps, FULL_SHARD over a fake process group of 2 and 8 ranks): the
 * compute stream's pool held 1.26 × the estimated activations beyond its live tensors without offload and 1.34 ×
 * with CPU offload, where other runs hold 1.12 ×.
 */
export const FSDP_ACTIVATION_CACHE_SHARE = { noOffload: 0.26, cpuOffload: 0.34 } as const;

/** What of an FSDP run decides how its pools split: the sharding strategy and CPU offload. */
export interface FsdpPools {
  offloadParams: boolean;
  strategy: string;
}

/**
 * The share of the activations lost to splitting for this run (the two constants above). FSDP's NO_SHARD gathers
 * nothing, so its compute stream is the only large pool, as in other runs (measured on one H100: the NO_SHARD
 * device total within 2% with 0.12, bench/gpu/results/h100-fsdp.json).
 */
export function activationCacheShare(gradientCheckpointing: boolean, fsdp?: FsdpPools): number {
  if (!gradientCheckpointing) return ACTIVATION_CACHE_SHARE.plain;
  if (fsdp && fsdp.strategy !== 'NO_SHARD') return fsdp.offloadParams ? FSDP_ACTIVATION_CACHE_SHARE.cpuOffload : FSDP_ACTIVATION_CACHE_SHARE.noOffload;
  return ACTIVATION_CACHE_SHARE.checkpointed;
}

/**
 * Share of the activation peak the pool grows by when the token count changes from step to step (unpacked,
 * variable-length data): each new longest step needs activation blocks larger than any cached one while the
 * blocks of earlier steps stay split by gradients and optimizer temporaries. Measured over 12–40 steps of random
 * lengths (bench/gpu/results/h200-varlen*.json): 0.36–0.56 of the activation peak with checkpointing (median 0.5;
 * one ordering reached 1.8), 0.15 without; 0 when the longest step came first in a LoRA run. The pool never makes a
 * run fail by itself: when cudaMalloc fails the allocator frees its unused cached blocks and retries
 * (CUDACachingAllocator.cpp, DeviceCachingAllocator::malloc → release_cached_blocks), so this growth stops at the card.
 */
export const VARIABLE_LENGTH_SHARE = { checkpointed: 0.5, plain: 0.15 } as const;

/** Growth of the pool under variable-length data (see VARIABLE_LENGTH_SHARE); 0 for fixed-length steps. */
export function variableLengthBytes(activations: number, gradientCheckpointing: boolean, fixedLength: boolean): number {
  if (fixedLength) return 0;
  return (gradientCheckpointing ? VARIABLE_LENGTH_SHARE.checkpointed : VARIABLE_LENGTH_SHARE.plain) * activations;
}

export interface ReservedInput {
  /** Allocated for the whole run (weights, optimizer states, persistent gradient buffers, extra models). */
  persistent: number;
  /** Gradients allocated in backward and freed by the step: parameter-shaped blocks. */
  backwardGradients: number;
  /** The activation peak of forward + backward: token-shaped blocks. */
  activations: number;
  /** Buffers of forward + backward (ZeRO-3's gathered parameters, reduce buckets): their own blocks, reused every step. */
  forwardBackwardBuffers: number;
  /** Workspaces of the optimizer step only (fp32 gradient copy, flattening copy, foreach temporaries). */
  stepTransient: number;
  /** The step's workspaces fit in blocks the activations leave cached, so they need no memory of their own. */
  stepFitsInActivationBlocks: boolean;
  gradientCheckpointing: boolean;
  /** The largest allocated figure of any phase. */
  peakAllocated: number;
  /** Pools of side streams that only their own allocations reuse (FSDP1's staging copies under CPU offload). */
  sideStreamPools?: number;
  /** The run's FSDP setup, when it runs under FSDP: its streams' pools change the share lost to splitting. */
  fsdp?: FsdpPools;
  /** Override: reserved = allocated × (1 + fragmentation). */
  fragmentation?: number;
}

/**
 * Peak reserved memory (`torch.cuda.max_memory_reserved`). PyTorch's caching allocator never returns a segment
 * to the driver during training (c10/cuda/CUDACachingAllocator.cpp: freed blocks go back to the pool; only
 * empty_cache() releases them), and it serves a request from a cached block only if one block is large enough
 * (blocks split, but never merge across segments). Short-lived memory of two shapes alternates every step:
 * token-shaped activations (freed during backward) and parameter-shaped gradients and step workspaces. So in the
 * steady state the pool holds the persistent tensors, the gradients, the activation peak and the forward/backward
 * buffers side by side, plus the step's workspaces unless they fit in the cached activation blocks, plus a share
 * of the activations lost to splitting. Checked on 22 measured runs (docs/memory-model.md §8): −5% … +11%.
 */
export function reservedBytes(i: ReservedInput): number {
  if (i.fragmentation !== undefined) return i.peakAllocated * (1 + i.fragmentation);
  const share = activationCacheShare(i.gradientCheckpointing, i.fsdp);
  const steady = i.persistent + i.backwardGradients + i.activations + i.forwardBackwardBuffers + (i.stepFitsInActivationBlocks ? 0 : i.stepTransient);
  return Math.max(i.peakAllocated, steady) + share * i.activations + (i.sideStreamPools ?? 0);
}

/** The GiB a setting gives, as bytes. */
export function gibToBytes(gib: number): number {
  return Math.round(gib * GiB);
}
