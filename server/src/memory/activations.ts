import type { ModelArchitecture } from './types';

/**
 * Activation memory per GPU, after Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
 * Transformer Models"), generalised to GQA, gated MLPs, FlashAttention and models without dropout.
 * Every term is a tensor autograd saves for the backward pass; `p` is the activation dtype's bytes.
 * With a plain MLP of width 4h, dropout, no GQA, no FlashAttention and p = 2 a layer is exactly
 * s·b·h·(34 + 5·a·s/h), the paper's Eq. 1.
 */
export interface ActivationInput {
  architecture: ModelArchitecture;
  microBatch: number;
  seqLen: number;
  /** Bytes per activation element (2 for bf16/fp16, 4 for fp32). */
  bytes: number;
  flashAttention: boolean;
  gradientCheckpointing: boolean;
}

export interface ActivationBreakdown {
  /** One decoder layer, all saved tensors. */
  perLayer: number;
  /** All layers (with full checkpointing: the saved layer inputs plus one layer being recomputed). */
  layers: number;
  /** Final norm, head input, 16-bit logits, fp32 logits for the loss and their gradient. */
  logits: number;
  total: number;
}

export function layerActivationBytes(a: ModelArchitecture, s: number, b: number, p: number, flash: boolean): number {
  const h = a.hiddenSize;
  const sbh = s * b * h;
  const heads = a.numHeads;
  const dropout = a.dropout ?? false;
  // Query/key/value widths; MLA keeps full-width per-head q, k (nope + rope) and v after up-projection.
  const qWidth = a.mla ? heads * (a.mla.qkNopeHeadDim + a.mla.qkRopeHeadDim) : heads * a.headDim;
  const kWidth = a.mla ? qWidth : a.numKvHeads * a.headDim;
  const vWidth = a.mla ? heads * a.mla.vHeadDim : a.numKvHeads * a.headDim;
  const attnOutWidth = a.mla ? vWidth : qWidth;

  let bytes = 2 * p * sbh; // inputs of the two norms
  bytes += p * sbh; // input of the q/k/v projections
  bytes += p * s * b * (qWidth + kWidth + vWidth); // Q, K, V kept for the attention backward
  if (flash) {
    bytes += 4 * heads * s * b; // fp32 log-sum-exp per row; the output is the out-projection input below
  } else {
    const scores = heads * s * s * b;
    bytes += p * scores; // softmax output
    if (dropout) bytes += scores + p * scores; // dropout mask (1 byte) + dropout output
  }
  bytes += p * s * b * attnOutWidth; // input of the out projection
  if (dropout) bytes += sbh; // attention-output dropout mask

  const inter = a.moe ? a.moe.moeIntermediateSize * a.moe.expertsPerToken + (a.moe.sharedExpertIntermediateSize ?? 0) : a.intermediateSize;
  const sbi = s * b * inter;
  if (a.mlp === 'gated') {
    // input of gate/up; gate output (activation input), activation output, up output, down input
    bytes += p * sbh + 4 * p * sbi;
  } else {
    // input of fc1; activation input; fc2 input
    bytes += p * sbh + 2 * p * sbi;
  }
  if (dropout) bytes += sbh; // MLP-output dropout mask
  if (a.moe) bytes += 4 * s * b * a.moe.numExperts; // router logits / probabilities (fp32)
  return bytes;
}

export function activationBytes(i: ActivationInput): ActivationBreakdown {
  const a = i.architecture;
  const s = i.seqLen;
  const b = i.microBatch;
  const p = i.bytes;
  const sbh = s * b * a.hiddenSize;
  const perLayer = layerActivationBytes(a, s, b, p, i.flashAttention);
  // Full checkpointing keeps each layer's input and recomputes one layer at a time in the backward pass.
  const layers = i.gradientCheckpointing ? a.numLayers * p * sbh + perLayer : a.numLayers * perLayer;
  const sbv = s * b * a.vocabSize;
  // Final norm input and head input; the logits in the model dtype (returned to the caller); the fp32
  // upcast the loss keeps (log-softmax output); its fp32 gradient, alive when the backward pass starts.
  const logits = 2 * p * sbh + p * sbv + 4 * sbv + 4 * sbv;
  return { perLayer, layers, logits, total: layers + logits };
}
