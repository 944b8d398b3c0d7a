import type { ModelArchitecture } from './types';

/**
 * Parameter counts from architecture facts (the fields of config.json), for Llama-style decoders and the
 * common variants: GQA, biases, q/k norms, RMSNorm or LayerNorm, MoE (routed + shared experts, dense layers),
 * DeepSeek MLA, Gated DeltaNet linear-attention layers, tied or untied embeddings, and the parts outside the
 * decoder (vision and audio towers, projectors), each counted whole.
 */
export interface ParamCount {
  /** Everything the training code loads: the language model and its loaded parts. */
  total: number;
  /** Parameters a token touches: routed experts counted at top-k (equals `total` for dense models). */
  active: number;
  embedding: number;
  /** 0 when tied to the embedding. */
  lmHead: number;
  /** Largest single module's own parameters (DeepSpeed's `largest_layer_params`). */
  largestLayer: number;
  /** Weights of the linear layers inside the decoder blocks: what QLoRA quantises. */
  decoderLinear: number;
  /** The loaded parts outside the language model (towers, projectors, speech generators). */
  parts: number;
  /** What the checkpoint stores: `total` plus parts the training code does not load (multi-token prediction). */
  checkpointTotal: number;
}

interface Module {
  /** All parameters, biases and norms included. */
  all: number;
  /** Linear-layer weights only. */
  linear: number;
  /** The largest single module. */
  largest: number;
}

/** Parameters of one norm layer of width `width`. */
function normParams(a: ModelArchitecture, width: number): number {
  const norm = a.norm ?? 'rms';
  return norm === 'layer' ? 2 * width : norm === 'none' ? 0 : width;
}

/** Softmax attention of one layer. */
function attention(a: ModelArchitecture): Module {
  const h = a.hiddenSize;
  if (a.mla) {
    const m = a.mla;
    const n = a.numHeads;
    // Without q_lora_rank (DeepSeek-V2-Lite) q is one h → n·(nope+rope) projection.
    const qA = h * m.qLoraRank;
    const qB = (m.qLoraRank || h) * n * (m.qkNopeHeadDim + m.qkRopeHeadDim);
    const kvA = h * (m.kvLoraRank + m.qkRopeHeadDim);
    const kvB = m.kvLoraRank * n * (m.qkNopeHeadDim + m.vHeadDim);
    const o = n * m.vHeadDim * h;
    const linear = qA + qB + kvA + kvB + o;
    // q_a_layernorm and kv_a_layernorm
    return { all: linear + m.qLoraRank + m.kvLoraRank, linear, largest: Math.max(qA, qB, kvA, kvB, o) };
  }
  const qOut = a.numHeads * a.headDim * (a.attnOutputGate ? 2 : 1);
  const kvOut = a.numKvHeads * a.headDim;
  const q = h * qOut;
  const kv = h * kvOut;
  const o = a.numHeads * a.headDim * h;
  const linear = q + 2 * kv + o;
  const qkvBias = a.qkvBias || a.linearBias ? qOut + 2 * kvOut : 0;
  let all = linear + qkvBias + (a.linearBias || a.oBias ? h : 0);
  if (a.qkNorm) all += a.qkNormAllHeads ? a.numHeads * a.headDim + kvOut : 2 * a.headDim;
  const qkvModule = a.fusedQkv ? q + 2 * kv + qkvBias : q + (qkvBias ? qOut : 0);
  return { all, linear, largest: Math.max(qkvModule, o) };
}

/**
 * Gated DeltaNet token mixer of one linear-attention layer: the fused q/k/v/z and b/a input projections,
 * a depthwise causal convolution over q, k and v, per-head decay (A_log) and dt bias, a gated RMSNorm over one
 * value head, and the output projection.
 */
function linearAttention(a: ModelArchitecture): Module {
  const la = a.linearAttention!;
  const h = a.hiddenSize;
  const keyDim = la.keyHeads * la.keyHeadDim;
  const valueDim = la.valueHeads * la.valueHeadDim;
  const qkvz = h * (2 * keyDim + 2 * valueDim);
  const ba = h * 2 * la.valueHeads;
  const conv = (2 * keyDim + valueDim) * la.convKernel;
  const out = valueDim * h;
  const linear = qkvz + ba + out;
  return { all: linear + conv + 2 * la.valueHeads + la.valueHeadDim, linear, largest: Math.max(qkvz, out) };
}

/** Gated MLPs have gate, up and down matrices; plain (GeLU) ones have up and down. */
function mlp(a: ModelArchitecture, inter: number): Module {
  const h = a.hiddenSize;
  const mats = a.mlp === 'gated' ? 3 : 2;
  const linear = mats * h * inter;
  const bias = a.linearBias ? (mats - 1) * inter + h : 0;
  // A fused gate_up matrix is one module holding two h×I blocks.
  const largest = a.fusedGateUp && a.mlp === 'gated' ? 2 * h * inter : h * inter;
  return { all: linear + bias, linear, largest };
}

export function countParams(a: ModelArchitecture): ParamCount {
  const h = a.hiddenSize;
  const L = a.numLayers;
  const linearLayers = Math.min(L, a.linearAttention?.layers ?? 0);
  const softmax = attention(a);
  const mixers = linearLayers > 0 ? linearAttention(a) : undefined;
  const mixerAll = (L - linearLayers) * softmax.all + linearLayers * (mixers?.all ?? 0);
  const mixerLinear = (L - linearLayers) * softmax.linear + linearLayers * (mixers?.linear ?? 0);
  const norms = L * (a.normsPerLayer ?? 2) * normParams(a, h);

  const embedding = a.vocabSize * h;
  const lmHead = a.tiedEmbeddings ? 0 : a.vocabSize * h;
  const outside = embedding + (a.positionEmbeddings ?? 0) * h + normParams(a, h) + lmHead + (a.lmHeadBias ? a.vocabSize : 0);
  const dense = mlp(a, a.intermediateSize);
  let largestLayer = Math.max(embedding, softmax.largest, mixers?.largest ?? 0);

  let blocks: number;
  let activeBlocks: number;
  let mlpLinear: number;
  if (!a.moe) {
    blocks = mixerAll + norms + L * dense.all;
    activeBlocks = blocks;
    mlpLinear = L * dense.linear;
    largestLayer = Math.max(largestLayer, dense.largest);
  } else {
    const m = a.moe;
    const expert = mlp(a, m.moeIntermediateSize);
    const shared = m.sharedExpertIntermediateSize ? mlp(a, m.sharedExpertIntermediateSize) : undefined;
    const router = h * m.numExperts + (m.routerBias ? m.numExperts : 0);
    const gate = m.sharedExpertGate ? h : 0;
    const denseLayers = Math.min(L, m.denseLayers ?? 0);
    const moeLayers = L - denseLayers;
    const common = mixerAll + norms + denseLayers * dense.all + moeLayers * ((shared?.all ?? 0) + router + gate);
    blocks = common + moeLayers * m.numExperts * expert.all;
    activeBlocks = common + moeLayers * m.expertsPerToken * expert.all;
    mlpLinear = denseLayers * dense.linear + moeLayers * (m.numExperts * expert.linear + (shared?.linear ?? 0) + h * m.numExperts);
    largestLayer = Math.max(largestLayer, h * m.numExperts, denseLayers > 0 ? dense.largest : 0, expert.largest, shared?.largest ?? 0);
  }

  let parts = 0;
  let unloaded = 0;
  for (const part of a.parts ?? []) {
    if (part.loaded === false) {
      unloaded += part.params;
      continue;
    }
    parts += part.params;
    largestLayer = Math.max(largestLayer, part.largestLayer);
  }
  const total = outside + blocks + parts;
  return {
    total,
    active: outside + activeBlocks + parts,
    embedding,
    lmHead,
    largestLayer,
    decoderLinear: mixerLinear + mlpLinear,
    parts,
    checkpointTotal: total + unloaded,
  };
}
