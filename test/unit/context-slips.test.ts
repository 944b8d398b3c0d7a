/**
 * Two slips a new user met (issue 25), each failing before its fix: the batch triple against a GPU count that the
 * settings or a launch script give, and an estimate drawn beside a ZeRO stage that does not exist.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings, type ZeroLensSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

function doc(name: string, text: string, languageId: string): TextDocument {
  return TextDocument.create(URI.file(path.join(workspaceRoot, name)).toString(), languageId, 1, text);
}

const triple = '{\n  "train_batch_size": 32,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 4,\n  "zero_optimization": {"stage": 2}\n}\n';

async function batchErrors(files: Record<string, string>, settings: ZeroLensSettings = defaultSettings) {
  const service = getLanguageService(memoryHosts({ 'ds_config.json': triple, ...files }));
  const diagnostics = await service.doValidation(doc('ds_config.json', triple, 'ds-config'), settings);
  return diagnostics.filter((d) => d.code === 'batch-size-mismatch');
}

test('train_batch_size 32 with micro-batch 4 and accumulation 4 on 4 GPUs is an error, whether the settings or the script give the count', async () => {
  // No GPU count: nothing can be said beyond divisibility (32 is a multiple of 16).
  assert.deepEqual(await batchErrors({}), []);
  const fromSettings = await batchErrors({}, { ...defaultSettings, gpusPerNode: 4 });
  assert.equal(fromSettings.length, 1);
  assert.equal(fromSettings[0].severity, 1);
  assert.match(String(fromSettings[0].message), /with 4 GPUs .* that is 4 × 4 × 4 = 64/);
  const fromScript = await batchErrors({ 'train.sh': 'NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct --deepspeed ds_config.json\n' });
  assert.equal(fromScript.length, 1);
  assert.equal(fromScript[0].severity, 1);
  assert.match(String(fromScript[0].message), /train\.sh line 1/);
  // Its fix sets the total the GPUs give.
  const fix = (fromScript[0].data as { fixes: { ops: { value: unknown }[] }[] }).fixes[0];
  assert.equal(fix.ops[0].value, 64);
  // Two GPUs make 32: fine.
  assert.deepEqual(await batchErrors({ 'train.sh': 'NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B-Instruct --deepspeed ds_config.json\n' }), []);
  // A plain deepspeed script may split the GPUs with its own model parallelism: a warning.
  const plain = await batchErrors({ 'train.sh': 'deepspeed --num_gpus 4 pretrain_gpt.py --deepspeed --deepspeed_config ds_config.json\n' });
  assert.equal(plain[0]?.severity, 2);
});

test('no estimate beside an invalid ZeRO stage (accelerate zero_stage: 4)', async () => {
  const yaml = 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 4\nnum_processes: 8\n';
  const script = 'accelerate launch --config_file acc.yaml train.py --model_name_or_path Qwen/Qwen2.5-7B\n';
  const service = getLanguageService(memoryHosts({ 'acc.yaml': yaml, 'train.sh': script }));
  const settings = { ...defaultSettings, gpuMemoryGiB: 10 };
  const scriptDoc = doc('train.sh', script, 'shellscript');
  const whole = { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } };
  assert.deepEqual(await service.getInlayHints(scriptDoc, whole, settings), []);
  assert.deepEqual((await service.doValidation(scriptDoc, settings)).map((d) => d.code), []);
  const yamlDiagnostics = await service.doValidation(doc('acc.yaml', yaml, 'yaml'), settings);
  assert.deepEqual(yamlDiagnostics.map((d) => d.code), ['accelerate-invalid-value']);
  assert.deepEqual(await service.getInlayHints(doc('acc.yaml', yaml, 'yaml'), whole, settings), []);
});
