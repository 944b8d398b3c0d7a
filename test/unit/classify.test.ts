import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { classifyDocument, launchFormat } from '../../server/src/classify';
import { defaultSettings, withDefaults } from '../../server/src/settings';

const doc = (path: string, languageId: string, text = '{}') => TextDocument.create(`file://${path}`, languageId, 1, text);

test('config files are claimed by conventional names', () => {
  for (const name of ['ds_config.json', 'ds_config_zero3.json', 'my_deepspeed.json', 'ds_z3_offload_config.json', 'zero2.json', 'DS_CONFIG.JSON']) {
    assert.equal(classifyDocument(doc(`/w/${name}`, 'json'), defaultSettings), 'ds-config', name);
  }
  assert.equal(classifyDocument(doc('/w/package.json', 'json'), defaultSettings), null);
});

test('the ds-config language id is always ours, whatever the name', () => {
  assert.equal(classifyDocument(doc('/w/anything.txt', 'ds-config'), defaultSettings), 'ds-config');
});

test('zeroLens.configFiles globs claim more files, bare patterns match in any folder', () => {
  const settings = withDefaults({ configFiles: ['train_cfg.json', 'configs/**/*.jsonc'] });
  assert.equal(classifyDocument(doc('/w/deep/train_cfg.json', 'json'), settings), 'ds-config');
  assert.equal(classifyDocument(doc('/w/configs/a/b.jsonc', 'jsonc'), withDefaults({ configFiles: ['**/configs/**/*.jsonc'] })), 'ds-config');
  assert.equal(classifyDocument(doc('/w/other.json', 'json'), settings), null);
});

test('a relative zeroLens.configFiles pattern with a folder matches that folder wherever it is; an absolute one the whole path', () => {
  // 'configs/**/*.jsonc' was matched against the absolute path, so it matched nothing, and said nothing.
  const settings = withDefaults({ configFiles: ['configs/**/*.jsonc', './runs/*.json', '/abs/only/*.json'] });
  assert.equal(classifyDocument(doc('/w/configs/a/b.jsonc', 'jsonc'), settings), 'ds-config');
  assert.equal(classifyDocument(doc('/w/project/runs/x.json', 'json'), settings), 'ds-config');
  assert.equal(classifyDocument(doc('/abs/only/y.json', 'json'), settings), 'ds-config');
  assert.equal(classifyDocument(doc('/w/abs/only/y.json', 'json'), settings), null, 'an absolute pattern stays anchored');
  assert.equal(classifyDocument(doc('/w/myconfigs/b.jsonc', 'jsonc'), settings), null, 'a folder name matches whole');
  assert.equal(classifyDocument(doc('/w/runs/deeper/x.json', 'json'), settings), null);
});

test('a JSON file with DeepSpeed top-level keys is claimed by content', () => {
  const text = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {"stage": 2}\n}';
  assert.equal(classifyDocument(doc('/w/run.json', 'json', text), defaultSettings), 'ds-config');
});

test('training-argument files that name a DeepSpeed config are launcher configs, not DeepSpeed configs', () => {
  // ms-swift's examples/yaml/deepspeed/sft.json (swift sft --config sft.json): shares gradient_accumulation_steps, names a preset.
  const swiftArgs = '{"model": "Qwen/Qwen2.5-7B-Instruct", "deepspeed": "zero2", "gradient_accumulation_steps": 8, "per_device_train_batch_size": 1}';
  assert.equal(classifyDocument(doc('/w/sft.json', 'json', swiftArgs), defaultSettings), 'launch-yaml');
  const hfArgs = '{"output_dir": "out", "train_batch_size": 8, "deepspeed": "ds_config.json"}';
  assert.equal(classifyDocument(doc('/w/args.json', 'json', hfArgs), defaultSettings), 'launch-yaml');
  // Arguments without DeepSpeed (LMFlow's train_7b_mono.json), a model config: nothing of ours.
  assert.equal(classifyDocument(doc('/w/train_7b_mono.json', 'json', '{"model_name_or_path": "x", "fp16": true, "gradient_accumulation_steps": 1}'), defaultSettings), null);
  assert.equal(classifyDocument(doc('/w/bert_large.json', 'json', '{"name": "bing_bert", "bert_model_config": {"hidden_size": 1024}}'), defaultSettings), null);
});

test('Slurm batch scripts and files with a shell shebang are launch scripts; a DeepSpeed config named .conf is a config', () => {
  assert.equal(classifyDocument(doc('/w/train.slurm', 'plaintext', '#!/bin/bash\n#SBATCH --nodes=16\nsrun deepspeed train.py'), defaultSettings), 'launch-script');
  assert.equal(classifyDocument(doc('/w/job', 'plaintext', '#!/usr/bin/env bash\ndeepspeed train.py'), defaultSettings), 'launch-script');
  assert.equal(classifyDocument(doc('/w/stage3.conf', 'plaintext', '{"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": "auto"}'), defaultSettings), 'ds-config');
  assert.equal(classifyDocument(doc('/w/notes.txt', 'plaintext', 'hello'), defaultSettings), null);
});

test('shell scripts are launch scripts; YAML only when it links DeepSpeed', () => {
  assert.equal(classifyDocument(doc('/w/train.sh', 'shellscript', 'swift sft'), defaultSettings), 'launch-script');
  assert.equal(classifyDocument(doc('/w/run.zsh', 'plaintext', 'echo'), defaultSettings), 'launch-script');
  // Neovim sends its filetype (a modeline makes any file `sh`), Helix `bash`: the name and text need not say so.
  for (const language of ['sh', 'bash', 'zsh']) {
    const script = doc('/w/launch_job', language, 'deepspeed --num_gpus 8 train.py --deepspeed ds_config.json');
    assert.equal(classifyDocument(script, defaultSettings), 'launch-script', language);
    assert.equal(launchFormat(script), 'shell', language);
  }
  assert.equal(classifyDocument(doc('/w/lf.yaml', 'yaml', 'model_name_or_path: x\ndeepspeed: examples/deepspeed/ds_z3_config.json\n'), defaultSettings), 'launch-yaml');
  assert.equal(classifyDocument(doc('/w/acc.yaml', 'yaml', 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\n'), defaultSettings), 'launch-yaml');
  assert.equal(classifyDocument(doc('/w/ci.yaml', 'yaml', 'jobs:\n  build: {}\n'), defaultSettings), null);
});
