import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Range } from 'vscode-languageserver-types';
import { createAnalyses } from '../../server/src/analyses';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

/** ms-swift's examples/yaml/deepspeed/sft.yaml, shortened: a config file that names the DeepSpeed preset. */
const sftYaml = 'model: Qwen/Qwen3-8B\ntorch_dtype: bfloat16\ntuner_type: lora\nper_device_train_batch_size: 1\nmax_length: 2048\ndeepspeed: zero2\n';
const withEnv = (env: string) => `${sftYaml}ENV:\n${env}`;
const files = {
  'scripts/sft.yaml': sftYaml,
  'scripts/env4.yaml': withEnv('  NPROC_PER_NODE: 4\n  CUDA_VISIBLE_DEVICES: 0,1,2,3\n'),
  'scripts/env_devices.yaml': withEnv('  CUDA_VISIBLE_DEVICES: 0,1\n'),
  'scripts/sft.json': JSON.stringify({ model: 'Qwen/Qwen3-8B', torch_dtype: 'bfloat16', max_length: 2048, deepspeed: 'zero3' }, null, 2),
  'scripts/no_ds.yaml': 'model: Qwen/Qwen3-8B\ntuner_type: lora\n',
  'scripts/multi_gpu.yaml': 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: bf16\nnum_machines: 2\nnum_processes: 8\n',
  'configs/ds_z2.json': '{ "zero_optimization": { "stage": 2 }, "train_micro_batch_size_per_gpu": 1 }',
};
const all: Range = { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } };

async function check(text: string) {
  const { ls } = service(files);
  const document = doc('scripts/train.sh', text);
  return { document, diagnostics: await ls.doValidation(document, settings()) };
}

async function hint(text: string): Promise<string | undefined> {
  const { ls } = service(files);
  const hints = await ls.getInlayHints(doc('scripts/train.sh', text), all, settings());
  return hints.length ? String(hints[0].label) : undefined;
}

test('swift sft config.yaml: the YAML’s deepspeed: counts for the device check (ms-swift #5328)', async () => {
  const { document, diagnostics } = await check('CUDA_VISIBLE_DEVICES=0,1 swift sft sft.yaml\n');
  assert.deepEqual(codes(diagnostics), ['cuda-devices-without-nproc']);
  assert.match(String(diagnostics[0].message), /DeepSpeed \(deepspeed: zero2 in sft\.yaml\) then fails/);
  assert.equal(fixed(document, diagnostics, 'cuda-devices-without-nproc'), 'CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 swift sft sft.yaml\n');
  assert.deepEqual(codes((await check('NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 swift sft sft.yaml\n')).diagnostics), []);
  assert.deepEqual(codes((await check('CUDA_VISIBLE_DEVICES=0,1 swift sft no_ds.yaml\n')).diagnostics), [], 'without DeepSpeed, device_map is a choice');
});

test('swift sft config.yaml: ENV: in the YAML sets what the shell leaves unset', async () => {
  const devices = await check('swift sft env_devices.yaml\n');
  assert.deepEqual(codes(devices.diagnostics), ['cuda-devices-without-nproc']);
  assert.match(String(devices.diagnostics[0].message), /^ENV\.CUDA_VISIBLE_DEVICES in env_devices\.yaml lists 2 GPUs/);
  assert.deepEqual(devices.diagnostics[0].range, { start: { line: 0, character: 10 }, end: { line: 0, character: 26 } }, 'on the config file argument');
  assert.equal(fixed(devices.document, devices.diagnostics, 'cuda-devices-without-nproc'), 'NPROC_PER_NODE=2 swift sft env_devices.yaml\n');
  assert.deepEqual(codes((await check('swift sft env4.yaml\n')).diagnostics), []);
  // The shell's NPROC_PER_NODE wins over ENV's (main.py only warns), and 2 processes for 4 GPUs fail.
  const mismatch = await check('NPROC_PER_NODE=2 swift sft env4.yaml\n');
  assert.deepEqual(codes(mismatch.diagnostics), ['nproc-visible-devices-mismatch']);
  assert.match(String(mismatch.diagnostics[0].message), /^ENV\.CUDA_VISIBLE_DEVICES in env4\.yaml lists 4 GPUs for 2 processes per node \(NPROC_PER_NODE\): each process sees 2 GPUs/);
  assert.equal(fixed(mismatch.document, mismatch.diagnostics, 'nproc-visible-devices-mismatch'), 'NPROC_PER_NODE=4 swift sft env4.yaml\n');
  const envProcesses = await check('CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 swift sft env4.yaml\n');
  assert.match(String(envProcesses.diagnostics[0]?.message), /^CUDA_VISIBLE_DEVICES lists 8 GPUs for 4 processes per node \(ENV\.NPROC_PER_NODE in env4\.yaml\)/);
  assert.deepEqual(envProcesses.diagnostics[0].data && (envProcesses.diagnostics[0].data as { fixes: unknown[] }).fixes, [], 'no edit of another file');
});

test('swift sft config.yaml: the estimate takes its GPU count from ENV:, and a JSON config file reads the same', async () => {
  assert.match(String(await hint('swift sft env4.yaml\n')), /· Qwen3-8B · 4 GPUs · /);
  assert.match(String(await hint('NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 swift sft env4.yaml\n')), /· Qwen3-8B · 2 GPUs · /, 'the shell wins');
  assert.match(String(await hint('NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 swift sft sft.json\n')), /· Qwen3-8B · 2 GPUs · /);
});

test('a --deepspeed on the command line keeps what the config file says about the rest', async () => {
  // The model and max_length come from the YAML; the preset from the command line (argparse: last wins).
  const own = await hint('NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 swift sft sft.yaml --deepspeed zero3\n');
  assert.match(String(own), /· Qwen3-8B · 2 GPUs · /);
  // accelerate --config_file without DeepSpeed, and the HF Trainer's --deepspeed: the YAML's process count.
  const accelerate = await hint('accelerate launch --config_file multi_gpu.yaml --machine_rank 0 train.py --model_name_or_path Qwen/Qwen3-8B --deepspeed ../configs/ds_z2.json\n');
  assert.match(String(accelerate), /· Qwen3-8B · 8 GPUs \(2 nodes × 4\) · /);
});

test('a config’s training context from a script whose config file gives the rest (findLaunchReferences)', async () => {
  const { hosts } = service({
    ...files,
    'scripts/hf.sh': 'accelerate launch --config_file multi_gpu.yaml --machine_rank 0 train.py --model_name_or_path Qwen/Qwen3-8B --deepspeed ../configs/ds_z2.json\n',
  });
  const [found] = await createAnalyses(hosts).training.referencesTo(path.join(workspaceRoot, 'configs/ds_z2.json'));
  assert.deepEqual([found?.model?.value, found?.gpusPerNode?.value, found?.nodes?.value, found?.deepspeed?.via], ['Qwen/Qwen3-8B', 4, 2, '--deepspeed']);
});
