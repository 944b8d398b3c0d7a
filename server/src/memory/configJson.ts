import type { ModelArchitecture } from './types';

/**
 * A Hugging Face config.json (parsed) → architecture facts. Reads the field spellings of the Llama,
 * Qwen2/3 (+MoE), Mistral/Mixtral, DeepSeek-V2/V3, Gemma 1–3, GLM-4 (ChatGLM and Glm4), InternLM2, Phi-3/4
 * and GPT-2/NeoX families. Multimodal configs are read through their `text_config` (language model only).
 */
type Json = Record<string, unknown>;

function num(c: Json, ...keys: string[]): number | undefined {
  for (const k of keys) {
    const v = c[k];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  }
  return undefined;
}

function positive(c: Json, ...keys: string[]): number | undefined {
  const v = num(c, ...keys);
  return v !== undefined && v > 0 ? v : undefined;
}

/** Families whose MLP is up → activation → down (two matrices). */
const plainMlp = /^(gpt2|gpt_neox|gptj|gpt_bigcode|opt|bloom|falcon|phi|starcoder2|bert|roberta|t5|mpt)$/;
/** Families whose embeddings are tied unless the config says otherwise. */
const tiedByDefault = /^(gemma|gemma2|gemma3|gemma3_text|gpt2|gpt_bigcode|opt|bloom|t5)$/;
const qkNormFamilies = /^(qwen3|qwen3_moe|gemma3|gemma3_text|olmo2|qwen3_next)$/;
const fourNormFamilies = /^(gemma2|gemma3|gemma3_text|glm4)$/;

export interface ParsedModelConfig {
  architecture: ModelArchitecture;
  modelType: string;
  /** torch_dtype / dtype as written ("bfloat16"). */
  dtype?: string;
  /** The config describes more than its language model (vision tower not counted). */
  multimodal: boolean;
}

export function architectureFromConfig(config: unknown): ParsedModelConfig | undefined {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return undefined;
  const outer = config as Json;
  const text = typeof outer.text_config === 'object' && outer.text_config !== null ? (outer.text_config as Json) : undefined;
  const c: Json = text ? { ...outer, ...text } : outer;
  const modelType = String((text?.model_type ?? outer.model_type) ?? '').toLowerCase();

  const h = positive(c, 'hidden_size', 'n_embd', 'd_model', 'dim');
  const L = positive(c, 'num_hidden_layers', 'num_layers', 'n_layer', 'n_layers');
  const heads = positive(c, 'num_attention_heads', 'n_head', 'num_heads', 'n_heads');
  const V = positive(c, 'padded_vocab_size', 'vocab_size');
  if (!h || !L || !heads || !V) return undefined;

  // ChatGLM: multi_query_group_num only applies with multi_query_attention.
  const chatglmKv = c.multi_query_attention === true ? positive(c, 'multi_query_group_num') : undefined;
  const kv = positive(c, 'num_key_value_heads', 'n_kv_heads', 'num_kv_heads') ?? chatglmKv ?? heads;
  const headDim = positive(c, 'head_dim', 'kv_channels') ?? h / heads;
  const inter = positive(c, 'intermediate_size', 'ffn_hidden_size', 'n_inner') ?? 4 * h;
  const tiedRaw = c.tie_word_embeddings;
  const tied = typeof tiedRaw === 'boolean' ? tiedRaw : tiedByDefault.test(modelType);

  const arch: ModelArchitecture = {
    hiddenSize: h,
    numLayers: L,
    numHeads: heads,
    numKvHeads: kv,
    headDim,
    intermediateSize: inter,
    vocabSize: V,
    tiedEmbeddings: tied,
    mlp: plainMlp.test(modelType) ? 'plain' : 'gated',
  };
  if (c.attention_bias === true || c.qkv_bias === true || c.add_qkv_bias === true || /^qwen2(_moe|_vl)?$/.test(modelType)) arch.qkvBias = true;
  if (qkNormFamilies.test(modelType)) arch.qkNorm = true;
  if (fourNormFamilies.test(modelType)) arch.normsPerLayer = 4;
  if (/^(phi3|chatglm|internlm2)$/.test(modelType)) arch.fusedQkv = true;
  if (/^(phi3|chatglm|glm4)$/.test(modelType)) arch.fusedGateUp = true;
  if ((num(c, 'attention_dropout', 'attn_pdrop', 'hidden_dropout', 'resid_pdrop', 'hidden_dropout_prob') ?? 0) > 0) arch.dropout = true;

  const experts = positive(c, 'num_local_experts', 'n_routed_experts', 'num_experts');
  const topK = positive(c, 'num_experts_per_tok', 'moe_topk', 'top_k');
  if (experts && topK && experts > 1) {
    const moeInter = positive(c, 'moe_intermediate_size') ?? inter;
    const sharedCount = positive(c, 'n_shared_experts');
    const sharedInter = positive(c, 'shared_expert_intermediate_size') ?? (sharedCount ? sharedCount * moeInter : undefined);
    const onlyMlp = Array.isArray(c.mlp_only_layers) ? c.mlp_only_layers.length : 0;
    const firstDense = num(c, 'first_k_dense_replace') ?? onlyMlp;
    arch.moe = { numExperts: experts, expertsPerToken: topK, moeIntermediateSize: moeInter };
    if (sharedInter) arch.moe.sharedExpertIntermediateSize = sharedInter;
    if (firstDense) arch.moe.firstDenseLayers = firstDense;
    if (modelType === 'qwen2_moe') arch.moe.sharedExpertGate = true;
    if (c.topk_method === 'noaux_tc') arch.moe.routerBias = true;
  }

  const kvLora = positive(c, 'kv_lora_rank');
  if (kvLora) {
    arch.mla = {
      qLoraRank: positive(c, 'q_lora_rank') ?? 0,
      kvLoraRank: kvLora,
      qkNopeHeadDim: num(c, 'qk_nope_head_dim') ?? 128,
      qkRopeHeadDim: num(c, 'qk_rope_head_dim') ?? 64,
      vHeadDim: num(c, 'v_head_dim') ?? 128,
    };
    arch.headDim = arch.mla.qkNopeHeadDim + arch.mla.qkRopeHeadDim;
  }

  const dtype = typeof c.torch_dtype === 'string' ? c.torch_dtype : typeof c.dtype === 'string' ? c.dtype : undefined;
  return { architecture: arch, modelType, dtype, multimodal: text !== undefined || typeof outer.vision_config === 'object' };
}
