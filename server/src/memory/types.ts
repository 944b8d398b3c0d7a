/**
 * The memory estimator's public contract. Every consumer (ds_config hints, launch scripts, the sidebar,
 * the CLI) goes through these types; all sizes are bytes, all counts are plain numbers.
 */

import type { Source } from '../protocol/sources';
import type { OffloadDevice, Precision, ZeroStage } from '../protocol/estimate';

export type { EstimateResult, GpuBreakdown, OffloadDevice, Precision, StageOption, ZeroStage } from '../protocol/estimate';
export type OptimizerName = 'adamw' | 'adam' | 'adam8bit' | 'sgd' | 'sgd-momentum' | 'lion' | 'adagrad' | 'adafactor' | 'muon';

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
  approximate?: { label: string; howToExact: string };
}

export interface LoraSpec {
  rank: number;
  /** Module names (q_proj, ...) or "all-linear". */
  targetModules: string[];
  /** Base weights quantised to 4-bit NF4 (QLoRA) or 8-bit; undefined keeps the training dtype. */
  quantBits?: 4 | 8;
  doubleQuant?: boolean;
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
  flashAttention: boolean;
  lora?: LoraSpec;
  buffers?: BufferSettings;
  /** offload_optimizer/offload_param `pin_memory`: offloaded CPU memory is page-locked. DeepSpeed default true (since 0.19.5). */
  pinMemory?: boolean;
  cudaContextBytes: number;
  /** Fraction of the subtotal added for allocator fragmentation. */
  fragmentation: number;
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
