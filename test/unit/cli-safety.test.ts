/** What the CLI and the model reader do with hostile values: bidi marks, stages that are not stages, absurd shapes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseSafetensorsHeader } from '../../server/src/memory/safetensors';
import { readModelFolder } from '../../server/src/memory';
import { missing, type FileSystemHost } from '../../server/src/host';
import { runCli } from './cli-helpers';

function inTemp(files: Record<string, string>): { dir: string; done: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-cli-safety-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('estimate refuses a config whose stage is not 0-3 as a number (it was estimated as ZeRO-0 with exit 0)', async () => {
  for (const stage of ['"two"', '5', '"2"', 'null']) {
    const { dir, done } = inTemp({ 'ds_config.json': `{"zero_optimization": {"stage": ${stage}}, "train_micro_batch_size_per_gpu": 1}` });
    try {
      const run = await runCli(['estimate', 'ds_config.json', '--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8'], dir);
      assert.equal(run.code, 2, `stage ${stage}: ${run.out}${run.err}`);
      assert.match(run.err, /zero_optimization\.stage is .*; ZeRO Lens estimates stage 0, 1, 2 or 3 written as a number/);
    } finally {
      done();
    }
  }
});

test('the CLI never passes a bidirectional override or a control character from a file to the terminal', async () => {
  const name = 'Qwen\u202eB8-3newQ\u0007';
  const { dir, done } = inTemp({ 'ds_config.json': '{"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 1}' });
  try {
    const run = await runCli(['estimate', 'ds_config.json', '--model', name, '--gpus-per-node', '8'], dir);
    const printed = run.out + run.err;
    assert.ok(printed.length > 0);
    assert.doesNotMatch(printed, /[\u202a-\u202e\u2066-\u2069\u0007]/);
  } finally {
    done();
  }
});

test('absurd safetensors shapes or config.json sizes give no size at all, never "∞ GiB"', async () => {
  assert.equal(parseSafetensorsHeader(JSON.stringify({ w: { dtype: 'BF16', shape: [1e10, 1e10] } })), undefined);
  assert.equal(parseSafetensorsHeader(JSON.stringify({ w: { dtype: 'BF16', shape: [2 ** 40, 2 ** 40] } })), undefined);
  assert.equal(parseSafetensorsHeader(JSON.stringify({ w: { dtype: 'BF16', shape: [4096, 4096] } }))?.params, 4096 * 4096);
  const config = JSON.stringify({ model_type: 'llama', hidden_size: 1e200, intermediate_size: 1e200, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000 });
  const fs: FileSystemHost = {
    readFile: async (file) => (file.endsWith('config.json') ? { text: config } : missing),
    readBytes: async () => missing,
    exists: async () => true,
    listDir: async () => ['config.json'],
  };
  assert.equal(await readModelFolder(fs, '/m'), undefined);
});
