import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from './cli-helpers';
import { findCatalogModel } from '../../server/src/memory';

/**
 * Models ms-swift and LLaMA-Factory train that the catalog once lacked, so `zero-lens estimate --model` sized
 * them from their names (approximate, and for a multimodal model with no tower to freeze). Each now comes from
 * its config.json (scripts/catalog/inputs/configs/hf-pages.json, hf-configs.json) and counts to its hub total.
 */
const fixtures = join(__dirname, '..', 'fixtures', 'memory');

async function estimateJson(args: string[]) {
  const r = await runCli(['estimate', ...args, '--gpus-per-node', '8', '--stage', '2', '--format', 'json'], fixtures);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

test('Qwen-72B-Chat (remote-code QWenLMHeadModel) is sized from the catalog, not from its name', async () => {
  const j = await estimateJson(['--model', 'Qwen/Qwen-72B-Chat']);
  assert.deepEqual(j.inputs.totalParams.source, { kind: 'catalog', id: 'Qwen/Qwen-72B' });
  // The hub's total of Qwen/Qwen-72B: 72.288B (the leaderboard request in test/data/catalog-published-totals.json).
  assert.equal(j.inputs.totalParams.value, 72_287_920_128);
  assert.ok(!j.notes.some((n: string) => /^Approximate/.test(n)), j.notes.join('\n'));
});

test('InternVL2.5-8B is sized from the catalog, and --freeze-vit freezes its InternViT and projector', async () => {
  const trained = await estimateJson(['--model', 'OpenGVLab/InternVL2_5-8B', '--no-freeze-vit']);
  const frozen = await estimateJson(['--model', 'OpenGVLab/InternVL2_5-8B', '--freeze-vit']);
  assert.deepEqual(trained.inputs.totalParams.source, { kind: 'catalog', id: 'OpenGVLab/InternVL2_5-8B' });
  // llmfit's hub safetensors total of OpenGVLab/InternVL2_5-8B (scripts/catalog/inputs/counts/llmfit.json).
  assert.equal(trained.inputs.totalParams.value, 8_075_365_376);
  const towers = findCatalogModel('OpenGVLab/InternVL2_5-8B')!.architecture!.parts!;
  assert.deepEqual(towers.map((p) => p.kind), ['vision', 'projector']);
  assert.equal(frozen.inputs.frozenParams.value, towers[0].params + towers[1].params);
  assert.ok(frozen.perGpu.optimizerStates < trained.perGpu.optimizerStates);
});

test('InternVL2.5-2B: the tower --freeze-vit freezes is the 316.6M its checkpoint holds outside the language model', () => {
  // https://huggingface.co/OpenExplorer/InternVL2_5-2B: "Vision model (ViT) parameters 316.6M", counted from
  // OpenGVLab/InternVL2_5-2B's tensors (InternViT-300M and mlp1).
  const parts = findCatalogModel('OpenGVLab/InternVL2_5-2B')!.architecture!.parts!;
  const outside = parts.reduce((sum, p) => sum + p.params, 0);
  assert.ok(Math.abs(outside - 316.6e6) < 0.05e6, `${outside}`);
});
