import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, scriptDocument } from './context-hosts';

// A fix that changes a flag's value must not write a literal over a shell variable (`--per_device_train_batch_size
// $BS`): where the script sets the variable to a literal, the fix edits that assignment; else there is no fix, and
// the message says the value comes from a variable.
const config = '{ "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": "auto", "zero_optimization": { "stage": 2 } }';

async function check(script: string, files: Record<string, string> = { 'ds_config.json': config }) {
  const ls = getLanguageService(memoryHosts({ ...files, 'train.sh': script }));
  const document = scriptDocument('train.sh', script);
  const diagnostics = await ls.doValidation(document, defaultSettings);
  const fixed = async (diagnostic: Diagnostic) => {
    const actions = await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic], only: ['quickfix'] }, defaultSettings);
    return actions.map((a) => ({ title: a.title, text: TextDocument.applyEdits(document, a.edit?.changes?.[document.uri] ?? []) }));
  };
  return { diagnostics, fixed };
}

// https://github.com/allenai/open-instruct/blob/1dfcbc9a8bdf6564a06d9441296bd318619cbd02/scripts/finetune_lora_with_accelerate.sh
// lines 3-5 and 28 (its accelerate launch of open_instruct/finetune.py run here by the HF Trainer's deepspeed launcher).
const openInstruct = (eol: string, value: string) =>
  [
    'MODEL_SIZE=7B',
    'NUM_GPUS=4',
    `BATCH_SIZE_PER_GPU=${value}`,
    'deepspeed --num_gpus $NUM_GPUS train.py \\',
    '    --deepspeed ds_config.json \\',
    '    --per_device_train_batch_size $BATCH_SIZE_PER_GPU \\',
    '    --output_dir output/lora_${MODEL_SIZE}',
    '',
  ].join(eol);

test('--per_device_train_batch_size $BATCH_SIZE_PER_GPU set to a literal in the script: the fix edits the assignment, keeping quotes and line ends', async () => {
  for (const [eol, value, expected] of [
    ['\n', '1', 'BATCH_SIZE_PER_GPU=2'],
    ['\r\n', '1', 'BATCH_SIZE_PER_GPU=2'],
    ['\n', '"1"', 'BATCH_SIZE_PER_GPU="2"'],
    ['\n', "'1'", "BATCH_SIZE_PER_GPU='2'"],
  ]) {
    const script = openInstruct(eol, value);
    const { diagnostics, fixed } = await check(script);
    const mismatch = diagnostics.find((d) => d.code === 'hf-trainer-config-mismatch');
    assert.ok(mismatch, diagnostics.map((d) => d.message).join('\n'));
    const fixes = await fixed(mismatch);
    assert.equal(fixes.length, 1, JSON.stringify(fixes.map((f) => f.title)));
    assert.equal(fixes[0].text, script.replace(`BATCH_SIZE_PER_GPU=${value}`, expected));
    assert.match(fixes[0].title, /BATCH_SIZE_PER_GPU/);
  }
});

// https://github.com/OpenGVLab/InternVL/blob/dc2bdc6861533ee138ffca4ded68c78558a3e85f/internvl_chat/shell/internvl2.5/2nd_finetune/internvl2_5_4b_dynamic_res_2nd_finetune_full.sh
// lines 3-5, 25-31, 49 and 67: the batch size comes from the environment, with a default.
const internVl = [
  'GPUS=${GPUS:-8}',
  'BATCH_SIZE=${BATCH_SIZE:-128}',
  'PER_DEVICE_BATCH_SIZE=${PER_DEVICE_BATCH_SIZE:-4}',
  'torchrun \\',
  '  --nnodes=1 \\',
  '  --nproc_per_node=${GPUS} \\',
  '  internvl/train/internvl_chat_finetune.py \\',
  '  --model_name_or_path "OpenGVLab/InternVL2_5-4B" \\',
  '  --per_device_train_batch_size ${PER_DEVICE_BATCH_SIZE} \\',
  '  --deepspeed "ds_config.json"',
  '',
].join('\n');

test('--per_device_train_batch_size ${PER_DEVICE_BATCH_SIZE} from the environment (InternVL): no fix, and the message says the value comes from the variable', async () => {
  const { diagnostics, fixed } = await check(internVl);
  const mismatch = diagnostics.find((d) => d.code === 'hf-trainer-config-mismatch');
  assert.ok(mismatch, diagnostics.map((d) => d.message).join('\n'));
  assert.deepEqual(await fixed(mismatch), []);
  assert.match(String(mismatch.message), /PER_DEVICE_BATCH_SIZE/);
});

test('--deepspeed $DS_CONFIG naming a missing file: "Change to" edits DS_CONFIG=, not the $DS_CONFIG word', async () => {
  const script = 'DS_CONFIG=ds_confg.json\ndeepspeed train.py --deepspeed $DS_CONFIG --per_device_train_batch_size 2\n';
  const { diagnostics, fixed } = await check(script);
  const missing = diagnostics.find((d) => d.code === 'deepspeed-config-not-found');
  assert.ok(missing, diagnostics.map((d) => d.message).join('\n'));
  const fixes = await fixed(missing);
  assert.ok(fixes.length > 0);
  assert.equal(fixes[0].text, script.replace('DS_CONFIG=ds_confg.json', 'DS_CONFIG=./ds_config.json'));
});

test('--torch_dtype $DTYPE and --gradient_checkpointing $GC: the fixes edit DTYPE= and GC=, or say where an unset value comes from', async () => {
  const dtype = 'DTYPE="bf16"\nswift sft --model Qwen/Qwen2.5-7B-Instruct --torch_dtype $DTYPE\n';
  const a = await check(dtype, {});
  const invalid = a.diagnostics.find((d) => d.code === 'invalid-torch-dtype')!;
  assert.deepEqual((await a.fixed(invalid)).map((f) => f.text), [dtype.replace('DTYPE="bf16"', 'DTYPE="bfloat16"')]);
  const fsdp = (assignment: string) =>
    `${assignment}torchrun --nproc_per_node 4 train.py --model_name_or_path meta-llama/Llama-2-7b-hf --fsdp "full_shard auto_wrap" --fsdp_config '{"activation_checkpointing": true}' --gradient_checkpointing $GC\n`;
  const b = await check(fsdp('GC=true\n'), {});
  const twice = b.diagnostics.find((d) => d.code === 'fsdp-activation-and-gradient-checkpointing')!;
  assert.deepEqual((await b.fixed(twice)).map((f) => [f.title, f.text]), [['Set GC=false', fsdp('GC=false\n')]]);
  // GC from the caller's environment with a default: no literal to edit, so no fix, and the message says why.
  const c = await check(fsdp('GC=${GC:-true}\n'), {});
  const unset = c.diagnostics.find((d) => d.code === 'fsdp-activation-and-gradient-checkpointing');
  assert.ok(unset, c.diagnostics.map((d) => d.message).join('\n'));
  assert.deepEqual(await c.fixed(unset), []);
  assert.match(String(unset.message), /It comes from \$GC/);
});
