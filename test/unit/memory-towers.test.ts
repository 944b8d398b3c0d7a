import { test } from 'node:test';
import assert from 'node:assert/strict';
import { architectureFromConfig } from '../../server/src/memory/configJson';
import { countParams } from '../../server/src/memory/paramCount';

/**
 * Towers of the multimodal families whose vision section the config.json reader counts, checked against the
 * hub's safetensors totals of real checkpoints (the configs are trimmed to the fields the count reads).
 */
const checkpointTotal = (config: unknown) => countParams(architectureFromConfig(config)!.architecture).checkpointTotal;

// InternViT-300M-448px-V2_5 (NeMo's InternViT_300M_448px_Config) as InternVL3-1B writes it.
const internVit300m = { hidden_size: 1024, num_hidden_layers: 24, intermediate_size: 4096, num_attention_heads: 16, patch_size: 14, image_size: 448 };
const qwen25HalfB = { model_type: 'qwen2', hidden_size: 896, intermediate_size: 4864, num_hidden_layers: 24, num_attention_heads: 14, num_key_value_heads: 2, vocab_size: 151674, tie_word_embeddings: false };

test('InternVL (transformers format): InternViT with layer scale, class token and positions, then mlp1; 938,193,024 for InternVL3-1B-hf', () => {
  const config = {
    model_type: 'internvl',
    downsample_ratio: 0.5,
    text_config: qwen25HalfB,
    vision_config: { ...internVit300m, attention_bias: true, use_qk_norm: false, norm_type: 'layer_norm', patch_size: [14, 14], image_size: [448, 448] },
  };
  assert.equal(checkpointTotal(config), 938_193_024);
  const parts = architectureFromConfig(config)!.architecture.parts!;
  assert.deepEqual(parts.map((p) => p.params), [304_012_288, 4_482_816]);
});

test('InternVL (its own internvl_chat format) counts the same tower from qkv_bias / qk_normalization', () => {
  const config = {
    model_type: 'internvl_chat',
    downsample_ratio: 0.5,
    llm_config: qwen25HalfB,
    vision_config: { ...internVit300m, model_type: 'intern_vit_6b', qkv_bias: true, qk_normalization: false, norm_type: 'layer_norm' },
  };
  assert.equal(checkpointTotal(config), 938_193_024);
});

// CLIP ViT-L/14-336 (NeMo's CLIPViTL_14_336_Config) as llava-hf writes it.
const clipL336 = { model_type: 'clip_vision_model', hidden_size: 1024, intermediate_size: 4096, num_hidden_layers: 24, patch_size: 14, image_size: 336 };
const vicuna13b = { model_type: 'llama', hidden_size: 5120, intermediate_size: 13824, num_hidden_layers: 40, num_attention_heads: 40, vocab_size: 32064, tie_word_embeddings: false };

test('LLaVA: the whole CLIP tower and a two-linear projector; 13,351,494,656 for llava-1.5-13b-hf', () => {
  assert.equal(checkpointTotal({ model_type: 'llava', text_config: vicuna13b, vision_config: clipL336 }), 13_351_494_656);
});

test('LLaVA-NeXT adds one image_newline vector the width of the text model: 13,351,499,776 for llava-v1.6-vicuna-13b-hf', () => {
  assert.equal(checkpointTotal({ model_type: 'llava_next', text_config: vicuna13b, vision_config: clipL336 }), 13_351_499_776);
});

test('a LLaVA whose tower is not CLIP gets no tower part rather than a wrong one', () => {
  const siglip = { ...clipL336, model_type: 'siglip_vision_model' };
  assert.equal(architectureFromConfig({ model_type: 'llava', text_config: vicuna13b, vision_config: siglip })!.architecture.parts, undefined);
});
