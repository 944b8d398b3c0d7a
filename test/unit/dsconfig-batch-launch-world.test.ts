import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

// train_batch_size = micro × accumulation × world size: a batch no GPU count multiplies out to is fixed for the
// GPUs the run has. A launch script that uses this config says how many; the setting is only the fallback.
const config = '{\n  "train_batch_size": 30,\n  "train_micro_batch_size_per_gpu": 2,\n  "gradient_accumulation_steps": 2,\n  "zero_optimization": { "stage": 2 }\n}\n';

async function batchMismatch(files: Record<string, string>, gpusPerNode: number) {
  const ls = getLanguageService(memoryHosts({ 'ds_config.json': config, ...files }));
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'ds_config.json')).toString(), 'ds-config', 1, config);
  const settings = { ...defaultSettings, gpusPerNode };
  const diagnostics = (await ls.doValidation(document, settings)).filter((d) => d.code === 'batch-size-mismatch');
  assert.equal(diagnostics.length, 1, diagnostics.map((d) => String(d.message)).join('\n'));
  const [diagnostic] = diagnostics;
  const actions = await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic], only: ['quickfix'] }, settings);
  const fixedBatch = actions.find((a) => a.title.startsWith('Set train_batch_size to'));
  assert.ok(fixedBatch, actions.map((a) => a.title).join(' | '));
  const edited = TextDocument.applyEdits(document, fixedBatch.edit!.changes![document.uri]);
  return { diagnostic, title: fixedBatch.title, batch: JSON.parse(edited).train_batch_size as number };
}

test('batch triple: the fix multiplies by the GPUs of the launch script that uses the config (--num_gpus 4), not by zeroLens.gpusPerNode 8', async () => {
  const script = '#!/bin/bash\ndeepspeed --num_gpus 4 train.py --deepspeed ds_config.json --per_device_train_batch_size 2\n';
  const { diagnostic, title, batch } = await batchMismatch({ 'train.sh': script }, 8);
  assert.equal(batch, 16);
  // Where the count comes from, in the message, the fix and the data.
  assert.match(title, /^Set train_batch_size to 16 \(2 × 2 × 4 GPUs \(.*train\.sh.*\)\)$/);
  assert.match(String(diagnostic.message), /4 GPUs \(.*train\.sh/);
  const data = diagnostic.data as { world?: number; worldSource?: string; suggested?: number };
  assert.equal(data.world, 4);
  assert.equal(data.suggested, 16);
  assert.match(String(data.worldSource), /train\.sh/);
});

test('batch triple: torchrun --nproc_per_node, CUDA_VISIBLE_DEVICES and NPROC_PER_NODE give the world size too', async () => {
  const cases: [string, number][] = [
    ['torchrun --nproc_per_node 8 train.py --deepspeed ds_config.json --per_device_train_batch_size 2\n', 32],
    ['CUDA_VISIBLE_DEVICES=0,1 deepspeed train.py --deepspeed ds_config.json --per_device_train_batch_size 2\n', 8],
    ['NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct --deepspeed ds_config.json\n', 16],
  ];
  for (const [script, expected] of cases) {
    const { batch, title } = await batchMismatch({ 'run.sh': script }, 1);
    assert.equal(batch, expected, `${script}${title}`);
    assert.match(title, /run\.sh/);
  }
});

test('batch triple without a launch script: the setting gives the GPU count, and the fix says so', async () => {
  const { title, batch, diagnostic } = await batchMismatch({}, 8);
  assert.equal(batch, 32);
  assert.match(title, /8 GPUs \(.*gpusPerNode.*\)/);
  assert.equal((diagnostic.data as { world?: number }).world, 8);
});

test('"Fix all" sets the batch of the launch script\'s GPUs too, as the diagnostic\'s own fix does', async () => {
  const script = '#!/bin/bash\ndeepspeed --num_gpus 4 train.py --deepspeed ds_config.json --per_device_train_batch_size 2\n';
  const ls = getLanguageService(memoryHosts({ 'ds_config.json': config, 'train.sh': script }));
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'ds_config.json')).toString(), 'ds-config', 1, config);
  const settings = { ...defaultSettings, gpusPerNode: 8 };
  const diagnostics = await ls.doValidation(document, settings);
  const range = { start: { line: 0, character: 0 }, end: document.positionAt(config.length) };
  const [fixAll] = await ls.getCodeActions(document, range, { diagnostics, only: ['source.fixAll.zeroLens'] }, settings);
  assert.ok(fixAll?.edit?.changes, 'a Fix all action');
  assert.equal(JSON.parse(TextDocument.applyEdits(document, fixAll.edit.changes[document.uri])).train_batch_size, 16);
});
