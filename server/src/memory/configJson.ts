import { applyFamilyRule, familyRules } from './familyRules';
import { num, positive, section, type Json } from './jsonFields';
import { mtpPart, modelParts } from './towers';
import type { ModelArchitecture } from './types';

/**
 * A Hugging Face config.json (parsed) → architecture facts. The common fields are read under every spelling
 * the families use; what a family implies without saying (biases, norms, fused projections) comes from
 * familyRules.ts. Multimodal configs are read through their language model's section (`text_config`,
 * `llm_config`, `thinker_config`) and their towers through towers.ts.
 */
/** Configs (multimodal wrappers, renamed releases) whose language model is a family of familyRules.ts under another name. */
const languageFamilyOf: Record<string, string> = {
  qwen2_vl: 'qwen2',
  qwen2_vl_text: 'qwen2',
  qwen2_5_vl: 'qwen2',
  qwen2_5_vl_text: 'qwen2',
  qwen2_5_omni_text: 'qwen2',
  qwen2_5_omni_thinker: 'qwen2',
  qwen2_audio: 'qwen2',
  qwen3_vl_text: 'qwen3',
  qwen3_vl: 'qwen3',
  qwen3_vl_moe_text: 'qwen3_moe',
  qwen3_vl_moe: 'qwen3_moe',
  qwen3_omni_moe_text: 'qwen3_moe',
  qwen3_omni_moe_thinker: 'qwen3_moe',
  qwen3_5: 'qwen3_5_text',
  qwen3_5_moe: 'qwen3_5_moe_text',
  llava: 'llama',
  llava_next: 'llama',
  gemma3: 'gemma3_text',
  llama4: 'llama4_text',
  // Kimi K2: its config names `DeepseekV3ForCausalLM` as the architecture; only the sizes differ.
  kimi_k2: 'deepseek_v3',
};

/** Families whose MLP is up → activation → down (two matrices), for configs no rule names. */
const plainMlp = /^(gptj|opt|bloom|mpt|bert|roberta|t5)$/;

export interface ParsedModelConfig {
  architecture: ModelArchitecture;
  /** The language model's family (`qwen2` for a Qwen2.5-VL config). */
  modelType: string;
  /** The config's own `model_type` (`qwen2_5_vl`). */
  outerModelType: string;
  /** torch_dtype / dtype as written ("bfloat16"). */
  dtype?: string;
  /** The config describes more than its language model (towers counted in `architecture.parts` when stated). */
  multimodal: boolean;
}

/** The language model's own section of a (possibly multimodal) config, merged over the outer fields. */
function languageSection(outer: Json): Json {
  const thinker = section(outer, 'thinker_config');
  const text = section(outer, 'text_config') ?? section(outer, 'llm_config') ?? section(outer, 'language_config') ?? section(thinker, 'text_config');
  return text ? { ...outer, ...text } : outer;
}

function modelTypeOf(outer: Json, lm: Json): string {
  const raw = String(lm.model_type ?? outer.model_type ?? '').toLowerCase();
  return languageFamilyOf[raw] ?? raw;
}

export function architectureFromConfig(config: unknown): ParsedModelConfig | undefined {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return undefined;
  const outer = config as Json;
  const c = languageSection(outer);
  const modelType = modelTypeOf(outer, c);
  const rule = familyRules[modelType] ?? {};

  const h = positive(c, 'hidden_size', 'n_embd', 'd_model', 'dim');
  const L = positive(c, 'num_hidden_layers', 'num_layers', 'n_layer', 'n_layers');
  const heads = positive(c, 'num_attention_heads', 'n_head', 'num_heads', 'n_heads');
  const V = positive(c, 'padded_vocab_size', 'vocab_size');
  if (!h || !L || !heads || !V) return undefined;

  const arch: ModelArchitecture = {
    hiddenSize: h,
    numLayers: L,
    numHeads: heads,
    numKvHeads: kvHeads(c, modelType, heads),
    headDim: positive(c, 'head_dim', 'kv_channels') ?? h / heads,
    intermediateSize: intermediateSize(c, modelType, h),
    vocabSize: V,
    tiedEmbeddings: typeof c.tie_word_embeddings === 'boolean' ? c.tie_word_embeddings : rule.tiedByDefault === true,
    mlp: plainMlp.test(modelType) ? 'plain' : 'gated',
  };
  applyFamilyRule(arch, rule);
  readBiases({ attention_bias: rule.attentionBiasDefault, ...c }, arch, rule.attentionBiasOnOutput === true);
  if (modelType === 'falcon') readFalconNorms(c, arch);
  if (modelType === 'stablelm' && c.use_parallel_residual === true) arch.normsPerLayer = 1;
  if (modelType === 'cohere' && c.use_qk_norm === true) arch.qkNorm = arch.qkNormAllHeads = true;
  if ((num(c, 'attention_dropout', 'attn_pdrop', 'hidden_dropout', 'resid_pdrop', 'hidden_dropout_prob') ?? 0) > 0) arch.dropout = true;
  const positions = modelType === 'gpt2' || modelType === 'gpt_bigcode' ? positive(c, 'n_positions', 'max_position_embeddings') : undefined;
  if (positions) arch.positionEmbeddings = positions;

  readMoe(c, arch, rule.sharedExpertGate === true, rule.sharedExpert);
  if (arch.moe && rule.routerBias) arch.moe.routerBias = true;
  readMla(c, arch);
  readLinearAttention(c, arch);

  const parts = [...modelParts(outer, arch)];
  const mtp = mtpPart(c, arch, rule.mtpLayersField);
  if (mtp) parts.push(mtp);
  if (parts.length) arch.parts = parts;

  const dtype = typeof c.torch_dtype === 'string' ? c.torch_dtype : typeof c.dtype === 'string' ? c.dtype : undefined;
  const multimodal = c !== outer || typeof outer.vision_config === 'object' || typeof outer.audio_config === 'object';
  return { architecture: arch, modelType, outerModelType: String(outer.model_type ?? modelType).toLowerCase(), dtype, multimodal };
}

function kvHeads(c: Json, modelType: string, heads: number): number {
  // ChatGLM: multi_query_group_num only applies with multi_query_attention.
  const chatglmKv = c.multi_query_attention === true ? positive(c, 'multi_query_group_num') : undefined;
  if (modelType === 'falcon') {
    if (c.new_decoder_architecture === true) return positive(c, 'num_kv_heads') ?? heads;
    return c.multi_query === false ? heads : 1;
  }
  // GPT-BigCode (SantaCoder, StarCoder): one key/value head with multi_query.
  if (c.multi_query === true) return 1;
  return positive(c, 'num_key_value_heads', 'n_kv_heads', 'num_kv_heads') ?? chatglmKv ?? heads;
}

function intermediateSize(c: Json, modelType: string, h: number): number {
  // Llama 4: `intermediate_size` is an expert's width; the dense layers use `intermediate_size_mlp`.
  if (modelType === 'llama4_text') return positive(c, 'intermediate_size_mlp') ?? 4 * h;
  const stated = positive(c, 'intermediate_size', 'ffn_hidden_size', 'n_inner', 'ffn_dim');
  // Qwen (first generation) states the width of gate and up together; each is half of it.
  if (modelType === 'qwen' && stated) return stated / 2;
  return stated ?? 4 * h;
}

function readBiases(c: Json, arch: ModelArchitecture, attentionBiasOnOutput: boolean): void {
  const attentionBias = c.attention_bias === true || c.bias === true;
  if (attentionBias || c.qkv_bias === true || c.add_qkv_bias === true || c.use_qkv_bias === true) arch.qkvBias = true;
  if ((attentionBias && attentionBiasOnOutput) || c.attention_out_bias === true) arch.oBias = true;
  // Falcon, StarCoder2, GPT-NeoX: `bias` / `use_bias` switch every linear's bias.
  if (c.use_bias === true || (c.bias === true && arch.norm === 'layer')) arch.linearBias = true;
  if (c.use_bias === false || (c.bias === false && arch.norm === 'layer')) {
    arch.linearBias = false;
    arch.qkvBias = false;
  }
  // Biases on every linear include those of q, k, v and o: one spelling, so equal shapes compare equal.
  if (arch.linearBias) {
    delete arch.qkvBias;
    delete arch.oBias;
  }
}

/** Falcon: the new decoder has ln_attn and ln_mlp (or one shared); the old one a single input norm when parallel. */
function readFalconNorms(c: Json, arch: ModelArchitecture): void {
  if (c.new_decoder_architecture === true) arch.normsPerLayer = num(c, 'num_ln_in_parallel_attn') === 1 ? 1 : 2;
  else arch.normsPerLayer = c.parallel_attn === false ? 2 : 1;
}

function readMoe(c: Json, arch: ModelArchitecture, sharedExpertGate: boolean, shared?: 'one-expert'): void {
  const experts = positive(c, 'num_local_experts', 'n_routed_experts', 'num_experts');
  const topK = positive(c, 'num_experts_per_tok', 'moe_topk', 'top_k', 'moe_k');
  if (!experts || !topK || experts <= 1) return;
  const L = arch.numLayers;
  const moeInter = positive(c, 'moe_intermediate_size', 'intermediate_size') ?? arch.intermediateSize;
  const sharedCount = positive(c, 'n_shared_experts', 'num_shared_experts') ?? (shared === 'one-expert' ? 1 : undefined);
  const sharedInter = positive(c, 'shared_expert_intermediate_size') ?? (sharedCount ? sharedCount * moeInter : undefined);
  arch.moe = { numExperts: experts, expertsPerToken: topK, moeIntermediateSize: moeInter };
  if (sharedInter) arch.moe.sharedExpertIntermediateSize = sharedInter;
  const dense = denseLayerCount(c, L);
  if (dense) arch.moe.denseLayers = dense;
  if (sharedExpertGate && sharedInter) arch.moe.sharedExpertGate = true;
  if (c.topk_method === 'noaux_tc') arch.moe.routerBias = true;
}

/** How many layers of a MoE model keep a dense MLP. */
function denseLayerCount(c: Json, L: number): number {
  const onlyMlp = Array.isArray(c.mlp_only_layers) ? c.mlp_only_layers.filter((i) => typeof i === 'number' && i >= 0 && i < L).length : 0;
  const firstDense = num(c, 'first_k_dense_replace') ?? 0;
  // Qwen2-MoE: layer i is sparse when (i + 1) % decoder_sparse_step == 0 (and not in mlp_only_layers).
  const step = positive(c, 'decoder_sparse_step', 'interleave_moe_layer_step', 'moe_layer_freq') ?? 1;
  let dense = 0;
  for (let i = 0; i < L; i++) {
    const onlyMlpHere = Array.isArray(c.mlp_only_layers) && c.mlp_only_layers.includes(i);
    if (i < firstDense || onlyMlpHere || (i + 1) % step !== 0) dense++;
  }
  return Math.max(dense, onlyMlp);
}

function readMla(c: Json, arch: ModelArchitecture): void {
  const kvLora = positive(c, 'kv_lora_rank');
  if (!kvLora) return;
  arch.mla = {
    qLoraRank: positive(c, 'q_lora_rank') ?? 0,
    kvLoraRank: kvLora,
    qkNopeHeadDim: num(c, 'qk_nope_head_dim') ?? 128,
    qkRopeHeadDim: num(c, 'qk_rope_head_dim') ?? 64,
    vHeadDim: num(c, 'v_head_dim') ?? 128,
  };
  arch.headDim = arch.mla.qkNopeHeadDim + arch.mla.qkRopeHeadDim;
}

/** Qwen3-Next / Qwen3.5: `layer_types` (or every `full_attention_interval`-th layer full) says which mix linearly. */
function readLinearAttention(c: Json, arch: ModelArchitecture): void {
  const valueHeads = positive(c, 'linear_num_value_heads');
  if (!valueHeads) return;
  const L = arch.numLayers;
  let linear: number;
  if (Array.isArray(c.layer_types)) linear = c.layer_types.slice(0, L).filter((t) => t === 'linear_attention').length;
  else {
    const interval = positive(c, 'full_attention_interval') ?? 4;
    linear = L - Math.floor(L / interval);
  }
  arch.linearAttention = {
    layers: linear,
    keyHeads: positive(c, 'linear_num_key_heads') ?? valueHeads,
    valueHeads,
    keyHeadDim: positive(c, 'linear_key_head_dim') ?? 128,
    valueHeadDim: positive(c, 'linear_value_head_dim') ?? 128,
    convKernel: positive(c, 'linear_conv_kernel_dim') ?? 4,
  };
}
