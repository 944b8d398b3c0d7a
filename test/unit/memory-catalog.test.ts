import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogEntries, countParams, findCatalogEntry, findCatalogModel } from '../../server/src/memory';
import { findCatalogModelByPath } from '../../server/src/memory/catalog';

// Reference totals from launchers-and-models.md §3.3 (safetensors metadata totals or exact computations).
const referenceTotals: Record<string, number> = {
  'Qwen/Qwen2.5-0.5B': 494_032_768,
  'Qwen/Qwen2.5-1.5B': 1_543_714_304,
  'Qwen/Qwen2.5-3B': 3_085_938_688,
  'Qwen/Qwen2.5-7B': 7_615_616_512,
  'Qwen/Qwen2.5-14B': 14_770_033_664,
  'Qwen/Qwen2.5-32B': 32_763_876_352,
  'Qwen/Qwen2.5-72B': 72_706_203_648,
  'Qwen/Qwen3-0.6B': 596_049_920,
  'Qwen/Qwen3-1.7B': 1_720_574_976,
  'Qwen/Qwen3-4B': 4_022_468_096,
  'Qwen/Qwen3-8B': 8_190_735_360,
  'Qwen/Qwen3-14B': 14_768_307_200,
  'Qwen/Qwen3-32B': 32_762_123_264,
  'Qwen/Qwen3-30B-A3B': 30_532_122_624,
  'Qwen/Qwen3-235B-A22B': 235_093_634_560,
  'meta-llama/Llama-3.2-1B': 1_235_814_400,
  'meta-llama/Llama-3.2-3B': 3_212_749_824,
  'meta-llama/Llama-3.1-8B': 8_030_261_248,
  'meta-llama/Llama-3.1-70B': 70_553_706_496,
  'meta-llama/Llama-3.3-70B-Instruct': 70_553_706_496,
  'meta-llama/Llama-3.1-405B': 405_853_388_800,
  'mistralai/Mistral-7B-v0.1': 7_241_732_096,
  'mistralai/Mistral-7B-v0.3': 7_248_023_552,
  'mistralai/Mixtral-8x7B-v0.1': 46_702_792_704,
  'deepseek-ai/DeepSeek-V3': 671_026_419_200,
  'google/gemma-2-2b': 2_614_341_888,
  'google/gemma-2-9b': 9_241_705_984,
  'google/gemma-2-27b': 27_227_128_320,
  'google/gemma-3-1b-pt': 999_885_952,
  'google/gemma-3-4b-pt': 4_300_079_472,
  'google/gemma-3-12b-pt': 12_187_325_040,
  'google/gemma-3-27b-pt': 27_432_406_640,
  'THUDM/glm-4-9b-chat': 9_399_951_360,
  'THUDM/GLM-4-9B-0414': 9_400_279_040,
  'internlm/internlm2_5-7b': 7_737_708_544,
  'microsoft/Phi-3-mini-4k-instruct': 3_821_079_552,
  'microsoft/Phi-3-medium-4k-instruct': 13_960_238_080,
  'microsoft/phi-4': 14_659_507_200,
  'microsoft/Phi-4-mini-instruct': 3_836_021_760,
};

// Active parameters of the MoE models (same section).
const referenceActive: Record<string, number> = {
  'Qwen/Qwen3-30B-A3B': 3_353_032_704,
  'Qwen/Qwen3-235B-A22B': 22_190_763_520,
  'mistralai/Mixtral-8x7B-v0.1': 12_879_925_248,
  'deepseek-ai/DeepSeek-V3': 37_552_297_472,
};

test('every reference model is in the catalog (the generated catalog holds many more)', () => {
  const ids = new Set(catalogEntries().map((e) => e.id));
  for (const id of Object.keys(referenceTotals)) assert.ok(ids.has(id) || findCatalogEntry(id), id);
  assert.ok(ids.size > Object.keys(referenceTotals).length);
});

for (const [id, total] of Object.entries(referenceTotals)) {
  test(`${id}: computed count equals the reference total ${total.toLocaleString('en-US')}`, () => {
    const entry = findCatalogEntry(id);
    assert.ok(entry, `${id} is in the catalog`);
    // Computed from the stored architecture, not stored.
    assert.equal(countParams(entry.info.architecture!).total, total);
    assert.equal(entry.info.totalParams, total);
    assert.ok(entry.info.largestLayerParams > 0 && entry.info.largestLayerParams < total);
  });
}

test('MoE active counts equal the reference', () => {
  for (const [id, active] of Object.entries(referenceActive)) assert.equal(findCatalogEntry(id)!.counts.active, active, id);
});

test('gemma-3 4b/12b/27b: language model + SigLIP vision tower + projector, counted as parts', () => {
  const lm: Record<string, number> = { 'google/gemma-3-4b-pt': 3_880_263_168, 'google/gemma-3-12b-pt': 11_766_034_176, 'google/gemma-3-27b-pt': 27_009_346_304 };
  for (const [id, lmCount] of Object.entries(lm)) {
    const arch = findCatalogModel(id)!.architecture!;
    assert.equal(countParams({ ...arch, parts: undefined }).total, lmCount, id);
    const [vision, projector] = arch.parts!;
    assert.equal(vision.params, 416_866_032);
    assert.equal(projector.params, 1152 * arch.hiddenSize + 1152);
  }
});

test('largest layer is the embedding matrix V·h for dense decoders', () => {
  assert.equal(findCatalogModel('meta-llama/Llama-3.1-8B')!.largestLayerParams, 128256 * 4096);
  assert.equal(findCatalogModel('Qwen/Qwen2.5-7B')!.largestLayerParams, 152064 * 3584);
});

test('lookup is forgiving: case, org prefix, Instruct/-it/-chat variants, ModelScope ids, cache folder names', () => {
  const same = (a: string, b: string) => assert.equal(findCatalogModel(a)?.id, b, a);
  same('qwen/qwen2.5-7b-instruct', 'Qwen/Qwen2.5-7B');
  same('Qwen2.5-7B-Instruct', 'Qwen/Qwen2.5-7B');
  same('  Qwen/Qwen3-8B/ ', 'Qwen/Qwen3-8B');
  same('LLM-Research/Meta-Llama-3.1-8B-Instruct', 'meta-llama/Llama-3.1-8B');
  same('ZhipuAI/glm-4-9b-chat', 'THUDM/glm-4-9b-chat');
  same('zai-org/GLM-4-9B-0414', 'THUDM/GLM-4-9B-0414');
  same('Shanghai_AI_Laboratory/internlm2_5-7b-chat', 'internlm/internlm2_5-7b');
  same('google/gemma-3-27b-it', 'google/gemma-3-27b-pt');
  same('LLM-Research/gemma-2-9b-it', 'google/gemma-2-9b');
  same('models--Qwen--Qwen3-8B', 'Qwen/Qwen3-8B');
  same('AI-ModelScope/Mixtral-8x7B-Instruct-v0.1', 'mistralai/Mixtral-8x7B-v0.1');
  same('LLM-Research/phi-4', 'microsoft/phi-4');
  assert.equal(findCatalogModel('Qwen/Qwen9-1T'), undefined);
  assert.equal(findCatalogModel(''), undefined);
});

test('catalog ModelInfo reports its source as the catalog id', () => {
  assert.deepEqual(findCatalogModel('qwen3-8b')!.source, { kind: 'catalog', id: 'Qwen/Qwen3-8B' });
});

test('Llama 3 and Llama 3.1 are different releases: each name finds its own entry, whichever way it is written', () => {
  const id = (name: string) => findCatalogModel(name)?.id;
  for (const name of ['meta-llama/Meta-Llama-3-8B-Instruct', 'LLM-Research/Meta-Llama-3-8B-Instruct', 'LLM-Research/Meta-Llama-3-8B', 'Meta-Llama-3-8B-Instruct', 'meta-llama-3-8b'])
    assert.equal(id(name), 'meta-llama/Meta-Llama-3-8B', name);
  for (const name of ['meta-llama/Llama-3.1-8B-Instruct', 'LLM-Research/Meta-Llama-3.1-8B-Instruct', 'Meta-Llama-3.1-8B-Instruct', 'Llama-3.1-8B'])
    assert.equal(id(name), 'meta-llama/Llama-3.1-8B', name);
  assert.equal(findCatalogModelByPath('/data/models/Meta-Llama-3-8B-Instruct')?.id, 'meta-llama/Meta-Llama-3-8B');
});

test('no name belongs to two catalog entries', () => {
  const owners = new Map<string, string[]>();
  for (const e of catalogEntries()) for (const name of [e.id, ...e.aliases]) owners.set(name.toLowerCase(), [...(owners.get(name.toLowerCase()) ?? []), e.id]);
  const shared = [...owners].filter(([, ids]) => ids.length > 1).map(([name, ids]) => `${name}: ${ids.join(', ')}`);
  assert.deepEqual(shared, []);
});

test('a release with an entry of its own is found as itself, also under its ModelScope id', () => {
  const id = (name: string) => findCatalogModel(name)?.id;
  assert.equal(id('LLM-Research/Phi-3-mini-128k-instruct'), 'microsoft/Phi-3-mini-128k-instruct');
  assert.equal(id('LLM-Research/Phi-3.5-mini-instruct'), 'microsoft/Phi-3.5-mini-instruct');
  assert.equal(id('Qwen/QwQ-32B'), 'Qwen/QwQ-32B');
  assert.equal(id('Qwen/Qwen3-4B-Instruct-2507'), 'Qwen/Qwen3-4B-Instruct-2507');
});

test('DeepSeek-V2 (236B) is in the catalog: it used to be unknown, its name states no size', () => {
  const v2 = findCatalogModel('deepseek-ai/DeepSeek-V2-Chat')!;
  assert.equal(v2.id, 'deepseek-ai/DeepSeek-V2');
  const a = v2.architecture!;
  assert.deepEqual([a.moe?.numExperts, a.moe?.expertsPerToken, a.moe?.moeIntermediateSize, a.moe?.sharedExpertIntermediateSize, a.moe?.denseLayers], [160, 6, 1536, 3072, 1]);
  assert.deepEqual(a.mla, { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 });
  // Different from DeepSeek-V2-Lite (15.7B), whose name it prefixes.
  assert.equal(findCatalogModel('deepseek-ai/DeepSeek-V2-Lite-Chat')!.id, 'deepseek-ai/DeepSeek-V2-Lite');
});

test('Qwen1.5 small chat models tie the head to the embedding, although their hub checkpoints store it twice', () => {
  // vllm-project/vllm#3344 (Qwen team): Qwen1.5-0.5B-Chat has tie_word_embeddings=True and its checkpoint
  // "(incorrectly) includes a redundant lm_head.weight", so its hub total (619,570,176) counts the head twice.
  // transformers ties the two when it loads, so training holds the tied count.
  const chat05 = findCatalogModel('qwen/Qwen1.5-0.5B-Chat')!;
  assert.equal(chat05.architecture!.tiedEmbeddings, true);
  assert.equal(chat05.totalParams, 463_987_712);
  // Qwen1.5-1.8B-Chat's config.json as copied by MLC LLM before MLC read tie_word_embeddings (mlc-ai/mlc-llm#2535).
  const chat18 = findCatalogModel('Qwen/Qwen1.5-1.8B-Chat')!;
  assert.equal(chat18.architecture!.tiedEmbeddings, true);
  assert.equal(chat18.totalParams, 1_525_663_744);
});
