import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { URI } from 'vscode-uri';
import type { MarkupContent } from 'vscode-languageserver-types';
import { currentOption as currentStageOption } from '../../server/src/training/analyze';
import { parsedPreset, swiftPresets } from '../../server/src/launch/swiftPresets';
import { extractLaunchFacts } from '../../server/src/launch';
import { factSource } from '../../server/src/training/context';
import { describeSource } from '../../server/src/protocol';
import { doc, service, settings, workspaceRoot } from './launch-helpers';

const files = {
  'configs/ds_config_zero2.json': '{ "zero_optimization": { "stage": 2 } }',
  'configs/ds_config_zero3_offload.json': '{ "zero_optimization": { "stage": 3, "offload_optimizer": { "device": "cpu" }, "offload_param": { "device": "cpu" } } }',
  'package.json': '{}',
};
const script = [
  'NPROC_PER_NODE=4 \\',
  'CUDA_VISIBLE_DEVICES=0,1,2,3 \\',
  'swift sft \\',
  '    --model Qwen/Qwen3-8B \\',
  '    --tuner_type full \\',
  '    --torch_dtype bfloat16 \\',
  '    --max_length 4096 \\',
  '    --deepspeed zero2',
  '',
].join('\n');
const at = (line: number, character: number) => ({ line, character });

test('completion after `--deepspeed `: six presets with a summary and this command\'s estimate, then workspace configs', async () => {
  const { ls } = service(files);
  const document = doc('scripts/train.sh', script.replace('--deepspeed zero2', '--deepspeed '));
  const list = await ls.doComplete(document, at(7, 16), settings());
  const labels = list.items.map((i) => i.label);
  assert.deepEqual(labels, ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload', '../configs/ds_config_zero2.json', '../configs/ds_config_zero3_offload.json']);
  const zero3 = list.items[4];
  assert.match(String(zero3.detail), /^≈ \d+\.\d GiB\/GPU · ZeRO-3: weights, gradients and optimizer states sharded\.$/);
  assert.deepEqual(zero3.textEdit && 'range' in zero3.textEdit ? zero3.textEdit.range : undefined, { start: at(7, 16), end: at(7, 16) });
});

test('completion replaces a partly typed value; other flags complete their values; flags complete by prefix', async () => {
  const { ls } = service(files);
  const partial = await ls.doComplete(doc('scripts/t.sh', 'swift sft --deepspeed zer'), at(0, 25), settings());
  const item = partial.items.find((i) => i.label === 'zero3')!;
  assert.deepEqual(item.textEdit && 'range' in item.textEdit ? item.textEdit.range : undefined, { start: at(0, 22), end: at(0, 25) });
  const dtype = await ls.doComplete(doc('scripts/t.sh', 'swift sft --torch_dtype '), at(0, 24), settings());
  assert.deepEqual(dtype.items.map((i) => i.label), ['bfloat16', 'float16', 'float32']);
  const stage = await ls.doComplete(doc('scripts/t.sh', 'accelerate launch --use_deepspeed --zero_stage= t.py'), at(0, 47), settings());
  assert.deepEqual(stage.items.map((i) => i.label), ['0', '1', '2', '3']);
  const hf = await ls.doComplete(doc('scripts/t.sh', 'torchrun --nproc_per_node 2 train.py --deepspeed '), at(0, 49), settings());
  assert.deepEqual(hf.items.map((i) => i.label), ['../configs/ds_config_zero2.json', '../configs/ds_config_zero3_offload.json'], 'no presets for HF scripts');
  const flags = await ls.doComplete(doc('scripts/t.sh', 'deepspeed --inc'), at(0, 15), settings());
  assert.ok(flags.items.some((i) => i.label === '--include'));
  const yaml = await ls.doComplete(doc('a.yaml', 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  offload_param_device: '), at(2, 24), settings());
  assert.deepEqual(yaml.items.map((i) => i.label), ['none', 'cpu', 'nvme']);
});

test('a config path typed from the workspace root completes from the root; one typed from here (or nothing yet) from the file', async () => {
  const { ls } = service(files);
  const labels = async (text: string, character: number) => (await ls.doComplete(doc('examples/train/t.yaml', text), at(0, character), settings())).items.map((i) => i.label);
  // LLaMA-Factory runs from the repository root: `deepspeed: examples/deepspeed/…` (the editor filters by what was typed).
  assert.deepEqual(await labels('deepspeed: con', 14), ['configs/ds_config_zero2.json', 'configs/ds_config_zero3_offload.json']);
  assert.deepEqual(await labels('deepspeed: ', 11), ['../../configs/ds_config_zero2.json', '../../configs/ds_config_zero3_offload.json']);
  assert.deepEqual(await labels('deepspeed: ../', 14), ['../../configs/ds_config_zero2.json', '../../configs/ds_config_zero3_offload.json']);
  const script = await ls.doComplete(doc('scripts/t.sh', 'torchrun train.py --deepspeed "configs/'), at(0, 38), settings());
  assert.deepEqual(script.items.map((i) => i.label), ['configs/ds_config_zero2.json', 'configs/ds_config_zero3_offload.json']);
});

test('completion in a quoted value replaces what is between the quotes and keeps them', async () => {
  const { ls } = service(files);
  let version = 0;
  const range = async (text: string) => {
    const list = await ls.doComplete(doc('scripts/t.sh', text.replace('|', ''), 'shellscript', ++version), at(0, text.indexOf('|')), settings());
    const edit = list.items[0]?.textEdit;
    return edit && 'range' in edit ? [edit.range.start.character, edit.range.end.character] : undefined;
  };
  // The editor filters the items by the text from the range's start to the cursor: from the quote on, none matches.
  assert.deepEqual(await range('swift sft --deepspeed "ze|"'), [23, 25]);
  assert.deepEqual(await range("swift sft --deepspeed 'ze|'"), [23, 25]);
  assert.deepEqual(await range('swift sft --deepspeed "|"'), [23, 23]);
  assert.deepEqual(await range('swift sft --deepspeed="|'), [23, 23], 'a quote not closed yet');
  assert.deepEqual(await range('swift sft --torch_dtype "bf|16"'), [25, 29]);
  assert.deepEqual(await range('swift sft --deepspeed "$X"_|x'), [22, 28], 'not one quoted string: the whole word');
});

test('hover on a preset: its contents from ms-swift and the memory table for this command', async () => {
  const { ls } = service(files);
  const hover = await ls.doHover(doc('scripts/train.sh', script), at(7, 18), settings({ gpuMemoryGiB: 80 }));
  const value = (hover!.contents as MarkupContent).value;
  assert.match(value, /ms-swift preset `zero2`/);
  assert.match(value, /"allgather_bucket_size": 2e8/, 'the exact preset JSON');
  assert.match(value, /ZeRO options for Qwen3-8B\*\* on 4 GPUs/);
  assert.match(value, /▶ \| \*\*ZeRO-2\*\*/);
  assert.match(value, /sequence 4096 _\(train\.sh line 7\)_/);
  // One line on the preset, its details folded, then what it costs: a tall hover shows its top and scrolls.
  const folded = value.indexOf('<details><summary>What the preset sets, and its JSON (swift/config/zero2.json)</summary>');
  assert.ok(folded > 0 && folded < value.indexOf('| stage |') && value.indexOf('</details>') < value.indexOf('ZeRO options for'), value);
  assert.deepEqual(hover!.range, { start: at(7, 16), end: at(7, 21) });
});

test('the six ms-swift presets: byte-identical to ms-swift\'s files, described by their index entry, shown whole in the hover', async () => {
  const { ls } = service(files);
  for (const [name, preset] of Object.entries(swiftPresets)) {
    assert.equal(preset.json, readFileSync(path.resolve(__dirname, `../fixtures/presets/swift-${name}.json`), 'utf8'), name);
    assert.deepEqual(currentStageOption(parsedPreset(preset.name)), { stage: preset.stage, offloadOptimizer: preset.offloadOptimizer, offloadParam: preset.offloadParam }, name);
    const hover = await ls.doHover(doc('scripts/t.sh', `swift sft --deepspeed ${name}`), at(0, 23), settings());
    assert.ok((hover!.contents as MarkupContent).value.includes('```json\n' + preset.json.trimEnd() + '\n```'), name);
  }
});

test('hover on a flag name explains it', async () => {
  const { ls } = service(files);
  const hover = await ls.doHover(doc('scripts/t.sh', 'deepspeed --num_gpus 2 train.py'), at(0, 13), settings());
  assert.match((hover!.contents as MarkupContent).value, /\*\*--num_gpus\*\* \(deepspeed launcher\)/);
  assert.equal(await ls.doHover(doc('scripts/t.sh', 'echo hello'), at(0, 2), settings()), null);
});

test('inlay hint after the --deepspeed value with the per-GPU estimate', async () => {
  const { ls } = service(files);
  const hints = await ls.getInlayHints(doc('scripts/train.sh', script), { start: at(0, 0), end: at(9, 0) }, settings());
  assert.equal(hints.length, 1);
  assert.match(String(hints[0].label), /^≈ \d+\.\d GiB\/GPU · Qwen3-8B · 4 GPUs · \d+\.\d allocated, [a-z +()]+$/);
  assert.deepEqual(hints[0].position, at(7, 21));
  const none = await ls.getInlayHints(doc('scripts/t.sh', 'swift sft --deepspeed zero2'), { start: at(0, 0), end: at(1, 0) }, settings());
  assert.deepEqual(none, [], 'no model: no invented numbers');
  const accelerate = await ls.getInlayHints(doc('scripts/a.sh', 'accelerate launch --num_processes 8 --use_deepspeed --zero_stage 3 train.py --model_name_or_path Qwen/Qwen3-8B'), { start: at(0, 0), end: at(1, 0) }, settings());
  assert.match(String(accelerate[0]?.label), /· Qwen3-8B · 8 GPUs · /);
});

test('one process when the command says so: torchrun without --nproc_per_node, ms-swift with one visible GPU', async () => {
  const { ls } = service(files);
  const label = async (text: string) => (await ls.getInlayHints(doc('scripts/one.sh', text), { start: at(0, 0), end: at(2, 0) }, settings({ gpusPerNode: 8 })))[0]?.label;
  // torchrun's --nproc-per-node defaults to 1; the zeroLens.gpusPerNode setting does not override the command.
  assert.match(String(await label('torchrun train.py --model_name_or_path Qwen/Qwen3-8B --deepspeed ../configs/ds_config_zero2.json\n')), /· Qwen3-8B · 1 GPU · /);
  assert.match(String(await label('PET_NPROC_PER_NODE=4 torchrun train.py --model_name_or_path Qwen/Qwen3-8B --deepspeed ../configs/ds_config_zero2.json\n')), /· 4 GPUs · /);
  const [torchrun] = extractLaunchFacts(doc('scripts/one.sh', 'torchrun train.py --deepspeed ds.json\n'), [workspaceRoot]);
  assert.equal(describeSource(factSource(torchrun, torchrun.gpusPerNode!)), 'torchrun default (one.sh)');
  // ms-swift without NPROC_PER_NODE runs one process; with one visible GPU that is the run.
  assert.match(String(await label('CUDA_VISIBLE_DEVICES=0 swift sft --model Qwen/Qwen3-8B --deepspeed zero2\n')), /· Qwen3-8B · 1 GPU · /);
  assert.match(String(await label('swift sft --model Qwen/Qwen3-8B --deepspeed zero2\n')), /· 8 GPUs · /, 'nothing in the script: the setting');
});

test('a model folder changed on disk shows in launch estimates after invalidateWorkspace, not before', async () => {
  const model = (layers: number) => JSON.stringify({ model_type: 'llama', hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: layers, num_attention_heads: 32, num_key_value_heads: 32, vocab_size: 32000 });
  const { ls, hosts } = service({ ...files, 'models/local/config.json': model(32) });
  const document = doc('scripts/train.sh', script.replace('--model Qwen/Qwen3-8B', '--model ../models/local'));
  const label = async () => String((await ls.getInlayHints(document, { start: at(0, 0), end: at(9, 0) }, settings()))[0]?.label);
  const before = await label();
  assert.match(before, /^≈ \d+\.\d GiB\/GPU · local · 4 GPUs · \d+\.\d allocated, [a-z +()]+$/);
  hosts.write('models/local/config.json', model(64));
  assert.equal(await label(), before, 'model sizes are cached between keystrokes');
  ls.invalidateWorkspace();
  const after = await label();
  assert.match(after, /^≈ \d+\.\d GiB\/GPU · local · 4 GPUs · \d+\.\d allocated, [a-z +()]+$/);
  assert.ok(parseFloat(after.slice(2)) > parseFloat(before.slice(2)), `twice the layers weigh more: ${before} → ${after}`);
});

test('"Switch to zero3 / zero3_offload (≈ X GiB/GPU)" code actions on the --deepspeed value', async () => {
  const { ls } = service(files);
  const document = doc('scripts/train.sh', script);
  const actions = await ls.getCodeActions(document, { start: at(7, 17), end: at(7, 17) }, { diagnostics: [] }, settings());
  assert.deepEqual(actions.map((a) => a.title.replace(/\d+\.\d/, 'N')), ['Switch to zero3 (≈ N GiB/GPU)', 'Switch to zero3_offload (≈ N GiB/GPU)']);
  const edit = actions[0].edit!.changes![document.uri][0];
  assert.deepEqual(edit, { range: { start: at(7, 16), end: at(7, 21) }, newText: 'zero3' });
});

test('document links and go to definition from a JSON path to the file', async () => {
  const { ls } = service(files);
  const document = doc('scripts/t.sh', 'swift sft --deepspeed ../configs/ds_config_zero2.json --model m\nswift sft --deepspeed ../configs/missing.json');
  const target = URI.file(path.join(workspaceRoot, 'configs/ds_config_zero2.json')).toString();
  const links = await ls.getDocumentLinks(document, settings());
  assert.deepEqual(links.map((l) => [l.target, l.range.start.character, l.range.end.character]), [[target, 22, 53]]);
  const definition = await ls.getDefinition(document, at(0, 30), settings());
  assert.deepEqual(definition.map((l) => l.uri), [target]);
  assert.deepEqual(await ls.getDefinition(document, at(0, 3), settings()), []);
});

test('accelerate --config_file: the estimate comes from the YAML\'s DeepSpeed settings and sits on the file argument', async () => {
  const { ls } = service({
    ...files,
    'accel/ds3.yaml': 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  offload_optimizer_device: cpu\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 8\n',
  });
  const document = doc('scripts/a.sh', 'accelerate launch --config_file accel/ds3.yaml --use_deepspeed train.py --model_name_or_path Qwen/Qwen3-8B\n');
  const hints = await ls.getInlayHints(document, { start: at(0, 0), end: at(1, 0) }, settings());
  assert.equal(hints.length, 1);
  assert.match(String(hints[0].label), /· Qwen3-8B · 8 GPUs · /);
  assert.deepEqual(hints[0].position, at(0, 46));
  const hover = await ls.doHover(document, at(0, 35), settings());
  const value = (hover!.contents as MarkupContent).value;
  assert.match(value, /DeepSpeed via zero_stage\*\*: ZeRO-3, optimizer offload cpu/);
  assert.match(value, /from ds3\.yaml/);
  assert.match(value, /▶ \| \*\*ZeRO-3 \+ CPU offload \(optimizer\)\*\*/);
});

test('YAML: hover on accelerate and LLaMA-Factory keys; ms-swift YAML completes presets for deepspeed:', async () => {
  const { ls } = service(files);
  const accel = await ls.doHover(doc('a.yaml', 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero3_init_flag: true\n'), at(2, 5), settings());
  assert.match((accel!.contents as MarkupContent).value, /^\*\*zero3_init_flag\*\*\n\nBuild the model directly partitioned/);
  const lf = await ls.doHover(doc('lf.yaml', 'finetuning_type: lora\ncutoff_len: 1024\ndeepspeed: ds.json\n'), at(1, 3), settings());
  assert.match((lf!.contents as MarkupContent).value, /max_length/);
  const swift = await ls.doComplete(doc('s.yaml', 'model: Qwen/Qwen3-8B\ntuner_type: lora\ndeepspeed: '), at(2, 11), settings());
  assert.deepEqual(swift.items.slice(0, 6).map((i) => i.label), ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload']);
  const lfc = await ls.doComplete(doc('lf2.yaml', 'finetuning_type: lora\ndeepspeed: '), at(1, 11), settings());
  assert.ok(!lfc.items.some((i) => i.label === 'zero3'), 'no presets for LLaMA-Factory');
});
