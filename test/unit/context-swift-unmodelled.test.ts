import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, scriptDocument } from './context-hosts';
import { runCli } from './cli-helpers';

// ms-swift's --train_type (swift/arguments/base_args/base_args.py:28-30 at 3602360a) and --optimizer
// (swift/optimizers/mapping.py:9-16) name tuners and optimizers the estimate does not model: it counts full
// fine-tuning and the Trainer's AdamW instead, and its notes must say so and which way the numbers may be off.
async function notesOf(script: string, config = '{ "train_micro_batch_size_per_gpu": "auto", "zero_optimization": { "stage": 2 } }') {
  const ls = getLanguageService(memoryHosts({ 'ds_config.json': config, 'train.sh': script }));
  const found = await ls.getDocumentAnalysis(scriptDocument('train.sh', script), { ...defaultSettings, gpusPerNode: 4 });
  assert.ok(found?.analysis.input, 'an estimate');
  return found.analysis.notes;
}

const swift = (flags: string) => `NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct --deepspeed ds_config.json ${flags}\n`;

test('--train_type custom (ms-swift examples/train/multimodal/lora_llm_full_vit/sft.sh): the notes say it is estimated as full fine-tuning, likely too high', async () => {
  const notes = await notesOf(swift('--train_type custom --external_plugins custom_plugin.py'));
  const note = notes.find((n) => n.includes('--train_type custom'));
  assert.ok(note, notes.join('\n'));
  assert.match(note, /full fine-tuning/);
  assert.match(note, /too high/);
  for (const tuner of ['boft', 'reft', 'llamapro', 'adapter', 'fourierft', 'bone', 'ia3', 'dummy']) {
    assert.ok((await notesOf(swift(`--tuner_type ${tuner}`))).some((n) => n.includes(`--tuner_type ${tuner}`)), tuner);
  }
  // Modelled tuners say nothing of the kind.
  for (const tuner of ['lora', 'full']) assert.ok(!(await notesOf(swift(`--tuner_type ${tuner}`))).some((n) => n.includes('not modelled')), tuner);
});

test('--optimizer muon (ms-swift examples/train/optimizer/muon.sh), muonclip, galore: the notes say AdamW is counted, so it may be too high', async () => {
  for (const optimizer of ['muon', 'muonclip', 'galore']) {
    const notes = await notesOf(swift(`--optimizer ${optimizer}`));
    const note = notes.find((n) => n.includes(`--optimizer ${optimizer}`));
    assert.ok(note, `${optimizer}: ${notes.join('\n')}`);
    assert.match(note, /too high/);
  }
  // GaLore switched on by its own flag (swift/arguments/sft_args.py:213-217).
  assert.ok((await notesOf(swift('--use_galore true'))).some((n) => n.includes('--use_galore')));
  // An optimizer plugin of the user's own (--external_plugins): not modelled, either way.
  const own = (await notesOf(swift('--optimizer my_opt'))).find((n) => n.includes('--optimizer my_opt'));
  assert.match(String(own), /too high or too low/);
  // lorap, multimodal and default build the Trainer's own optimizer class (lorap.py:33-34, multimodal.py:73-74).
  for (const optimizer of ['lorap', 'multimodal', 'default']) assert.ok(!(await notesOf(swift(`--optimizer ${optimizer}`))).some((n) => n.includes('not modelled')), optimizer);
  // A DeepSpeed config with an optimizer block builds its own optimizer: the plugin does not run, nothing to say.
  const withBlock = '{ "train_micro_batch_size_per_gpu": "auto", "optimizer": { "type": "AdamW", "params": { "lr": "auto" } }, "zero_optimization": { "stage": 2 } }';
  assert.ok(!(await notesOf(swift('--optimizer muon'), withBlock)).some((n) => n.includes('--optimizer muon')));
});

test('zero-lens estimate prints the note on a script with --optimizer muon', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zl-swift-muon-'));
  writeFileSync(join(dir, 'ds_config.json'), '{ "train_micro_batch_size_per_gpu": "auto", "zero_optimization": { "stage": 2 } }');
  writeFileSync(join(dir, 'train.sh'), swift('--optimizer muon'));
  const run = await runCli(['estimate', 'train.sh'], dir);
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /--optimizer muon/);
});

test('the memory hover on the launch lists the note', async () => {
  const script = swift('--optimizer muon');
  const ls = getLanguageService(memoryHosts({ 'ds_config.json': '{ "train_micro_batch_size_per_gpu": "auto", "zero_optimization": { "stage": 2 } }', 'train.sh': script }));
  const document = scriptDocument('train.sh', script);
  const hover = await ls.doHover(document, document.positionAt(script.indexOf('ds_config.json') + 2), { ...defaultSettings, gpusPerNode: 4 });
  assert.match(JSON.stringify(hover?.contents), /--optimizer muon/);
});

test("zero-lens estimate --optimizer names what is counted: no note that the Trainer's states are counted instead", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zl-swift-cli-opt-'));
  writeFileSync(join(dir, 'ds_config.json'), '{ "train_micro_batch_size_per_gpu": "auto", "zero_optimization": { "stage": 2 } }');
  writeFileSync(join(dir, 'train.sh'), swift('--optimizer muon'));
  const run = await runCli(['estimate', 'train.sh', '--optimizer', 'muon', '--params', '7e9'], dir);
  assert.equal(run.code, 0, run.err);
  assert.doesNotMatch(run.out, /--optimizer muon \(train\.sh[^)]*\) is not modelled/);
  // Without the CLI's --optimizer the note stays.
  assert.match((await runCli(['estimate', 'train.sh', '--params', '7e9'], dir)).out, /--optimizer muon \(train\.sh[^)]*\) is not modelled/);
});

test('swift sft x.yaml with use_galore: true (ms-swift examples/train/optimizer galore, sft_args.py:213-217): the note names use_galore where the YAML writes it', async () => {
  const yaml = 'model: Qwen/Qwen2.5-7B-Instruct\ntrain_type: full\nuse_galore: true\ndeepspeed: ds_config.json\n';
  const script = 'NPROC_PER_NODE=4 swift sft sft.yaml\n';
  const ls = getLanguageService(memoryHosts({ 'ds_config.json': '{ "train_micro_batch_size_per_gpu": "auto", "zero_optimization": { "stage": 2 } }', 'sft.yaml': yaml, 'train.sh': script }));
  const found = await ls.getDocumentAnalysis(scriptDocument('train.sh', script), { ...defaultSettings, gpusPerNode: 4 });
  const note = found?.analysis.notes.find((n) => n.includes('use_galore'));
  assert.ok(note, found?.analysis.notes.join('\n'));
  assert.match(note, /sft\.yaml/);
  assert.match(note, /too high/);
  // optimizer: wins over use_galore, as on the command line.
  const both = getLanguageService(memoryHosts({ 'ds_config.json': '{ "train_micro_batch_size_per_gpu": "auto", "zero_optimization": { "stage": 2 } }', 'sft.yaml': yaml + 'optimizer: default\n', 'train.sh': script }));
  const notes = (await both.getDocumentAnalysis(scriptDocument('train.sh', script), { ...defaultSettings, gpusPerNode: 4 }))?.analysis.notes ?? [];
  assert.ok(!notes.some((n) => n.includes('not modelled')), notes.join('\n'));
});
