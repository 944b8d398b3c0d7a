import { num, positive, section, type Json } from './jsonFields';
import { countParams } from './paramCount';
import type { ModelArchitecture, ModelPart } from './types';

/**
 * The parts of a multimodal config outside its language model, counted from the config's own sections
 * (`vision_config`, `audio_config`, projector fields) the way each family's transformers code builds them.
 * A section without the fields a recipe needs yields no part: the count is then the language model's only,
 * never a guess.
 */

/** One encoder block: attention (q, k, v, o), an MLP, two norms; what each family's ViT or audio layer holds. */
interface BlockShape {
  width: number;
  inter: number;
  mlp: 'gated' | 'plain';
  norm: 'rms' | 'layer';
  /** Biases on q, k, v, o and the MLP (`qkvBias: false` leaves q/k/v without). */
  bias: boolean;
  qkvBias?: boolean;
  /** k_proj without a bias although the others have one (Whisper). */
  kNoBias?: boolean;
  /** Per-block extras: layer-scale vectors, q/k norms. */
  extra?: number;
}

function blockParams(b: BlockShape): { params: number; largest: number } {
  const d = b.width;
  const normWidth = b.norm === 'layer' ? 2 * d : d;
  const qkvBias = (b.qkvBias ?? b.bias) ? 3 * d - (b.kNoBias ? d : 0) : 0;
  const attention = 4 * d * d + qkvBias + (b.bias ? d : 0);
  const mats = b.mlp === 'gated' ? 3 : 2;
  const mlp = mats * d * b.inter + (b.bias ? (mats - 1) * b.inter + d : 0);
  return { params: attention + mlp + 2 * normWidth + (b.extra ?? 0), largest: Math.max(3 * d * d, d * b.inter) };
}

/** Linear layer with bias. */
const linear = (dIn: number, dOut: number, bias = true) => dIn * dOut + (bias ? dOut : 0);

function tower(kind: ModelPart['kind'], name: string, layers: number, block: BlockShape, stem: number, stemLargest = 0): ModelPart {
  const b = blockParams(block);
  return { kind, name, params: layers * b.params + stem, largestLayer: Math.max(b.largest, stemLargest) };
}

// l10n-ignore-start: a part's `name` is data kept in the catalog (catalogCodec.ts), in English like the ids it sits
// beside; no surface shows it yet, and one that does words the part by its `kind` and numbers in the reader's language.
const visionName = (layers: number, width: number) => `vision tower (${layers} blocks, width ${width})`;

/**
 * Qwen2-VL and Qwen2.5-VL (and Qwen2.5-Omni's vision): a bias-free patch convolution, blocks with biased
 * attention, and a norm + two-linear patch merger. Qwen2-VL: LayerNorm, GELU MLP of mlp_ratio × width, width
 * `embed_dim`; Qwen2.5-VL: RMSNorm, SwiGLU MLP of `intermediate_size`, width `hidden_size`.
 */
function qwenVlVision(v: Json, textHidden: number, generation: '2' | '2.5'): ModelPart[] | undefined {
  const first = generation === '2';
  const d = first ? positive(v, 'embed_dim') : positive(v, 'hidden_size');
  const depth = positive(v, 'depth');
  const inter = first && d ? Math.round(d * (num(v, 'mlp_ratio') ?? 4)) : positive(v, 'intermediate_size');
  if (!d || !depth || !inter) return undefined;
  const norm = first ? 'layer' : 'rms';
  const patch = (positive(v, 'in_chans', 'in_channels') ?? 3) * (positive(v, 'temporal_patch_size') ?? 2) * (positive(v, 'patch_size') ?? 14) ** 2 * d;
  const merged = d * (positive(v, 'spatial_merge_size') ?? 2) ** 2;
  const out = (first ? positive(v, 'hidden_size') : positive(v, 'out_hidden_size')) ?? textHidden;
  const merger = (norm === 'layer' ? 2 * d : d) + linear(merged, merged) + linear(merged, out);
  return [
    tower('vision', visionName(depth, d), depth, { width: d, inter, mlp: first ? 'plain' : 'gated', norm, bias: true }, patch),
    { kind: 'projector', name: 'patch merger', params: merger, largestLayer: merged * merged },
  ];
}

/**
 * Qwen3-VL (and Qwen3.5, Qwen3-Omni): a biased patch convolution, a learned position table, LayerNorm blocks
 * with a GELU MLP, a merger, and one more merger (normed after the 2×2 shuffle) per DeepStack layer.
 */
function qwen3VlVision(v: Json, textHidden: number): ModelPart[] | undefined {
  const d = positive(v, 'hidden_size');
  const depth = positive(v, 'depth');
  const inter = positive(v, 'intermediate_size');
  if (!d || !depth || !inter) return undefined;
  const patch = linear((positive(v, 'in_channels', 'in_chans') ?? 3) * (positive(v, 'temporal_patch_size') ?? 2) * (positive(v, 'patch_size') ?? 16) ** 2, d);
  const positions = (num(v, 'num_position_embeddings') ?? 0) * d;
  const merged = d * (positive(v, 'spatial_merge_size') ?? 2) ** 2;
  const out = positive(v, 'out_hidden_size') ?? textHidden;
  const merger = (normWidth: number) => 2 * normWidth + linear(merged, merged) + linear(merged, out);
  const deepstack = Array.isArray(v.deepstack_visual_indexes) ? v.deepstack_visual_indexes.length : 0;
  return [
    tower('vision', visionName(depth, d), depth, { width: d, inter, mlp: 'plain', norm: 'layer', bias: true }, patch + positions, positions),
    { kind: 'projector', name: deepstack ? `patch merger + ${deepstack} DeepStack mergers` : 'patch merger', params: merger(d) + deepstack * merger(merged), largestLayer: merged * merged },
  ];
}

/** A per-axis size that configs write as a number or as `[h, w]` (InternVL's HF format); square only. */
function side(v: Json, key: string): number | undefined {
  const raw = v[key];
  if (Array.isArray(raw) && raw.length === 2 && raw[0] === raw[1] && typeof raw[0] === 'number' && raw[0] > 0) return raw[0];
  return positive(v, key);
}

/** The fields every ViT-style `vision_config` (SigLIP, CLIP, Llama 4, InternViT) states, or undefined when one is missing. */
function vitFields(v: Json): { d: number; layers: number; inter: number; patchSize: number; imageSize: number; channels: number } | undefined {
  const d = positive(v, 'hidden_size');
  const layers = positive(v, 'num_hidden_layers');
  const inter = positive(v, 'intermediate_size');
  const patchSize = side(v, 'patch_size');
  const imageSize = side(v, 'image_size');
  if (!d || !layers || !inter || !patchSize || !imageSize) return undefined;
  return { d, layers, inter, patchSize, imageSize, channels: positive(v, 'num_channels') ?? 3 };
}

/**
 * SigLIP / CLIP-style ViT (Hugging Face `SiglipVisionModel`): a biased patch convolution, a learned position
 * per patch, LayerNorm blocks with a biased GELU MLP, a final LayerNorm.
 */
function siglipTower(v: Json): { part: ModelPart; width: number } | undefined {
  const vit = vitFields(v);
  if (!vit) return undefined;
  const { d, layers, inter, patchSize, imageSize } = vit;
  const patch = linear(vit.channels * patchSize * patchSize, d);
  const positions = (imageSize / patchSize) ** 2 * d;
  const part = tower('vision', visionName(layers, d), layers, { width: d, inter, mlp: 'plain', norm: 'layer', bias: true }, patch + positions + 2 * d, positions);
  return { part, width: d };
}

/** Gemma 3: SigLIP, then an RMSNorm over the vision width and one projection to the text width (no bias). */
function gemma3Vision(v: Json, textHidden: number): ModelPart[] | undefined {
  const siglip = siglipTower(v);
  if (!siglip) return undefined;
  const w = siglip.width;
  return [siglip.part, { kind: 'projector', name: 'multimodal projector', params: w + w * textHidden, largestLayer: w * textHidden }];
}

/**
 * Llama 4: a bias-free patch projection, a class token and position table, LayerNorms before and after,
 * LayerNorm blocks with a biased GELU MLP; a pixel-shuffle adapter MLP and one projection to the text width.
 */
function llama4Vision(v: Json, textHidden: number): ModelPart[] | undefined {
  const vit = vitFields(v);
  if (!vit) return undefined;
  const { d, layers, inter, patchSize, imageSize } = vit;
  const patch = vit.channels * patchSize * patchSize * d;
  const positions = ((imageSize / patchSize) ** 2 + 1) * d;
  const stem = patch + d + positions + 2 * 2 * d;
  const shuffled = d / (num(v, 'pixel_shuffle_ratio') ?? 0.5) ** 2;
  const adapterIn = positive(v, 'projector_input_dim') ?? shuffled;
  const adapterOut = positive(v, 'projector_output_dim') ?? adapterIn;
  const out = positive(v, 'vision_output_dim') ?? adapterOut;
  const adapter = shuffled * adapterIn + adapterIn * adapterOut;
  const projector = linear(out, textHidden, v.multi_modal_projector_bias === true);
  return [
    tower('vision', visionName(layers, d), layers, { width: d, inter, mlp: 'plain', norm: 'layer', bias: true }, stem + adapter, shuffled * adapterIn),
    { kind: 'projector', name: 'multimodal projector', params: projector, largestLayer: out * textHidden },
  ];
}

/**
 * InternVL's InternViT (both `internvl_chat` and transformers' `internvl`): a biased patch convolution, a class
 * token and a position per patch plus one, blocks with layer-scale vectors and (6B) q/k norms over the full
 * width, no final norm; then `mlp1`, a norm over the 2×2-shuffled features and two linears to the text width.
 */
function internVision(v: Json, textHidden: number, outer: Json): ModelPart[] | undefined {
  const vit = vitFields(v);
  if (!vit) return undefined;
  const { d, layers, inter, patchSize, imageSize } = vit;
  const rms = v.norm_type === 'rms_norm';
  const qkNorm = v.qk_normalization === true || v.use_qk_norm === true;
  const qkvBias = v.qkv_bias === true || v.attention_bias === true;
  const normWidth = rms ? d : 2 * d;
  const block: BlockShape = { width: d, inter, mlp: 'plain', norm: rms ? 'rms' : 'layer', bias: true, qkvBias, extra: 2 * d + (qkNorm ? 2 * normWidth : 0) };
  const positions = ((imageSize / patchSize) ** 2 + 1) * d;
  const stem = linear(vit.channels * patchSize * patchSize, d) + d + positions;
  const shuffled = d * Math.trunc(1 / (num(outer, 'downsample_ratio') ?? 0.5)) ** 2;
  const projector = 2 * shuffled + linear(shuffled, textHidden) + linear(textHidden, textHidden);
  return [
    tower('vision', visionName(layers, d), layers, block, stem, positions),
    { kind: 'projector', name: 'multimodal projector (mlp1)', params: projector, largestLayer: shuffled * textHidden },
  ];
}

/**
 * LLaVA and LLaVA-NeXT with a CLIP tower (transformers' `CLIPVisionModel`, kept whole though the features are
 * taken from a lower layer): a bias-free patch convolution, a class token, a position per patch plus one,
 * LayerNorms before and after the blocks; a two-linear projector, and (LLaVA-NeXT) one `image_newline` vector.
 */
function llavaVision(v: Json, textHidden: number, outer: Json, newline: boolean): ModelPart[] | undefined {
  if (String(v.model_type ?? 'clip_vision_model') !== 'clip_vision_model') return undefined;
  const vit = vitFields(v);
  if (!vit) return undefined;
  const { d, layers, inter, patchSize, imageSize } = vit;
  const positions = ((imageSize / patchSize) ** 2 + 1) * d;
  const stem = vit.channels * patchSize * patchSize * d + d + positions + 2 * 2 * d;
  const bias = outer.multimodal_projector_bias !== false;
  const projector = linear(d, textHidden, bias) + linear(textHidden, textHidden, bias) + (newline ? textHidden : 0);
  return [
    tower('vision', visionName(layers, d), layers, { width: d, inter, mlp: 'plain', norm: 'layer', bias: true }, stem, positions),
    { kind: 'projector', name: newline ? 'multimodal projector + image newline' : 'multimodal projector', params: projector, largestLayer: textHidden * textHidden },
  ];
}

/** Which recipe reads a family's vision section. */
const visionRecipes: Record<string, (v: Json, textHidden: number, outer: Json) => ModelPart[] | undefined> = {
  qwen2_vl: (v, h) => qwenVlVision(v, h, '2'),
  qwen2_5_vl: (v, h) => qwenVlVision(v, h, '2.5'),
  qwen2_5_omni: (v, h) => qwenVlVision(v, h, '2.5'),
  qwen3_vl: qwen3VlVision,
  qwen3_vl_moe: qwen3VlVision,
  qwen3_5: qwen3VlVision,
  qwen3_5_moe: qwen3VlVision,
  qwen3_omni_moe: qwen3VlVision,
  gemma3: gemma3Vision,
  llama4: llama4Vision,
  internvl: internVision,
  internvl_chat: internVision,
  llava: (v, h, outer) => llavaVision(v, h, outer, false),
  llava_next: (v, h, outer) => llavaVision(v, h, outer, true),
};

/** Towers and projectors of a multimodal config; empty for text-only configs and unknown layouts. */
export function modelParts(outer: Json, arch: ModelArchitecture): ModelPart[] {
  const outerType = String(outer.model_type ?? '').toLowerCase();
  const thinker = section(outer, 'thinker_config');
  const vision = section(outer, 'vision_config') ?? section(thinker, 'vision_config');
  const recipe = visionRecipes[outerType];
  return (vision && recipe?.(vision, arch.hiddenSize, outer)) || [];
}

/**
 * Multi-token-prediction layers the checkpoint stores after the decoder (Qwen3.5 `mtp_num_hidden_layers`, MiMo
 * `num_nextn_predict_layers`, the field its family rule names): two input norms, a 2h → h fusion, one
 * full-attention decoder layer and a final norm each. transformers does not load them, so they count for the
 * checkpoint's total only. (DeepSeek-V3's also hold copies of the embedding and head: not read here.)
 */
export function mtpPart(c: Json, arch: ModelArchitecture, field = 'mtp_num_hidden_layers'): ModelPart | undefined {
  const layers = positive(c, field);
  if (!layers) return undefined;
  const one: ModelArchitecture = { ...arch, numLayers: 1, linearAttention: undefined, parts: undefined, vocabSize: 0, tiedEmbeddings: true };
  if (one.moe) one.moe = { ...one.moe, denseLayers: 0 };
  const h = arch.hiddenSize;
  // A one-layer model without vocabulary: its count less the final norm is one decoder layer.
  const layer = countParams(one).total - h;
  return { kind: 'mtp', name: `${layers} multi-token-prediction layer${layers > 1 ? 's' : ''}`, params: layers * (3 * h + 2 * h * h + layer), largestLayer: 2 * h * h, loaded: false };
}
// l10n-ignore-end
