import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Hosts } from '../../server/src/host';
import { createAnalyses } from '../../server/src/analyses';
import { service, workspaceRoot } from './launch-helpers';

const config = path.join(workspaceRoot, 'configs/ds_config_zero3.json');

/** The launches in the workspace that use a config, as the training layer finds them. */
function findLaunchReferences(hosts: Hosts, configPath: string) {
  return createAnalyses(hosts).training.referencesTo(configPath);
}

test('findLaunchReferences: scripts and YAML that name the config, by any route', async () => {
  const { hosts } = service({
    'configs/ds_config_zero3.json': '{}',
    'configs/other.json': '{}',
    // relative to the script's folder
    'scripts/a.sh': 'NPROC_PER_NODE=8 swift sft --model Qwen/Qwen3-8B --deepspeed ../configs/ds_config_zero3.json\n',
    // relative to the working directory (workspace folder), through a variable
    'scripts/b.sh': 'DS=configs/ds_config_zero3.json\ntorchrun --nproc_per_node 4 train.py --deepspeed $DS --per_device_train_batch_size 2\n',
    'scripts/c.sh': 'swift sft --deepspeed ../configs/other.json\nswift sft --deepspeed zero3\n',
    // accelerate config with deepspeed_config_file, used by a script through --config_file
    'accel/ds.yaml': 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: configs/ds_config_zero3.json\nnum_processes: 8\n',
    'scripts/d.sh': 'accelerate launch --config_file accel/ds.yaml --num_processes 2 train.py --model_name_or_path Qwen/Qwen3-8B\n',
    // LLaMA-Factory YAML, started by llamafactory-cli
    'lf/sft.yaml': 'model_name_or_path: Qwen/Qwen3-4B\nfinetuning_type: lora\ncutoff_len: 1024\ndeepspeed: configs/ds_config_zero3.json\n',
    'scripts/e.sh': 'CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train lf/sft.yaml\n',
  });
  const found = await findLaunchReferences(hosts, config);
  const rows = found.map((f) => `${path.relative(workspaceRoot, URI(f.uri))}:${f.chain.join('>')}:${f.model?.value ?? '-'}:${f.gpusPerNode?.value ?? '-'}`).sort();
  // The two YAMLs are not launches of their own here: d.sh and e.sh run them (with their own process counts).
  assert.deepEqual(rows, [
    'scripts/a.sh:swift:Qwen/Qwen3-8B:8',
    'scripts/b.sh:torchrun>python:-:4',
    'scripts/d.sh:accelerate>python>accelerate-yaml:Qwen/Qwen3-8B:2',
    'scripts/e.sh:llamafactory>llamafactory-yaml:Qwen/Qwen3-4B:2',
  ]);
  const b = found.find((f) => f.uri.endsWith('b.sh'))!;
  assert.equal(b.microBatch?.value, 2);
  const e = found.find((f) => f.uri.endsWith('e.sh'))!;
  assert.equal(e.seqLen?.value, 1024, 'YAML facts stay where the script says nothing');
  assert.equal(e.deepspeed?.span.uri.endsWith('sft.yaml'), true);
});

test('findLaunchReferences: nothing references an unrelated path; unreadable files are skipped', async () => {
  const { hosts } = service({ 'scripts/a.sh': 'swift sft --deepspeed zero2\n' });
  assert.deepEqual(await findLaunchReferences(hosts, config), []);
});

function URI(uri: string): string {
  return decodeURIComponent(uri.replace(/^file:\/\//, ''));
}
