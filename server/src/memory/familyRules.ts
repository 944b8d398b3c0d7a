import type { ModelArchitecture } from './types';

/**
 * What a config.json does not spell out but its `model_type` implies: the MLP kind, the norm, which linears
 * carry biases, how many norms a block has, fused projections. Each rule is what that family's transformers
 * modelling code builds; the catalog's parameter-count test checks them against published totals.
 */
export interface FamilyRule {
  mlp?: 'plain';
  norm?: 'layer' | 'none';
  normsPerLayer?: number;
  /** Every decoder linear has a bias. */
  linearBias?: boolean;
  qkvBias?: boolean;
  qkNorm?: boolean;
  qkNormAllHeads?: boolean;
  fusedQkv?: boolean;
  fusedGateUp?: boolean;
  lmHeadBias?: boolean;
  /** Embeddings tied unless the config says otherwise. */
  tiedByDefault?: boolean;
  /** transformers' default of `attention_bias` for the family, when the config.json leaves it out. */
  attentionBiasDefault?: boolean;
  /** `attention_bias` puts a bias on the output projection too, not only on q, k and v. */
  attentionBiasOnOutput?: boolean;
  /** Softmax attention produces an output gate (Qwen3-Next, Qwen3.5). */
  attnOutputGate?: boolean;
  /** Qwen2-MoE style gate on the shared expert. */
  sharedExpertGate?: boolean;
  /** Every MoE layer also runs one shared expert as wide as a routed one (Llama 4), though the config has no count. */
  sharedExpert?: 'one-expert';
  /** The MoE router has a bias per expert, whatever `topk_method` says (gpt-oss). */
  routerBias?: boolean;
  /** The config field that counts the multi-token-prediction layers the checkpoint stores (towers.ts mtpPart). */
  mtpLayersField?: string;
}

const llama: FamilyRule = { attentionBiasOnOutput: true };
const qwen2: FamilyRule = { qkvBias: true };
const qwen3: FamilyRule = { qkNorm: true };
const gemma: FamilyRule = { tiedByDefault: true };
const gemma2: FamilyRule = { tiedByDefault: true, normsPerLayer: 4 };
const gemma3: FamilyRule = { tiedByDefault: true, normsPerLayer: 4, qkNorm: true };
const gptNeox: FamilyRule = { mlp: 'plain', norm: 'layer', linearBias: true };
const qwen3Next: FamilyRule = { qkNorm: true, attnOutputGate: true, sharedExpertGate: true };

export const familyRules: Record<string, FamilyRule> = {
  llama,
  mistral: {},
  mixtral: {},
  yi: llama,
  minicpm: { tiedByDefault: true },
  internlm: { attentionBiasOnOutput: true, attentionBiasDefault: true },
  internlm2: { fusedQkv: true },
  internlm3: llama,
  qwen2,
  qwen2_moe: { ...qwen2, sharedExpertGate: true },
  qwen3,
  qwen3_moe: qwen3,
  qwen3_next: qwen3Next,
  qwen3_5_text: qwen3Next,
  qwen3_5_moe_text: qwen3Next,
  gemma,
  gemma2,
  gemma3,
  gemma3_text: gemma3,
  phi3: { fusedQkv: true, fusedGateUp: true },
  // phi-1.5 / phi-2: one LayerNorm before the parallel attention and MLP, biases everywhere, a biased head.
  phi: { mlp: 'plain', norm: 'layer', linearBias: true, normsPerLayer: 1, lmHeadBias: true },
  phimoe: { norm: 'layer', qkvBias: true, lmHeadBias: true },
  gpt_neox: gptNeox,
  gpt2: { ...gptNeox, tiedByDefault: true, fusedQkv: true },
  gpt_bigcode: { ...gptNeox, tiedByDefault: true, fusedQkv: true },
  starcoder2: { mlp: 'plain', norm: 'layer', linearBias: true, tiedByDefault: true },
  stablelm: { norm: 'layer' },
  // OLMo: LayerNorm without any parameters.
  olmo: { norm: 'none', attentionBiasOnOutput: true },
  olmo2: { normsPerLayer: 2, qkNorm: true, qkNormAllHeads: true },
  // OLMo 3: OLMo 2's blocks, some of them with sliding-window attention (no parameters of its own).
  olmo3: { normsPerLayer: 2, qkNorm: true, qkNormAllHeads: true },
  olmoe: { qkNorm: true, qkNormAllHeads: true },
  orion: { norm: 'layer' },
  baichuan: { fusedQkv: true },
  chatglm: { fusedQkv: true, fusedGateUp: true },
  glm: { fusedGateUp: true },
  glm4: { normsPerLayer: 4, fusedGateUp: true, attentionBiasDefault: true },
  deepseek_v2: {},
  deepseek_v3: {},
  deepseek: llama,
  // Qwen (first generation): fused c_attn with bias, gate and up as w1/w2 of half the stated width.
  qwen: { fusedQkv: true, qkvBias: true },
  // Falcon's own rules (parallel attention, norms) are read from its config in configJson.ts.
  falcon: { mlp: 'plain', norm: 'layer', tiedByDefault: true, fusedQkv: true },
  seed_oss: { qkvBias: true },
  ernie4_5: {},
  granite: llama,
  helium: llama,
  smollm3: llama,
  exaone4: { normsPerLayer: 2, qkNorm: true },
  // Cohere (Command R, Aya): LayerNorm without bias (a weight per width, as an RMSNorm), one before the
  // parallel attention and MLP, tied embeddings; `use_qk_norm` adds a norm per head (configJson.ts).
  cohere: { tiedByDefault: true, normsPerLayer: 1 },
  // gpt-oss: biases on q, k, v, o, the router and every expert's gate/up and down. Its attention sinks (one
  // scalar a head and layer, 1,536 in gpt-oss-20b) are not counted.
  gpt_oss: { linearBias: true, routerBias: true },
  // MiMo: Qwen2 with biased q/k/v and `num_nextn_predict_layers` multi-token-prediction layers in the checkpoint.
  mimo: { ...qwen2, mtpLayersField: 'num_nextn_predict_layers' },
  // Llama 4: its q/k norm is a parameter-free L2 norm.
  llama4_text: { sharedExpert: 'one-expert' },
};

/** The families configJson.ts reads, for tests and docs. */
export const knownFamilies = (): string[] => Object.keys(familyRules).sort();

/** Applies a family's rule to an architecture read from the config's common fields. */
export function applyFamilyRule(arch: ModelArchitecture, rule: FamilyRule): void {
  if (rule.mlp) arch.mlp = rule.mlp;
  if (rule.norm) arch.norm = rule.norm;
  if (rule.normsPerLayer !== undefined) arch.normsPerLayer = rule.normsPerLayer;
  if (rule.linearBias) arch.linearBias = true;
  if (rule.qkvBias) arch.qkvBias = true;
  if (rule.qkNorm) arch.qkNorm = true;
  if (rule.qkNormAllHeads) arch.qkNormAllHeads = true;
  if (rule.fusedQkv) arch.fusedQkv = true;
  if (rule.fusedGateUp) arch.fusedGateUp = true;
  if (rule.lmHeadBias) arch.lmHeadBias = true;
  if (rule.attnOutputGate) arch.attnOutputGate = true;
}
