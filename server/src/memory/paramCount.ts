import type { ModelArchitecture } from './types';

/**
 * Parameter counts from architecture facts (the fields of config.json), for Llama-style decoders and the
 * common variants: GQA, qkv bias, per-head q/k norms, 4 norms per layer, MoE (routed + shared experts,
 * leading dense layers), DeepSeek MLA, tied or untied embeddings, and a stated extra (vision tower).
 */
export interface ParamCount {
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
}

/** Attention parameters of one layer, and how many of them are linear-layer weights. */
function attentionParams(a: ModelArchitecture): { all: number; linear: number; largest: number } {
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
  const qOut = a.numHeads * a.headDim;
  const kvOut = a.numKvHeads * a.headDim;
  const q = h * qOut;
  const kv = h * kvOut;
  const o = qOut * h;
  const linear = q + 2 * kv + o;
  let all = linear;
  if (a.qkvBias) all += qOut + 2 * kvOut;
  if (a.qkNorm) all += 2 * a.headDim;
  const qkvModule = a.fusedQkv ? q + 2 * kv + (a.qkvBias ? qOut + 2 * kvOut : 0) : q + (a.qkvBias ? qOut : 0);
  return { all, linear, largest: Math.max(qkvModule, o) };
}

/** Gated MLPs have gate, up and down matrices; plain (GeLU) ones have up and down. */
function mlpMatrices(a: ModelArchitecture): number {
  return a.mlp === 'gated' ? 3 : 2;
}

function largestMlpModule(a: ModelArchitecture, inter: number): number {
  // A fused gate_up matrix is one module holding two h×I blocks.
  return a.fusedGateUp && a.mlp === 'gated' ? 2 * a.hiddenSize * inter : a.hiddenSize * inter;
}

export function countParams(a: ModelArchitecture): ParamCount {
  const h = a.hiddenSize;
  const L = a.numLayers;
  const attn = attentionParams(a);
  const norms = (a.normsPerLayer ?? 2) * h;
  const mats = mlpMatrices(a);
  const denseMlp = mats * h * a.intermediateSize;
  const embedding = a.vocabSize * h;
  const lmHead = a.tiedEmbeddings ? 0 : a.vocabSize * h;
  let total = embedding + lmHead + h + (a.extraParams ?? 0);
  let active = total;
  let decoderLinear = 0;
  let largestLayer = Math.max(embedding, attn.largest);

  if (!a.moe) {
    total += L * (attn.all + norms + denseMlp);
    active = total;
    decoderLinear = L * (attn.linear + denseMlp);
    largestLayer = Math.max(largestLayer, largestMlpModule(a, a.intermediateSize));
  } else {
    const m = a.moe;
    const expert = mats * h * m.moeIntermediateSize;
    const shared = m.sharedExpertIntermediateSize ? mats * h * m.sharedExpertIntermediateSize : 0;
    const router = h * m.numExperts + (m.routerBias ? m.numExperts : 0);
    const gate = m.sharedExpertGate ? h : 0;
    const denseLayers = m.firstDenseLayers ?? 0;
    const moeLayers = L - denseLayers;
    const common = attn.all + norms;
    const dense = denseLayers * (common + denseMlp);
    total += dense + moeLayers * (common + m.numExperts * expert + shared + router + gate);
    active += dense + moeLayers * (common + m.expertsPerToken * expert + shared + router + gate);
    decoderLinear =
      denseLayers * (attn.linear + denseMlp) + moeLayers * (attn.linear + m.numExperts * expert + shared + h * m.numExperts);
    largestLayer = Math.max(
      largestLayer,
      h * m.numExperts,
      denseLayers > 0 ? largestMlpModule(a, a.intermediateSize) : 0,
      largestMlpModule(a, m.moeIntermediateSize),
      m.sharedExpertIntermediateSize ? largestMlpModule(a, m.sharedExpertIntermediateSize) : 0,
    );
  }
  return { total, active, embedding, lmHead, largestLayer, decoderLinear };
}
