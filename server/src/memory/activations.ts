import type { AttentionImpl, LossKernel, ModelArchitecture } from './types';

/**
 * Activation memory per GPU, after Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
 * Transformer Models"), generalised to GQA, gated MLPs, the attention kernels transformers uses, the fp32
 * upcasts of its RMSNorm and loss, and models without dropout. Every term is a tensor autograd saves for the
 * backward pass (docs/memory-model.md §7 names the line of code that saves it); `p` is the activation
 * dtype's bytes. With a plain MLP of width 4h, LayerNorm, dropout, no GQA, eager attention and p = 2, a layer
 * is the paper's Eq. 1, s·b·h·(34 + 5·a·s/h), plus the fp32 softmax output transformers' eager attention keeps
 * (4·a·s²·b; the paper's softmax is 16-bit).
 */
export interface ActivationInput {
  architecture: ModelArchitecture;
  microBatch: number;
  seqLen: number;
  /** Bytes per activation element (2 for bf16/fp16, 4 for fp32). */
  bytes: number;
  attention: AttentionImpl;
  gradientCheckpointing: boolean;
  /** How the loss is computed; default 'standard'. */
  loss?: LossKernel;
  /** Tokens per sequence the loss's masked terms cover (GKD: the completion), when fewer than seqLen. */
  lossTokens?: number;
  /** Ulysses sequence parallelism: each GPU holds 1/N of the tokens (default 1). */
  sequenceParallel?: number;
  /** Sequences per sample (2 for chosen + rejected of a preference pair; default 1). */
  sequencesPerSample?: number;
  /** Norm weights are trained (full fine-tuning): the normalised tensor is saved for their gradient too. */
  trainableNorms: boolean;
  /** The output head is trained: its input is saved and liger computes its gradient in the forward pass. */
  trainableHead: boolean;
  /**
   * LoRA's saved inputs, when they are not the block's own 16-bit tensors: each adapted linear's lora_A saves its
   * input cast to the adapter dtype (PEFT keeps fp32 adapters on a 16-bit base) and/or dropped out.
   */
  loraInputs?: { perLinearWidth: number; uniqueWidth: number; castBytes: number; dropout: boolean };
}

export interface ActivationBreakdown {
  /** Tokens one GPU processes per micro-batch: s · b · sequences per sample ÷ sequence parallelism. */
  tokens: number;
  /** One decoder layer, all saved tensors (what is live while one layer is recomputed under checkpointing). */
  perLayer: number;
  /** All layers at the end of the forward pass (with full checkpointing: only the saved layer inputs). */
  layers: number;
  /** The loss's tensors at the end of the forward pass: 16-bit logits, fp32 upcast, log-softmax (or liger's / the chunked loss's). */
  logitsForward: number;
  /** What the loss's backward adds at the start of the backward pass: the fp32 gradient of the logits. */
  logitsBackward: number;
  /** Peak of the forward pass: layers + logitsForward. */
  forwardPeak: number;
  /** Peak at the start of the backward pass: forwardPeak + logitsBackward (plus one recomputed layer when that is larger). */
  backwardPeak: number;
  /**
   * Peak while a decoder layer runs its backward: the saved layer inputs and the one layer recomputed under
   * checkpointing, else every layer's saved tensors (what a layer's matmul workspace adds to).
   */
  layerBackward: number;
  /** Activations still live at the end of the backward pass, when every gradient exists: one layer's. */
  tail: number;
  /** = backwardPeak, the activation term of the forward + backward phase. */
  total: number;
}

/** transformers' RMSNorm (Llama, Qwen, Mistral, … — the gated-MLP families) upcasts to fp32; LayerNorm models do not. */
function usesRmsNorm(a: ModelArchitecture): boolean {
  return a.mlp === 'gated';
}

/**
 * Saved bytes per token of one decoder layer. `s` is the sequence length one attention sees (for the s×s
 * scores of eager attention), `b` the sequences in the micro-batch on this GPU.
 */
export function layerBytesPerToken(a: ModelArchitecture, s: number, p: number, attention: AttentionImpl, trainableNorms: boolean): number {
  const h = a.hiddenSize;
  const heads = a.numHeads;
  const dropout = a.dropout ?? false;
  // Query/key/value widths; MLA keeps full-width per-head q, k (nope + rope) and v after up-projection.
  const qWidth = a.mla ? heads * (a.mla.qkNopeHeadDim + a.mla.qkRopeHeadDim) : heads * a.headDim;
  const kWidth = a.mla ? qWidth : a.numKvHeads * a.headDim;
  const vWidth = a.mla ? heads * a.mla.vHeadDim : a.numKvHeads * a.headDim;
  const attnOutWidth = a.mla ? vWidth : qWidth;

  // Two norms. RMSNorm (transformers' LlamaRMSNorm and its copies): `hidden_states.to(torch.float32)` is saved
  // by the multiply with rsqrt (4h), and `self.weight * hidden_states.to(input_dtype)` saves the normalised
  // 16-bit tensor when the weight trains (p·h). LayerNorm saves its input (p·h; mean and rstd are per token).
  const norm = usesRmsNorm(a) ? 4 * h + (trainableNorms && p < 4 ? p * h : 0) : p * h;
  let bytes = 2 * norm;
  bytes += p * h; // input of the q/k/v projections (the first norm's output)
  bytes += p * (qWidth + kWidth + vWidth); // Q, K, V after RoPE, saved by the attention kernel
  if (attention === 'eager') {
    // eager_attention_forward: softmax(..., dtype=torch.float32) saves its fp32 output, `.to(query.dtype)` the
    // 16-bit copy the matmul with V saves: (4 + p) bytes per score, a·s scores per token.
    bytes += (4 + (p < 4 ? p : 0)) * heads * s;
    if (dropout) bytes += heads * s + p * heads * s; // dropout mask (1 byte) + dropped copy
    bytes += p * attnOutWidth; // the output, transposed to contiguous for the out projection
  } else {
    bytes += 4 * heads; // fp32 log-sum-exp per head and token, saved by the fused kernel
    bytes += p * attnOutWidth; // the kernel's output, saved for its backward
    // SDPA returns (b, heads, s, d); transformers transposes it and makes it contiguous for o_proj, a second
    // copy. FlashAttention-2 returns (b, s, heads, d), already the out projection's input.
    if (attention === 'sdpa') bytes += p * attnOutWidth;
  }
  if (dropout) bytes += h; // attention-output dropout mask

  const inter = a.moe ? a.moe.moeIntermediateSize * a.moe.expertsPerToken + (a.moe.sharedExpertIntermediateSize ?? 0) : a.intermediateSize;
  if (a.mlp === 'gated') {
    // input of gate/up; gate output (SiLU's input), activation output and up output (the product's operands), down input
    bytes += p * h + 4 * p * inter;
  } else {
    // input of fc1; activation input; fc2 input
    bytes += p * h + 2 * p * inter;
  }
  if (dropout) bytes += h; // MLP-output dropout mask
  if (a.moe) bytes += 4 * a.moe.numExperts; // router logits / probabilities (fp32)
  return bytes;
}

/** Number of chunks torchtune's CEWithChunkedOutputLoss splits the logits into (num_output_chunks = 8). */
export const LOSS_CHUNKS = 8;

export function activationBytes(i: ActivationInput): ActivationBreakdown {
  const a = i.architecture;
  const p = i.bytes;
  const sp = Math.max(1, i.sequenceParallel ?? 1);
  const sequences = i.microBatch * Math.max(1, i.sequencesPerSample ?? 1);
  const tokens = (i.seqLen * sequences) / sp;
  const h = a.hiddenSize;
  const V = a.vocabSize;
  // Ulysses exchanges heads for sequence around attention: each GPU sees the whole sequence for 1/sp of the
  // heads, the same scores per GPU as a 1/sp share of the tokens with all heads.
  // PEFT's LoRA Linear.forward (peft/tuners/lora/layer.py): `x = self._cast_input_dtype(x, lora_A.weight.dtype)`
  // then `lora_B(lora_A(dropout(x)))`. lora_A saves its input: the block's own tensor when neither cast nor dropout
  // applies (counted above); otherwise its own copy per adapted linear (4 bytes for fp32 adapters, plus a 1-byte
  // dropout mask), and the frozen base linears then save nothing, so the shared 16-bit inputs are gone.
  const l = i.loraInputs;
  const loraCopies = l && (l.castBytes > p || l.dropout) ? (Math.max(l.castBytes, p) + (l.dropout ? 1 : 0)) * l.perLinearWidth - p * l.uniqueWidth : 0;
  const perLayer = tokens * (layerBytesPerToken(a, i.seqLen, p, i.attention, i.trainableNorms) + loraCopies);
  // Full checkpointing keeps each layer's input and recomputes one layer at a time in the backward pass.
  const checkpoints = a.numLayers * p * h * tokens;
  const layers = i.gradientCheckpointing ? checkpoints : a.numLayers * perLayer;

  // The final norm (as in a layer) and the head's input.
  const finalNorm = (usesRmsNorm(a) ? 4 * h : p * h) * tokens + p * h * tokens;
  const tv = tokens * V;
  let logitsForward: number;
  let logitsBackward: number;
  switch (i.loss ?? 'standard') {
    case 'standard':
      // transformers' ForCausalLMLoss: `logits = logits.float()` (an fp32 copy unless already fp32), then
      // cross_entropy's log_softmax saves its fp32 output; the 16-bit logits are the model's output. Backward
      // starts with the fp32 gradient of the logits.
      logitsForward = p * tv + (p < 4 ? 4 * tv : 0) + 4 * tv;
      logitsBackward = 4 * tv;
      break;
    case 'chunked':
      // torchtune CEWithChunkedOutputLoss: the 16-bit logits come as 8 chunks; each is upcast on its own, and
      // its log-softmax (fp32) is saved: one chunk's upcast at a time, all chunks' log-softmax.
      logitsForward = p * tv + 4 * tv + (p < 4 ? (4 * tv) / LOSS_CHUNKS : 0);
      logitsBackward = (4 * tv) / LOSS_CHUNKS;
      break;
    case 'logprobs': {
      // TRL's selective_log_softmax: for 16-bit logits a log_softmax per sequence in the logits' dtype, each saved
      // for backward; for fp32 a gather and a logsumexp over the logits themselves (trl/trainer/utils.py). GRPO asks
      // the head for the completion's logits only (logits_to_keep, `lossTokens`).
      const kept = tv * Math.min(1, (i.lossTokens ?? i.seqLen) / i.seqLen);
      logitsForward = p * kept + (p < 4 ? p * kept : 0);
      logitsBackward = p * kept;
      break;
    }
    case 'jsd':
      // GKD (TRL's GKDTrainer.generalized_jsd_loss, which ms-swift's GKD trainer called until its chunked JSD of
      // Dec 2025, #7164): the student's and the teacher's 16-bit logits (2p), their masked copies (`logits[mask]`,
      // 2p), the division by the temperature (2p), both log_softmax (2p), the stack of the two shifted log-probs
      // for the mixture's logsumexp (2p), the mixture (p), both kl_div (2p) and the two weighted terms with their
      // sum (3p), all live when the sum is taken: 16p per token and vocabulary entry, every token counted as a
      // completion token when the completion's length is unknown (the prompt's are masked out, so this errs high).
      // The two logits span the whole sequence; the other 14p, from the masked copies on, only the completion.
      // Backward starts from what is saved (the log-probs, the stack, the mixture), below that forward peak.
      logitsForward = 2 * p * tv + 14 * p * tv * Math.min(1, (i.lossTokens ?? i.seqLen) / i.seqLen);
      logitsBackward = 0;
      break;
    case 'liger': {
      // liger's fused linear cross-entropy never builds the logits: chunks of ≈ tokens·h/V rows (rounded up to a
      // power of two) are projected, turned into their gradient in place and folded into grad_input (p·tokens·h,
      // allocated up front) and, when the head trains, grad_weight (the head's gradient, p·V·h).
      const rows = Math.min(tokens, 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(tokens / Math.ceil(V / h))))));
      logitsForward = p * h * tokens + p * rows * V + 4 * tokens + (i.trainableHead ? p * V * h : 0);
      logitsBackward = 0;
      break;
    }
  }
  const forwardPeak = layers + finalNorm + logitsForward;
  const layerBackward = (i.gradientCheckpointing ? checkpoints + perLayer : layers) + finalNorm;
  const backwardPeak = Math.max(forwardPeak + logitsBackward, layerBackward);
  const tail = perLayer;
  return { tokens, perLayer, layers, logitsForward: finalNorm + logitsForward, logitsBackward, forwardPeak, backwardPeak, layerBackward, tail, total: backwardPeak };
}
