/**
 * The memory estimator's public contract. Every consumer (ds_config hints, launch scripts, the sidebar,
 * the CLI) goes through these types; all sizes are bytes, all counts are plain numbers.
 */

import type { Source } from '../protocol/sources';
import type { OffloadDevice, Precision, ZeroStage } from '../protocol/estimate';

export type { EstimateResult, GpuBreakdown, GpuTerms, OffloadDevice, PhaseEstimate, PhaseName, Precision, StageOption, ZeroStage } from '../protocol/estimate';
export type OptimizerName = 'adamw' | 'adam' | 'adam8bit' | 'sgd' | 'sgd-momentum' | 'lion' | 'adagrad' | 'adafactor' | 'muon';
/** How the optimizer's step is computed: fused kernels need no workspace, torch's foreach path one state-sized temporary. */
export type OptimizerKernel = 'fused' | 'foreach';
/** Attention kernel (transformers `attn_implementation`): eager keeps the s×s scores, SDPA and FlashAttention do not. */
export type AttentionImpl = 'eager' | 'sdpa' | 'flash';
/**
 * How the loss is computed from the last hidden state: full logits upcast to fp32 (transformers' ForCausalLMLoss),
 * liger's fused linear cross-entropy, chunked cross-entropy, the per-token log-probabilities of TRL's preference
 * and RL trainers (selective_log_softmax: log-softmax row by row in the logits' dtype), or GKD's generalized
 * Jensen-Shannon divergence between the student's and the teacher's full-vocabulary distributions.
 */
export type LossKernel = 'standard' | 'liger' | 'chunked' | 'logprobs' | 'jsd';
/**
 * Who owns the weights the optimizer updates: DeepSpeed's engine, plain PyTorch (one process, or DDP), PyTorch FSDP
 * (`fsdp`, with `EstimateInput.fsdp`) or Megatron-Core (`megatron`, with `EstimateInput.modelParallel`).
 */
export type TrainingEngine = 'deepspeed' | 'torch' | 'fsdp' | 'megatron';

/** FSDP1's sharding strategies; FSDP2's `reshard_after_forward` true/false is FULL_SHARD/SHARD_GRAD_OP. */
export type FsdpStrategy = 'FULL_SHARD' | 'SHARD_GRAD_OP' | 'NO_SHARD' | 'HYBRID_SHARD' | 'HYBRID_SHARD_ZERO2';

/** How PyTorch FSDP runs (docs/memory-model.md, "FSDP"). */
export interface FsdpSpec {
  strategy: FsdpStrategy;
  /** FSDP1 (FullyShardedDataParallel, flat parameters) or FSDP2 (fully_shard, per-parameter DTensors). */
  version: 1 | 2;
  /** CPUOffload(offload_params=True) / CPUOffloadPolicy: parameter and gradient shards in CPU RAM, the step on the CPU. */
  offloadParams: boolean;
  /**
   * accelerate's mixed_precision is bf16/fp16 (the Trainer's --bf16): FSDP computes in 16-bit and accelerate keeps
   * the trainable parameters in fp32; false: everything in the dtype the model was loaded in.
   */
  mixedPrecision: boolean;
  /** Wrap units: one per decoder layer (transformer), by size, or the whole model as one unit. */
  autoWrap: 'TRANSFORMER_BASED_WRAP' | 'SIZE_BASED_WRAP' | 'NO_WRAP';
}

/** Tensor, pipeline, context and expert parallel sizes (Megatron-Core) or DeepSpeed AutoTP (`tensor_parallel.autotp_size`). */
export interface ModelParallelSpec {
  kind: 'megatron' | 'autotp';
  tp: number;
  pp: number;
  cp: number;
  ep: number;
  /** Megatron's expert tensor parallel size; default tp. */
  etp?: number;
  /** Megatron's distributed optimizer (`--use_distributed_optimizer`, ms-swift's default): master and states sharded over data parallel. */
  distributedOptimizer?: boolean;
  /** Megatron's sequence parallel: the activations outside attention and MLP split over TP too. */
  sequenceParallel?: boolean;
  /** Megatron's `--optimizer_cpu_offload`: master weights and optimizer states in CPU RAM, the step on the CPU. */
  offloadOptimizer?: boolean;
}

/** Architecture facts, as a config.json states them. Enough to count parameters and activations. */
export interface ModelArchitecture {
  hiddenSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  intermediateSize: number;
  vocabSize: number;
  tiedEmbeddings: boolean;
  /** Gated (SwiGLU/GeGLU, 3 matrices) or plain (GeLU, 2 matrices) MLP. */
  mlp: 'gated' | 'plain';
  qkvBias?: boolean;
  /** The attention output projection has a bias (Llama with `attention_bias`, InternLM). */
  oBias?: boolean;
  /** Every linear of the decoder blocks has a bias: q, k, v, o and the MLP (GPT-NeoX, phi-2, StarCoder2, GPT-2). */
  linearBias?: boolean;
  qkNorm?: boolean;
  /** The q/k norms span all heads (OLMo-2: n·d and kv·d weights) instead of one head (Qwen3: d each). */
  qkNormAllHeads?: boolean;
  normsPerLayer?: number;
  /** RMSNorm (one weight vector, the default), LayerNorm (weight and bias) or parameter-free LayerNorm (OLMo). */
  norm?: 'rms' | 'layer' | 'none';
  /** The output head has a bias (phi-2). */
  lmHeadBias?: boolean;
  /** Rows of a learned absolute position table (GPT-2, OPT, BERT); 0 or absent for rotary models. */
  positionEmbeddings?: number;
  moe?: {
    numExperts: number;
    expertsPerToken: number;
    moeIntermediateSize: number;
    sharedExpertIntermediateSize?: number;
    /**
     * Layers whose MLP is dense (width `intermediateSize`) in a MoE model: DeepSeek `first_k_dense_replace`,
     * Qwen2-MoE `mlp_only_layers` or `decoder_sparse_step`, Llama 4 `interleave_moe_layer_step`.
     */
    denseLayers?: number;
    /** Qwen2-MoE `shared_expert_gate`: one h-sized gate for the shared expert. */
    sharedExpertGate?: boolean;
    /** DeepSeek-V3 `e_score_correction_bias`: one value per routed expert. */
    routerBias?: boolean;
  };
  /** DeepSeek multi-head latent attention; replaces the q/k/v/o projections when present. */
  mla?: {
    qLoraRank: number;
    kvLoraRank: number;
    qkNopeHeadDim: number;
    qkRopeHeadDim: number;
    vHeadDim: number;
  };
  /**
   * Hybrid models (Qwen3-Next, Qwen3.5): `layers` of the decoder mix tokens with Gated DeltaNet linear
   * attention instead of softmax attention; the others keep `numHeads`/`numKvHeads` attention.
   */
  linearAttention?: {
    layers: number;
    keyHeads: number;
    valueHeads: number;
    keyHeadDim: number;
    valueHeadDim: number;
    convKernel: number;
  };
  /** Softmax attention with an output gate: q_proj also produces a per-head gate (Qwen3-Next, Qwen3.5). */
  attnOutputGate?: boolean;
  /** q, k and v in one matrix (Phi-3 `qkv_proj`, InternLM2 `wqkv`, ChatGLM `query_key_value`); matters for LoRA. */
  fusedQkv?: boolean;
  /** gate and up in one matrix (Phi-3 `gate_up_proj`, ChatGLM `dense_h_to_4h`); matters for LoRA. */
  fusedGateUp?: boolean;
  /** Parts outside the language model: vision and audio towers, projectors, speech generators, MTP heads. */
  parts?: ModelPart[];
  /** Attention and hidden dropout are active during training (GPT-2 style); modern LLMs use 0. */
  dropout?: boolean;
}

/** A module outside the decoder, counted whole: a vision or audio tower, a projector, a speech generator. */
export interface ModelPart {
  kind: 'vision' | 'audio' | 'projector' | 'speech' | 'mtp';
  /** For hovers: "vision tower (32 blocks, width 1280)". */
  name: string;
  params: number;
  /** Its largest single module (a ZeRO-3 gather buffer). */
  largestLayer: number;
  /**
   * False when the checkpoint stores the part but the training code does not load it (transformers skips
   * DeepSeek-V3's and Qwen3.5's multi-token-prediction layers): in the checkpoint's count, not in the model's.
   */
  loaded?: boolean;
}


export interface ModelInfo {
  /** Hub id or folder path the user gave. */
  id: string;
  /** Short name for hints, e.g. "Qwen3-8B". */
  displayName: string;
  totalParams: number;
  /** Largest single module's own parameters (usually the embedding), for ZeRO-3 gather buffers. */
  largestLayerParams: number;
  /** MoE models: parameters one token passes through (routed experts at top-k). */
  activeParams?: number;
  architecture?: ModelArchitecture;
  source: Source;
  /**
   * Set when the size is not exact (`source.kind` 'name-size'): the words every place that shows the size puts
   * next to it, and how to get an exact count.
   */
  approximate?: {
    label: string;
    /** The note in English; `approximateNote` words it in the reader's language. */
    howToExact: string;
    /** The size as the name writes it (`35B-A3B`). */
    stated: string;
    /** The catalog model whose layer shape is used; none: a generic Llama-like shape (`genericShape`). */
    shapeFrom?: string;
    /** The generic shape's width, layers and vocabulary, when no catalog model lends its shape. */
    genericShape?: { hiddenSize: number; numLayers: number; vocabSize: number };
    caveat?: NameSizeCaveat;
  };
}

/** What a name's number means when it is not the total: `17B-16E`, `8x7B`, `E2B`. */
export interface NameSizeCaveat {
  kind: 'active-of-experts' | 'experts-times-size' | 'effective';
  /** The size as written (`17B`, `7B`, `E2B`). */
  size: string;
  experts?: number;
}

export interface LoraSpec {
  rank: number;
  /** Module names (q_proj, ...) or "all-linear". */
  targetModules: string[];
  /** Base weights quantised to 4-bit NF4 (QLoRA) or 8-bit; undefined keeps the training dtype. */
  quantBits?: 4 | 8;
  doubleQuant?: boolean;
  /** lora_dropout: with a rate > 0 every adapted linear saves a dropped copy of its input and the mask. */
  dropout?: number;
  /**
   * Every weight but the adapted linears' trains too (DeepSpeed-Chat without --only_optimize_lora: its LoRA freezes
   * only the weights it wraps, dschat/utils/module/lora.py:49).
   */
  baseTrains?: boolean;
}

/** DeepSpeed buffer and partition sizes, in elements; absent fields take DeepSpeed's defaults. */
export interface BufferSettings {
  reduceBucketSize?: number;
  allgatherBucketSize?: number;
  overlapComm?: boolean;
  prefetchBucketSize?: number;
  maxLiveParameters?: number;
  subGroupSize?: number;
  /** offload_param.max_in_cpu: trainable elements per rank kept in CPU memory under NVMe param offload. */
  maxParamsInCpu?: number;
  /** stage3_max_reuse_distance: a gathered parameter used again within this many elements of the trace stays gathered. */
  maxReuseDistance?: number;
  /** stage3_gather_16bit_weights_on_model_save: saving gathers the whole 16-bit model on rank 0's CPU. */
  gather16BitOnSave?: boolean;
}

/** A model the run holds besides the one it trains (RLHF, distillation). */
export interface ExtraModel {
  role: 'reference' | 'reward' | 'value' | 'teacher';
  model: ModelInfo;
  /** Trained alongside the policy (PPO's value model): gradients and optimizer states too. */
  trainable?: boolean;
  /** A trained model's own ZeRO stage (DeepSpeed-Chat's critic engine); below the run's it is counted apart. */
  stage?: ZeroStage;
  /** Partitioned over the GPUs like ZeRO-3 parameters (TRL wraps it with the run's ZeRO-3 config). */
  sharded?: boolean;
  /** Its weights live in CPU memory (a ZeRO-3 offload config for a teacher). */
  offloaded?: boolean;
}

/** Generation inside the training loop (GRPO, PPO, on-policy GKD). */
export interface RolloutSpec {
  /** vLLM on the training GPUs, vLLM on other GPUs (server mode), or transformers' generate. */
  engine: 'vllm-colocate' | 'vllm-server' | 'generate';
  /** vLLM's --gpu-memory-utilization: the share of the whole card vLLM takes for weights and KV cache. */
  gpuMemoryUtilization?: number;
  /** vLLM sleep mode: 1 offloads its weights and drops the KV cache between rollouts, 2 drops both; 0/undefined keeps them. */
  sleepLevel?: number;
  /** The training model's weights / optimizer states move to CPU during the rollout (ms-swift --offload_model / --offload_optimizer). */
  offloadModel?: boolean;
  offloadOptimizer?: boolean;
  /** Sequences generated per micro-batch (prompts × generations) and their length (prompt + completion). */
  sequences: number;
  sequenceLength: number;
}

export interface EstimateInput {
  model: ModelInfo;
  stage: ZeroStage;
  offloadOptimizer: OffloadDevice;
  /** Only meaningful at stage 3. */
  offloadParam: OffloadDevice;
  precision: Precision;
  /** bf16.bf16_master_weights_and_grads */
  bf16MasterWeightsAndGrads?: boolean;
  /** bf16.bf16_optimizer_states */
  bf16OptimizerStates?: boolean;
  /** data_types.grad_accum_dtype is fp32. With a 16-bit model: BF16_Optimizer for bf16 at stage 1, else fp32 gradient copies at stage 1 and an fp32 gradient partition at stage 3; refused without ZeRO. */
  fp32GradAccum?: boolean;
  optimizer: OptimizerName;
  gpusPerNode: number;
  nodes: number;
  /** GPU capacity; undefined means "unknown" and `fits` is null. */
  gpuMemoryBytes?: number;
  microBatch: number;
  /** gradient_accumulation_steps: micro-batches per optimizer step (DeepSpeed's default 1). */
  gradientAccumulationSteps: number;
  seqLen: number;
  gradientCheckpointing: boolean;
  /** Kept for callers that only know FlashAttention on/off; `attention` wins when given. */
  flashAttention: boolean;
  /** Attention kernel; default from flashAttention (true: sdpa). */
  attention?: AttentionImpl;
  /** How the loss is computed; default 'standard' (full logits, upcast to fp32 by transformers' ForCausalLMLoss). */
  loss?: LossKernel;
  /** Samples are packed into sequences of exactly seqLen tokens: seqLen is then exact, not an upper bound. */
  packing?: boolean;
  /** Every step has exactly seqLen × microBatch tokens (packed or synthetic data); implied by packing. */
  fixedLength?: boolean;
  /** The micro-batch's samples are concatenated without padding (tokens = sum of lengths ≤ b × seqLen). */
  paddingFree?: boolean;
  /** Ulysses-style sequence parallelism: each GPU holds 1/N of every sequence's activations. */
  sequenceParallel?: number;
  /** Parameters frozen besides LoRA's base (a vision tower under --freeze_vit): stored, never trained. */
  frozenParams?: number;
  /** Who owns the trained weights; default 'deepspeed'. */
  engine?: TrainingEngine;
  /** engine 'fsdp': the strategy, offload and precision policy (default FULL_SHARD, no offload, mixed precision, per-layer units). */
  fsdp?: FsdpSpec;
  /** engine 'megatron' (TP/PP/CP/EP), or AutoTP under DeepSpeed (kind 'autotp'). */
  modelParallel?: ModelParallelSpec;
  /** torch DistributedDataParallel wraps the model (engine torch, more than one GPU): gradient buckets. */
  ddp?: boolean;
  /** dtype the weights are loaded in (torch_dtype); with engine torch it is what weights, gradients and states are held in. Default: precision. */
  torchDtype?: Precision;
  /** How the optimizer steps; undefined: unknown, counted as foreach (errs high). */
  optimizerKernel?: OptimizerKernel;
  /** bitsandbytes paged optimizer: states in CUDA unified memory, which pages to CPU under pressure (outside torch's pool). */
  pagedOptimizer?: boolean;
  /** ZeRO-3 parameters are created partitioned (zero.Init, as the HF Trainer does under ZeRO-3); default true. */
  zeroInit?: boolean;
  /** Extra models of RLHF and distillation. */
  extraModels?: ExtraModel[];
  /** Generation during training. */
  rollout?: RolloutSpec;
  /** Tokens per sample the loss's masked terms (GKD) or the head's logits (GRPO's logits_to_keep) cover, when fewer than seqLen. */
  lossTokens?: number;
  /** Sequences per micro-batch relative to samples: 2 for preference pairs (chosen + rejected); default 1. */
  sequencesPerSample?: number;
  /** seqLen is max_length and the data may be shorter: the estimate assumes every sample fills it (errs high). */
  seqLenIsUpperBound?: boolean;
  lora?: LoraSpec;
  buffers?: BufferSettings;
  /** offload_optimizer/offload_param `pin_memory`: offloaded CPU memory is page-locked. DeepSpeed default true (since 0.19.5). */
  pinMemory?: boolean;
  /** CUDA context and kernels outside torch's allocator; undefined: the modelled default (cudaContextDefaultBytes). */
  cudaContextBytes?: number;
  /** NCCL communicator buffers outside torch's allocator; undefined: modelled (one communicator when more than one GPU). */
  ncclBytes?: number;
  /**
   * Override of the modelled allocator cache: reserved = allocated × (1 + fragmentation). Undefined: the modelled
   * cache (docs/memory-model.md, "Reserved memory").
   */
  fragmentation?: number;
}

/** DeepSpeed-compatible mode: what `estimate_zero{2,3}_model_states_mem_needs` returns, to the byte. */
export interface DeepSpeedEstimateInput {
  totalParams: number;
  largestLayerParams: number;
  gpusPerNode: number;
  nodes: number;
  stage: 2 | 3;
  offloadOptimizer: boolean;
  offloadParam: boolean;
  zeroInit: boolean;
  additionalBufferFactor: number;
  /** Use the ZeRO-2 GPU formula from before June 2024 (4P + 16P/N). */
  legacyZero2: boolean;
}
