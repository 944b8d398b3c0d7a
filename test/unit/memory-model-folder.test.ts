import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withTempDir } from './temp-dir';
import { missing, type FileSystemHost } from '../../server/src/host';
import { nodeFileSystem } from '../../server/src/nodeHost';
import { architectureFromConfig, countParams, findInHuggingFaceCache, findInModelScopeCache, readModelFolder, resolveModel } from '../../server/src/memory';
import { parseSafetensorsHeader, readSafetensorsHeader } from '../../server/src/memory/safetensors';

/** A real safetensors file: u64 LE header length, JSON header, then zeroed tensor data. */
function safetensors(tensors: Record<string, { dtype: string; shape: number[] }>): Buffer {
  const elementBytes: Record<string, number> = { BF16: 2, F32: 4, F16: 2 };
  let offset = 0;
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  for (const [name, t] of Object.entries(tensors)) {
    const size = t.shape.reduce((a, b) => a * b, 1) * elementBytes[t.dtype];
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8); // the format pads the header with spaces
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([length, Buffer.from(json), Buffer.alloc(offset)]);
}

// A tiny Llama: V=32, h=8, I=16, L=2, 2 heads, 1 kv head, head_dim 4, untied.
const tinyConfig = {
  model_type: 'llama',
  hidden_size: 8,
  intermediate_size: 16,
  num_hidden_layers: 2,
  num_attention_heads: 2,
  num_key_value_heads: 1,
  vocab_size: 32,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

function tinyTensors(layers: number[]): Record<string, { dtype: string; shape: number[] }> {
  const t: Record<string, { dtype: string; shape: number[] }> = {};
  for (const l of layers) {
    const p = `model.layers.${l}`;
    t[`${p}.self_attn.q_proj.weight`] = { dtype: 'BF16', shape: [8, 8] };
    t[`${p}.self_attn.k_proj.weight`] = { dtype: 'BF16', shape: [4, 8] };
    t[`${p}.self_attn.v_proj.weight`] = { dtype: 'BF16', shape: [4, 8] };
    t[`${p}.self_attn.o_proj.weight`] = { dtype: 'BF16', shape: [8, 8] };
    t[`${p}.mlp.gate_proj.weight`] = { dtype: 'BF16', shape: [16, 8] };
    t[`${p}.mlp.up_proj.weight`] = { dtype: 'BF16', shape: [16, 8] };
    t[`${p}.mlp.down_proj.weight`] = { dtype: 'BF16', shape: [8, 16] };
    t[`${p}.input_layernorm.weight`] = { dtype: 'BF16', shape: [8] };
    t[`${p}.post_attention_layernorm.weight`] = { dtype: 'BF16', shape: [8] };
  }
  return t;
}
const perLayer = 64 + 32 + 32 + 64 + 3 * 128 + 16;
const tinyTotal = 32 * 8 + 2 * perLayer + 8 + 32 * 8;


test('config.json arithmetic for the tiny model agrees with the hand count', () => {
  const parsed = architectureFromConfig(tinyConfig)!;
  assert.equal(countParams(parsed.architecture).total, tinyTotal);
});

test('a single model.safetensors: exact count and largest module from the header', async () => {
  await withTempDir(async (dir) => {
    const tensors = { 'model.embed_tokens.weight': { dtype: 'BF16', shape: [32, 8] }, ...tinyTensors([0, 1]), 'model.norm.weight': { dtype: 'BF16', shape: [8] }, 'lm_head.weight': { dtype: 'F32', shape: [32, 8] } };
    await writeFile(join(dir, 'model.safetensors'), safetensors(tensors));
    await writeFile(join(dir, 'config.json'), JSON.stringify(tinyConfig));
    const summary = await readSafetensorsHeader(nodeFileSystem, join(dir, 'model.safetensors'));
    assert.equal(summary!.params, tinyTotal);
    assert.equal(summary!.dtypes.get('F32'), 256);
    const info = await readModelFolder(nodeFileSystem, dir);
    assert.equal(info!.totalParams, tinyTotal);
    assert.equal(info!.largestLayerParams, 256); // embedding (or head): 32 × 8
    assert.deepEqual(info!.source, { kind: 'model-folder', path: dir, how: 'safetensors' });
    assert.equal(info!.architecture!.hiddenSize, 8);
  });
});

test('a sharded checkpoint: the index names the shards and their headers are summed', async () => {
  await withTempDir(async (dir) => {
    const first = { 'model.embed_tokens.weight': { dtype: 'BF16', shape: [32, 8] }, ...tinyTensors([0]) };
    const second = { ...tinyTensors([1]), 'model.norm.weight': { dtype: 'BF16', shape: [8] }, 'lm_head.weight': { dtype: 'BF16', shape: [32, 8] } };
    await writeFile(join(dir, 'model-00001-of-00002.safetensors'), safetensors(first));
    await writeFile(join(dir, 'model-00002-of-00002.safetensors'), safetensors(second));
    const weightMap: Record<string, string> = {};
    for (const k of Object.keys(first)) weightMap[k] = 'model-00001-of-00002.safetensors';
    for (const k of Object.keys(second)) weightMap[k] = 'model-00002-of-00002.safetensors';
    // total_size deliberately wrong: the headers win when every shard is present.
    await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: { total_size: 2 }, weight_map: weightMap }));
    const info = await readModelFolder(nodeFileSystem, dir);
    assert.equal(info!.totalParams, tinyTotal);
    assert.equal(info!.source.kind === 'model-folder' && info!.source.how, 'safetensors');
  });
});

test('shards missing (index only): metadata.total_size ÷ dtype bytes; no index: config.json arithmetic', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'config.json'), JSON.stringify(tinyConfig));
    await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: { total_size: 2 * 1000 }, weight_map: { 'a.weight': 'model-00001-of-00002.safetensors' } }));
    const fromIndex = await readModelFolder(nodeFileSystem, dir);
    assert.equal(fromIndex!.totalParams, 1000);
    assert.equal(fromIndex!.source.kind === 'model-folder' && fromIndex!.source.how, 'index');
    await rm(join(dir, 'model.safetensors.index.json'));
    const fromConfig = await readModelFolder(nodeFileSystem, dir);
    assert.equal(fromConfig!.totalParams, tinyTotal);
    assert.equal(fromConfig!.source.kind === 'model-folder' && fromConfig!.source.how, 'config.json');
  });
});

test('corrupt headers are rejected, not miscounted', () => {
  assert.equal(parseSafetensorsHeader('{"a": {"dtype": "BF16", "shape": [2, -1]}}'), undefined);
  assert.equal(parseSafetensorsHeader('not json'), undefined);
  assert.equal(parseSafetensorsHeader('[1,2]'), undefined);
  assert.equal(parseSafetensorsHeader('{"a": {"dtype": "BF16", "shape": [3, 4]}, "__metadata__": {}}')!.params, 12);
});

test('config.json fields of other families: Qwen3-MoE, DeepSeek-V3, ChatGLM, Gemma-3 text_config', () => {
  const qwenMoe = architectureFromConfig({ model_type: 'qwen3_moe', vocab_size: 151936, hidden_size: 2048, intermediate_size: 6144, moe_intermediate_size: 768, num_hidden_layers: 48, num_attention_heads: 32, num_key_value_heads: 4, head_dim: 128, num_experts: 128, num_experts_per_tok: 8, tie_word_embeddings: false, mlp_only_layers: [] })!;
  assert.equal(countParams(qwenMoe.architecture).total, 30_532_122_624);
  const deepseek = architectureFromConfig({
    model_type: 'deepseek_v3', vocab_size: 129280, hidden_size: 7168, intermediate_size: 18432, moe_intermediate_size: 2048, num_hidden_layers: 61,
    num_attention_heads: 128, num_key_value_heads: 128, n_routed_experts: 256, n_shared_experts: 1, num_experts_per_tok: 8, first_k_dense_replace: 3,
    q_lora_rank: 1536, kv_lora_rank: 512, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128, topk_method: 'noaux_tc', tie_word_embeddings: false,
  })!;
  assert.equal(countParams(deepseek.architecture).total, 671_026_419_200);
  const glm = architectureFromConfig({ model_type: 'chatglm', padded_vocab_size: 151552, hidden_size: 4096, ffn_hidden_size: 13696, num_layers: 40, num_attention_heads: 32, multi_query_attention: true, multi_query_group_num: 2, kv_channels: 128, add_qkv_bias: true })!;
  assert.equal(countParams(glm.architecture).total, 9_399_951_360);
  const gemma3 = architectureFromConfig({ model_type: 'gemma3', text_config: { model_type: 'gemma3_text', vocab_size: 262208, hidden_size: 2560, intermediate_size: 10240, num_hidden_layers: 34, num_attention_heads: 8, num_key_value_heads: 4, head_dim: 256 }, vision_config: {} })!;
  assert.equal(countParams(gemma3.architecture).total, 3_880_263_168);
  assert.equal(gemma3.multimodal, true);
  const phi3 = architectureFromConfig({ model_type: 'phi3', vocab_size: 32064, hidden_size: 3072, intermediate_size: 8192, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 32, tie_word_embeddings: false })!;
  assert.equal(countParams(phi3.architecture).total, 3_821_079_552);
});

async function writeTinyModel(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify(tinyConfig));
  await writeFile(join(dir, 'model.safetensors'), safetensors({ 'model.embed_tokens.weight': { dtype: 'BF16', shape: [32, 8] }, ...tinyTensors([0, 1]), 'model.norm.weight': { dtype: 'BF16', shape: [8] }, 'lm_head.weight': { dtype: 'BF16', shape: [32, 8] } }));
}

function hostWith(env: Record<string, string>, homeDir: string): FileSystemHost {
  return { ...nodeFileSystem, env, homeDir };
}

test('Hugging Face cache: $HF_HUB_CACHE, $HF_HOME/hub and ~/.cache/huggingface/hub, refs/main snapshot', async () => {
  await withTempDir(async (dir) => {
    const repo = join(dir, 'home', '.cache', 'huggingface', 'hub', 'models--acme--Tiny-Llama');
    await writeTinyModel(join(repo, 'snapshots', 'abc123'));
    await mkdir(join(repo, 'refs'), { recursive: true });
    await writeFile(join(repo, 'refs', 'main'), 'abc123\n');
    const fromHome = hostWith({}, join(dir, 'home'));
    assert.equal(await findInHuggingFaceCache(fromHome, 'acme/Tiny-Llama'), join(repo, 'snapshots', 'abc123'));
    assert.equal(await findInHuggingFaceCache(fromHome, 'ACME/tiny-llama'), join(repo, 'snapshots', 'abc123'));
    const info = await resolveModel('acme/Tiny-Llama', fromHome, join(dir, 'elsewhere'));
    assert.equal(info!.totalParams, tinyTotal);
    assert.equal(info!.id, 'acme/Tiny-Llama');
    assert.equal(info!.displayName, 'Tiny-Llama');
    const bySnapshotPath = await resolveModel(join(repo, 'snapshots', 'abc123'), fromHome);
    assert.equal(bySnapshotPath!.displayName, 'Tiny-Llama');
    assert.equal(bySnapshotPath!.totalParams, tinyTotal);

    const hubCache = join(dir, 'hub-cache');
    await writeTinyModel(join(hubCache, 'models--acme--Other', 'snapshots', 'r1'));
    assert.equal(await findInHuggingFaceCache(hostWith({ HF_HUB_CACHE: hubCache }, join(dir, 'nohome')), 'acme/Other'), join(hubCache, 'models--acme--Other', 'snapshots', 'r1'));
    const hfHome = join(dir, 'hf-home');
    await writeTinyModel(join(hfHome, 'hub', 'models--acme--Third', 'snapshots', 'r2'));
    assert.equal(await findInHuggingFaceCache(hostWith({ HF_HOME: hfHome }, join(dir, 'nohome')), 'acme/Third'), join(hfHome, 'hub', 'models--acme--Third', 'snapshots', 'r2'));
    assert.equal(await findInHuggingFaceCache(fromHome, 'acme/Missing'), undefined);
  });
});

test('ModelScope cache: models/org/name, the older org/name, and "." written as "___"', async () => {
  await withTempDir(async (dir) => {
    const home = join(dir, 'home');
    const current = join(home, '.cache', 'modelscope', 'hub', 'models', 'acme', 'Tiny2___5-Chat');
    await writeTinyModel(current);
    const fs = hostWith({}, home);
    assert.equal(await findInModelScopeCache(fs, 'acme/Tiny2.5-Chat'), current);
    const older = join(dir, 'ms', 'acme', 'Old-Model');
    await writeTinyModel(older);
    assert.equal(await findInModelScopeCache(hostWith({ MODELSCOPE_CACHE: join(dir, 'ms') }, join(dir, 'nohome')), 'acme/Old-Model'), older);
    const info = await resolveModel('acme/Tiny2.5-Chat', fs);
    assert.equal(info!.totalParams, tinyTotal);
  });
});

test('resolveModel: folders (absolute, relative, config.json path) first, then catalog, then nothing', async () => {
  await withTempDir(async (dir) => {
    await writeTinyModel(join(dir, 'ckpt', 'tiny'));
    const fs = hostWith({}, join(dir, 'nohome'));
    assert.equal((await resolveModel(join(dir, 'ckpt', 'tiny'), fs))!.totalParams, tinyTotal);
    assert.equal((await resolveModel('./ckpt/tiny', fs, dir))!.totalParams, tinyTotal);
    assert.equal((await resolveModel('ckpt/tiny/config.json', fs, dir))!.displayName, 'tiny');
    assert.equal((await resolveModel('Qwen/Qwen3-8B', fs, dir))!.totalParams, 8_190_735_360);
    assert.equal(await resolveModel('./ckpt/none', fs, dir), undefined);
    // Paths on the training machine that this one cannot read: the catalog model they are named after.
    assert.equal((await resolveModel('/data/models/Qwen2.5-7B-Instruct', fs, dir))?.id, 'Qwen/Qwen2.5-7B');
    assert.equal((await resolveModel('/root/.cache/modelscope/hub/Qwen/Qwen2___5-7B-Instruct', fs, dir))?.id, 'Qwen/Qwen2.5-7B');
    assert.equal((await resolveModel('/srv/hf/models--Qwen--Qwen3-8B/snapshots/0123abc', fs, dir))?.id, 'Qwen/Qwen3-8B');
    assert.equal((await resolveModel('/mnt/llama/Meta-Llama-3.1-8B-Instruct/config.json', fs, dir))?.id, 'meta-llama/Llama-3.1-8B');
    assert.equal(await resolveModel('nobody/nothing', fs, dir), undefined);
  });
});

test('an in-memory FileSystemHost works as well as the disk (no fs in the core)', async () => {
  const files = new Map<string, Uint8Array>();
  const bytes = safetensors({ 'w.weight': { dtype: 'BF16', shape: [5, 7] } });
  files.set('/m/model.safetensors', new Uint8Array(bytes));
  const memoryFs: FileSystemHost = {
    readFile: async () => missing,
    readBytes: async (path, offset, length) => {
      const bytes = files.get(path)?.subarray(offset, offset + length);
      return bytes ? { bytes } : missing;
    },
    exists: async (path) => files.has(path) || path === '/m',
    listDir: async (path) => (path === '/m' ? ['model.safetensors'] : undefined),
  };
  const info = await readModelFolder(memoryFs, '/m');
  assert.equal(info!.totalParams, 35);
});
