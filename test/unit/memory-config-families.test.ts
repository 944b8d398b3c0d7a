import { test } from 'node:test';
import assert from 'node:assert/strict';
import { architectureFromConfig } from '../../server/src/memory/configJson';
import { countParams } from '../../server/src/memory/paramCount';

// moonshotai/Kimi-K2-Instruct's config.json, trimmed to the fields the count reads.
const kimiK2 = {
  model_type: 'kimi_k2', architectures: ['DeepseekV3ForCausalLM'], hidden_size: 7168, intermediate_size: 18432, moe_intermediate_size: 2048,
  num_hidden_layers: 61, num_attention_heads: 64, num_key_value_heads: 64, n_routed_experts: 384, n_shared_experts: 1, num_experts_per_tok: 8,
  first_k_dense_replace: 1, moe_layer_freq: 1, kv_lora_rank: 512, q_lora_rank: 1536, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128,
  topk_method: 'noaux_tc', vocab_size: 163840, tie_word_embeddings: false, num_nextn_predict_layers: 0,
};

test('Kimi K2 (model_type kimi_k2) is read as the DeepSeek-V3 architecture its config names', () => {
  const parsed = architectureFromConfig(kimiK2)!;
  assert.equal(parsed.modelType, 'deepseek_v3');
  assert.equal(parsed.outerModelType, 'kimi_k2');
  const counts = countParams(parsed.architecture);
  // The hub's safetensors total of the FP8 checkpoint (1,026,470,731,056) also counts its block scales: 0.006% more.
  assert.equal(counts.total, 1_026_408_232_448);
  assert.ok(Math.abs(counts.total - 1_026_470_731_056) / 1_026_470_731_056 < 0.0001);
});
