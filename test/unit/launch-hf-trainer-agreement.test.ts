/**
 * The HF Trainer's agreement check through the real language service: what trainer_config_process and
 * trainer_config_finalize compare (transformers integrations/deepspeed.py @3a80c166) against the script's
 * arguments, each a ValueError at start when the config says otherwise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

const base = { train_micro_batch_size_per_gpu: 'auto', gradient_accumulation_steps: 'auto', zero_optimization: { stage: 2 } };

async function mismatches(config: Record<string, unknown>, script: string): Promise<{ at: string; d: Diagnostic }[]> {
  const files = { 'ds_config.json': JSON.stringify({ ...base, ...config }, null, 2), 'train.sh': script };
  const service = getLanguageService(memoryHosts(files));
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'train.sh')).toString(), 'shellscript', 1, script);
  const diagnostics = await service.doValidation(document, defaultSettings);
  return diagnostics.filter((d) => d.code === 'hf-trainer-config-mismatch').map((d) => ({ at: document.getText(d.range), d }));
}

const run = (args: string, launcher = 'torchrun --nproc_per_node 4') => `${launcher} train.py \\\n  --model_name_or_path Qwen/Qwen2.5-7B \\\n  ${args} \\\n  --deepspeed ds_config.json\n`;

test('optimizer betas against --adam_beta1/--adam_beta2: a written element that differs is refused', async () => {
  const config = { optimizer: { type: 'AdamW', params: { lr: 'auto', betas: [0.9, 0.95] } } };
  const found = await mismatches(config, run('--adam_beta1 0.9 --adam_beta2 0.999'));
  assert.deepEqual(found.map((f) => f.at), ['0.999']);
  assert.equal(found[0].d.severity, DiagnosticSeverity.Error);
  assert.match(String(found[0].d.message), /--adam_beta2 is 0\.999 but the DeepSpeed config sets "optimizer\.params\.betas\[1\]": 0\.95/);
  assert.match(String(found[0].d.codeDescription?.href), /huggingface\/transformers\/blob\/3a80c166[0-9a-f]*\/src\/transformers\/integrations\/deepspeed\.py#L277-L282$/);
  assert.deepEqual(await mismatches(config, run('--adam_beta2 0.95')), []);
  assert.deepEqual(await mismatches({ optimizer: { type: 'AdamW', params: { betas: 'auto' } } }, run('--adam_beta2 0.999')), []);
});

test('scheduler warmup_num_steps against --warmup_steps, where the steps do not depend on the run length', async () => {
  const config = { scheduler: { type: 'WarmupLR', params: { warmup_num_steps: 100 } } };
  assert.deepEqual((await mismatches(config, run('--warmup_steps 50'))).map((f) => f.at), ['50']);
  assert.deepEqual(await mismatches(config, run('--warmup_steps 100')), []);
  // A float below 1 is a ratio of the run's steps (transformers 5), as is --warmup_ratio: unknown here.
  assert.deepEqual(await mismatches(config, run('--warmup_steps 0.1')), []);
  assert.deepEqual(await mismatches(config, run('--warmup_steps 50 --warmup_ratio 0.1')), []);
  // warmup_min_lr is only filled, never compared (fill_only).
  assert.deepEqual(await mismatches({ scheduler: { type: 'WarmupLR', params: { warmup_min_lr: 1e-6 } } }, run('--learning_rate 2e-5')), []);
});

test('train_batch_size against the launch GPU count × --per_device_train_batch_size × --gradient_accumulation_steps', async () => {
  const config = { train_batch_size: 32 };
  const found = await mismatches(config, run('--per_device_train_batch_size 4 --gradient_accumulation_steps 4'));
  assert.deepEqual(found.map((f) => f.at), ['4']);
  assert.match(String(found[0].d.message), /4 processes × 4 per GPU × 4 accumulation steps = 64, and the DeepSpeed config sets "train_batch_size": 32/);
  assert.deepEqual(await mismatches(config, run('--per_device_train_batch_size 4 --gradient_accumulation_steps 4', 'torchrun --nproc_per_node 2')), []);
  assert.deepEqual((await mismatches(config, run('--per_device_train_batch_size 4 --gradient_accumulation_steps 4', 'torchrun --nnodes 2 --nproc_per_node 2'))).map((f) => f.at), ['4']);
  // Without the process count or one of the arguments, nothing is known.
  assert.deepEqual(await mismatches(config, run('--per_device_train_batch_size 4', 'torchrun --nproc_per_node 4')), []);
  assert.deepEqual(await mismatches(config, run('--per_device_train_batch_size 4 --gradient_accumulation_steps 4', 'deepspeed --hostfile hosts')), []);
});

test('--auto_find_batch_size: the Trainer compares neither the micro-batch nor train_batch_size', async () => {
  const config = { train_micro_batch_size_per_gpu: 2, train_batch_size: 8 };
  const args = '--per_device_train_batch_size 4 --gradient_accumulation_steps 1';
  assert.deepEqual((await mismatches(config, run(args))).map((f) => f.at).sort(), ['4', '4']);
  assert.deepEqual(await mismatches(config, run(`${args} --auto_find_batch_size`)), []);
  // Accumulation is compared regardless.
  assert.deepEqual((await mismatches({ gradient_accumulation_steps: 2 }, run(`${args} --auto_find_batch_size`))).map((f) => f.at), ['1']);
});

// TRL's configs make bf16 `not fp16` when unset (trl f2cd5771 trl/trainer/base_config.py:67-72, :104-105): a TRL script that
// passes no --bf16 runs with bf16 on, so a config with bf16 enabled agrees with it, and one with bf16 false does not.
test('a TRL script without --bf16: TRL\'s bf16 default, not TrainingArguments\' False', async () => {
  const trl = (args: string) => `torchrun --nproc_per_node 4 trl/scripts/dpo.py \\\n  --model_name_or_path Qwen/Qwen2.5-7B \\\n  --output_dir out ${args} \\\n  --deepspeed ds_config.json\n`;
  assert.deepEqual(await mismatches({ bf16: { enabled: true } }, trl('')), []);
  assert.equal((await mismatches({ bf16: { enabled: false } }, trl(''))).length, 1);
  assert.deepEqual(await mismatches({ bf16: { enabled: false }, fp16: { enabled: true } }, trl('--fp16')), []);
  assert.equal((await mismatches({ fp16: { enabled: true } }, trl(''))).length, 1);
});
