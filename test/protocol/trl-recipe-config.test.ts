/**
 * alignment-handbook's layout (scripts/, recipes/<model>/sft/config.yaml) with a recipe whose `deepspeed:` key names
 * the ds_config (TrainingArguments.deepspeed; TrlParser takes it from the YAML, trl f2cd5771 trl/scripts/utils.py:359-379):
 * the open ds_config's hint shows the model from the recipe and the GPU count from the script that runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { fileUri, startServer } from './lspClient';

const ds = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": { "stage": 3 },\n  "bf16": { "enabled": "auto" }\n}\n';
const files: Record<string, string> = {
  'recipes/accelerate_configs/ds_z3.json': ds,
  // https://github.com/huggingface/alignment-handbook/blob/925acdfe4b2b4e38c3dabd1851bc418f0b656351/recipes/zephyr-7b-beta/sft/config_full.yaml (excerpt)
  'recipes/zephyr-7b-beta/sft/config_full.yaml':
    'model_name_or_path: mistralai/Mistral-7B-v0.1\ntorch_dtype: bfloat16\nbf16: true\ndeepspeed: recipes/accelerate_configs/ds_z3.json\ngradient_checkpointing: true\nmax_seq_length: 2048\nper_device_train_batch_size: 4\n',
  'launch.sh': 'torchrun --nproc_per_node 4 scripts/run_sft.py --config recipes/zephyr-7b-beta/sft/config_full.yaml\n',
};

test("a ds_config named only by a TRL recipe's deepspeed: key is estimated for the script that runs the recipe", async () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-recipe-')));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  const server = await startServer({ rootPath: root, initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = fileUri(path.join(root, 'recipes/accelerate_configs/ds_z3.json'));
    const first = server.diagnostics(uri);
    await server.open(uri, 'json', ds);
    await first;
    const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } } });
    const labels = hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')));
    assert.ok(labels.some((l) => /Mistral-7B-v0\.1 · 4 GPUs/.test(l)), labels.join(' | '));
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
