import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultEstimateInput, estimate, findCatalogModel } from '../../server/src/memory';
import { GENERIC_VOCAB } from '../../server/src/memory/genericShape';
import { countParams } from '../../server/src/memory/paramCount';
import { caveatText, modelFromNameSize, NAME_SIZE_LABEL, statedSize } from '../../server/src/memory/nameSize';

test('sizes the names state: 13B, 0.5B, 135M, 30B-A3B, E2B, 8x7B, 17B-16E', () => {
  const s = (id: string) => statedSize(id);
  assert.equal(s('acme/Foo-13B-chat')!.total, 13e9);
  assert.equal(s('Qwen/Qwen9-0.5B')!.total, 0.5e9);
  assert.equal(s('HuggingFaceTB/SmolLM9-135M')!.total, 135e6);
  assert.deepEqual([s('Qwen/Qwen3.5-35B-A3B')!.total, s('Qwen/Qwen3.5-35B-A3B')!.active], [35e9, 3e9]);
  assert.equal(s('Qwen/Qwen3.5-35B-A3B')!.stem, 'qwen3.5-');
  assert.equal(s('google/gemma-4-E2B-it')!.total, 2e9);
  assert.match(caveatText(s('google/gemma-4-E2B-it')!.caveat!), /effective/);
  assert.equal(caveatText(s('meta-llama/Llama-4-Scout-17B-16E-Instruct')!.caveat!), '17B is the active size of 16 experts; the total is larger');
  assert.equal(caveatText(s('mistralai/Mixtral-8x22B-v0.1')!.caveat!), '8 experts × 22B, an upper bound');
  assert.equal(s('mistralai/Mixtral-8x22B-v0.1')!.total, 176e9);
  assert.deepEqual([s('meta-llama/Llama-4-Scout-17B-16E-Instruct')!.active, s('meta-llama/Llama-4-Scout-17B-16E-Instruct')!.text], [17e9, '17B-16E']);
  assert.equal(s('nv-community/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-BF16')!.text, '30B-A3B');
  // No size, or a number that is not one: version numbers, bit widths.
  for (const id of ['deepseek-ai/DeepSeek-V3', 'microsoft/phi-2', 'OpenMOSS-Team/MOSS-VL-Instruct-0708', 'acme/model-4bit', 'Qwen/Qwen2-VL']) assert.equal(s(id), undefined, id);
});

test('an unknown id with a size in its name gets that size, its family shape, and says so', () => {
  const info = modelFromNameSize('Qwen/Qwen3-999B-A99B-Instruct')!;
  assert.equal(info.totalParams, 999e9);
  assert.equal(info.activeParams, 99e9);
  assert.equal(info.source.kind, 'name-size');
  assert.ok(info.architecture?.moe, 'the shape of a MoE model of the family');
  assert.ok(info.source.kind === 'name-size' && info.source.shapeFrom && findCatalogModel(info.source.shapeFrom));
  assert.ok(info.displayName.includes(NAME_SIZE_LABEL));
  assert.equal(info.approximate?.label, NAME_SIZE_LABEL);
  assert.match(info.approximate!.howToExact, /local model folder/);
  assert.match(info.approximate!.howToExact, /zeroLens\.model/);
  assert.match(info.approximate!.howToExact, /cache/);
});

test('without a family in the catalog the size still counts, and activations come from a generic shape', () => {
  const info = modelFromNameSize('nobody/Zorblax-7B')!;
  assert.equal(info.totalParams, 7e9);
  const arch = info.architecture!;
  // The generic shape's own count is near the stated size (within 15%), and its width follows from that size.
  assert.ok(Math.abs(countParams(arch).total / 7e9 - 1) < 0.15, `${countParams(arch).total}`);
  assert.ok(arch.hiddenSize >= 3584 && arch.hiddenSize <= 4608, `${arch.hiddenSize}`);
  assert.equal(arch.vocabSize, GENERIC_VOCAB);
  assert.ok(info.largestLayerParams > 0 && info.largestLayerParams < 7e9);
  assert.equal(info.largestLayerParams, GENERIC_VOCAB * arch.hiddenSize);
  assert.match(info.approximate!.howToExact, /generic Llama-like shape/);
  assert.equal(modelFromNameSize('nobody/zorblax'), undefined);
  // A bigger stated size gets a wider shape.
  assert.ok(modelFromNameSize('nobody/Zorblax-70B')!.architecture!.hiddenSize > arch.hiddenSize);
});

test('the name-size fallback counts activations: more tokens cost more, by the generic shape\'s own per-token bytes', () => {
  const info = modelFromNameSize('nobody/Zorblax-7B')!;
  // LoRA: the adapters' gradients are small, so forward + backward shows the activations of early backward.
  const run = (seqLen: number) => estimate({ ...defaultEstimateInput(info), gpusPerNode: 1, seqLen, microBatch: 1, gradientCheckpointing: false, lora: { rank: 8, targetModules: ['all-linear'] } });
  const fb = (r: ReturnType<typeof run>) => r.phases.find((p) => p.phase === 'forward-backward')!;
  const short = fb(run(1024));
  const long = fb(run(2048));
  assert.ok(short.activations > 0, 'activations are counted');
  // Activations without checkpointing are linear in tokens here (SDPA, no s² term): twice the tokens, twice the bytes.
  assert.ok(Math.abs(long.activations / short.activations - 2) < 0.01, `${long.activations / short.activations}`);
  // At least the logits of a 128k vocabulary: 2 bytes per token and vocabulary entry.
  assert.ok(short.activations >= 2 * 1024 * GENERIC_VOCAB);
});

test('an underscore between digits is a decimal point (Qwen-1_8B, internlm2_5-1_8b, stablelm-2-1_6b), and bloom\'s 7b1 is 7.1B', async () => {
  const s = (id: string) => statedSize(id);
  // InternLM and Qwen-1 write 1.8B as "1_8b" (internlm/internlm2_5-1_8b-chat, Qwen/Qwen-1_8B-Chat): read as 8B,
  // a 1.8B model was estimated as an 8B one.
  assert.equal(s('internlm/internlm2_5-1_8b-chat')!.total, 1.8e9);
  assert.equal(s('internlm/internlm2_5-1_8b-chat')!.text, '1_8b');
  assert.equal(s('Shanghai_AI_Laboratory/internlm2-chat-1_8b')!.total, 1.8e9);
  assert.equal(s('Qwen/Qwen-1_8B-Chat-Int4')!.total, 1.8e9);
  assert.equal(s('stabilityai/stablelm-2-1_6b-chat')!.total, 1.6e9);
  // An underscore that separates words is not a decimal point: llama_2_7b is Llama 2 7B.
  assert.equal(s('/data/llama_2_7b')!.total, 7e9);
  assert.equal(s('internlm/internlm2_5-20b-chat')!.total, 20e9);
  // BLOOM writes 7.1B and 1.7B as 7b1 and 1b7 (bigscience/bloom-7b1, bigscience/bloomz-7b1-mt).
  assert.equal(s('bigscience/bloom-7b1')!.total, 7.1e9);
  assert.equal(s('bigscience/bloomz-7b1-mt')!.total, 7.1e9);
  assert.equal(s('bigscience/bloom-1b7')!.total, 1.7e9);
  assert.equal(modelFromNameSize('internlm/internlm2_5-1_8b-chat')!.totalParams, 1.8e9);
});

test('a decimal point inside a size is not a separator: A2.7B is no 7B model, and an active size alone states no total', () => {
  const s = (id: string) => statedSize(id);
  // Qwen/Qwen1.5-MoE-A2.7B-Chat-GPTQ-Int4 (ms-swift's registry) was read as a 7B model from ".7B"; its total is 14.3B.
  assert.equal(s('Qwen/Qwen1.5-MoE-A2.7B-Chat-GPTQ-Int4'), undefined);
  assert.equal(s('xverse/XVERSE-MoE-A4.2B'), undefined);
  assert.equal(modelFromNameSize('Qwen/Qwen1.5-MoE-A2.7B-Chat-GPTQ-Int4'), undefined);
  // Sizes after a dot that separates words still count.
  assert.equal(s('acme/model.7B')!.total, 7e9);
  assert.equal(s('Qwen/Qwen9-0.5B')!.total, 0.5e9);
  assert.equal(s('Qwen/Qwen3.5-35B-A3B')!.total, 35e9);
});

test('a quantised release not in the catalog takes the layer shape of the model it was made from, not of a re-upload', () => {
  const shapeFrom = (id: string) => modelFromNameSize(id)?.approximate?.shapeFrom;
  // Qwen2.5-72B shares its shape with fine-tunes (huihui-ai/Qwen2.5-72B-Instruct-abliterated); the note names the original.
  assert.equal(shapeFrom('Qwen/Qwen2.5-72B-Instruct-AWQ'), 'Qwen/Qwen2.5-72B');
  assert.equal(shapeFrom('Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4'), 'Qwen/Qwen2.5-72B');
  assert.equal(shapeFrom('Qwen/Qwen2.5-7B-Instruct-AWQ'), 'Qwen/Qwen2.5-7B');
  assert.equal(shapeFrom('Qwen/Qwen3-8B-AWQ'), 'Qwen/Qwen3-8B');
});
