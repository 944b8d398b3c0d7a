import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withTempDir } from './temp-dir';
import { nodeFileSystem } from '../../server/src/nodeHost';
import { resolveModel } from '../../server/src/memory';

const fs = { ...nodeFileSystem, env: {}, homeDir: undefined };


test('training outputs named on another machine: the model before checkpoint-NNN and run folders', async () => {
  const id = async (spec: string) => (await resolveModel(spec, fs, '/nonexistent'))?.id;
  assert.equal(await id('output/Qwen2.5-7B-Instruct/v0-20250101-120000/checkpoint-100'), 'Qwen/Qwen2.5-7B');
  assert.equal(await id('/data/out/Qwen3-8B/vx-xxx/checkpoint-xxx'), 'Qwen/Qwen3-8B');
  assert.equal(await id('/ckpt/Meta-Llama-3.1-8B-Instruct/global_step500'), 'meta-llama/Llama-3.1-8B');
  assert.equal(await id('Qwen/Qwen3-8B'), 'Qwen/Qwen3-8B');
});

test('an unknown folder name that states a size falls back to the name, marked approximate', async () => {
  const info = await resolveModel('output/Qwen3-77B-Instruct/v1-20250101-120000/checkpoint-50', fs, '/nonexistent');
  assert.equal(info?.source.kind, 'name-size');
  assert.equal(info?.totalParams, 77e9);
});

test('a LoRA checkpoint folder: the base model its adapter_config.json or ms-swift args.json names', async () => {
  await withTempDir(async (dir) => {
    const lora = join(dir, 'v0-20250101-120000', 'checkpoint-200');
    await mkdir(lora, { recursive: true });
    await writeFile(join(lora, 'adapter_config.json'), JSON.stringify({ base_model_name_or_path: 'Qwen/Qwen3-8B', r: 8 }));
    assert.equal((await resolveModel(lora, fs))?.id, 'Qwen/Qwen3-8B');
    const swift = join(dir, 'v1-20250101-120000', 'checkpoint-10');
    await mkdir(swift, { recursive: true });
    await writeFile(join(swift, 'args.json'), JSON.stringify({ model: 'Qwen/Qwen2.5-7B-Instruct' }));
    assert.equal((await resolveModel(swift, fs))?.id, 'Qwen/Qwen2.5-7B');
  });
});

test('a full checkpoint folder with its own config.json is read, whatever it is named', async () => {
  await withTempDir(async (dir) => {
    const ckpt = join(dir, 'checkpoint-300');
    await mkdir(ckpt, { recursive: true });
    const config = { model_type: 'qwen3', vocab_size: 151936, hidden_size: 1024, intermediate_size: 3072, num_hidden_layers: 28, num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128, tie_word_embeddings: true };
    await writeFile(join(ckpt, 'config.json'), JSON.stringify(config));
    const info = await resolveModel(ckpt, fs);
    assert.equal(info?.totalParams, 596_049_920);
    assert.equal(info?.source.kind, 'model-folder');
  });
});

test('model names as users write them: hub and ModelScope ids, any case, folders on the training machine, releases', async () => {
  const resolved = async (spec: string) => {
    const info = await resolveModel(spec, fs, '/nonexistent');
    return info && { id: info.id, exact: info.source.kind === 'catalog', total: info.totalParams };
  };
  const exact = async (spec: string, id: string) => assert.deepEqual(await resolved(spec).then((r) => r && [r.id, r.exact]), [id, true], spec);
  for (const spec of [
    'Qwen/Qwen2.5-7B-Instruct',
    'qwen/Qwen2.5-7B-Instruct',
    'QWEN/QWEN2.5-7B-INSTRUCT',
    'Qwen2.5-7B-Instruct',
    '/data/models/Qwen2.5-7B-Instruct',
    '~/.cache/modelscope/hub/models/Qwen/Qwen2___5-7B-Instruct',
    'D:\\models\\Qwen2.5-7B-Instruct',
    '/root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B-Instruct/snapshots/0123456789abcdef0123456789abcdef01234567',
  ])
    await exact(spec, 'Qwen/Qwen2.5-7B');
  // A 72B is never read as the 7B whose name it contains, nor the reverse.
  for (const spec of ['Qwen/Qwen2.5-72B-Instruct', '~/.cache/modelscope/hub/models/Qwen/Qwen2___5-72B-Instruct', '/mnt/QWEN2.5-72B-INSTRUCT']) await exact(spec, 'Qwen/Qwen2.5-72B');
  await exact('Qwen/Qwen-7B-Chat', 'Qwen/Qwen-7B');
  await exact('meta-llama/Llama-2-13b-chat-hf', 'meta-llama/Llama-2-13b-hf');
  await exact('/models/Meta-Llama-3-8B-Instruct', 'meta-llama/Meta-Llama-3-8B');
  await exact('Llama-3.1-8B', 'meta-llama/Llama-3.1-8B');
  // Quantised releases the catalog does not hold: the size their name states, marked approximate.
  for (const [spec, total] of [['Qwen/Qwen2.5-72B-Instruct-AWQ', 72e9], ['Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4', 7e9], ['internlm/internlm2_5-1_8b-chat', 1.8e9]] as const)
    assert.deepEqual(await resolved(spec), { id: spec, exact: false, total }, spec);
  // A name that states no size and is not in the catalog is unknown.
  for (const spec of ['google-t5/t5-base', 'google-bert/bert-base-uncased', 'Qwen/Qwen1.5-MoE-A2.7B-Chat-GPTQ-Int4']) assert.equal(await resolved(spec), undefined, spec);
});
