/**
 * Settings are per resource: in a multi-root workspace each folder's `zeroLens.*` values (workspace/configuration
 * with the document as scopeUri) apply to that folder's files only, and a relative `zeroLens.model` folder is
 * the one in the workspace folder that holds the file, as a value in that folder's .vscode/settings.json means.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { fileUri, startServer, type TestServer } from './lspClient';

const config = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "bf16": {"enabled": true},\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n';
/** A small Llama (about 1.1B parameters), as a local model folder holds it. */
const tinyModel = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 2048,
  intermediate_size: 5632,
  num_hidden_layers: 22,
  num_attention_heads: 32,
  num_key_value_heads: 4,
  vocab_size: 32000,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

async function hintLabels(server: TestServer, uri: string): Promise<string[]> {
  const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
  return hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((part) => part.value).join('')));
}

test("each folder's settings apply to its own files, and a relative model folder is found in the file's workspace folder", async () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-folders-')));
  const a = path.join(root, 'a');
  const b = path.join(root, 'b');
  mkdirSync(a);
  mkdirSync(path.join(b, 'models', 'tiny'), { recursive: true });
  mkdirSync(path.join(b, 'scripts'));
  writeFileSync(path.join(b, 'models', 'tiny', 'config.json'), JSON.stringify(tinyModel));
  // A script that names no model: the setting's relative folder is the workspace folder's, not the script's.
  const script = 'deepspeed --num_gpus 2 train.py --deepspeed ../ds_config.json\n';
  writeFileSync(path.join(b, 'scripts', 'train.sh'), script);
  const asked: string[] = [];
  const server = await startServer({
    folders: [a, b],
    rootPath: a,
    answer: (method, params) => {
      if (method !== 'workspace/configuration') return undefined;
      return (params as { items: { scopeUri?: string }[] }).items.map((item) => {
        asked.push(item.scopeUri ?? '');
        return item.scopeUri?.startsWith(fileUri(b) + '/')
          ? { model: './models/tiny', gpusPerNode: 2, gpuMemoryGiB: 80 }
          : { model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 24 };
      });
    },
  });
  try {
    const inA = fileUri(path.join(a, 'ds_config.json'));
    const inB = fileUri(path.join(b, 'ds_config.json'));
    const scriptInB = fileUri(path.join(b, 'scripts', 'train.sh'));
    await server.open(inA, 'json', config);
    await server.open(inB, 'json', config);
    await server.open(scriptInB, 'shellscript', script);
    assert.match((await hintLabels(server, inA))[0]!, /\(> 24\.0 GiB\) · Qwen3-8B · 8 GPUs/);
    assert.match((await hintLabels(server, inB))[0]!, /^≈ [\d.]+ GiB\/GPU · tiny · 2 GPUs/);
    assert.match((await hintLabels(server, scriptInB)).join(' '), /tiny · 2 GPUs/);
    assert.ok(asked.includes(inA) && asked.includes(inB), `settings were asked for each document: ${asked}`);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
