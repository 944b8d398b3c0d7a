import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, codes, doc, service, settings } from './launch-helpers';

/**
 * A DeepSpeed config without zero_optimization: accelerate's DeepSpeedPlugin raises for it (accelerate
 * utils/dataclasses.py:1276-1277), and every launch but a script's own deepspeed.initialize goes through it.
 */
const files = {
  'configs/no_zero.json': '{\n  "train_batch_size": 16\n}\n',
  'configs/zero2.json': '{ "zero_optimization": { "stage": 2 } }',
};

async function check(text: string, name = 'scripts/train.sh', extra: Record<string, string> = {}) {
  const { ls } = service({ ...files, ...extra });
  const document = doc(name, text);
  return { document, diagnostics: await ls.doValidation(document, settings()) };
}

test('launch side: an error at the value for ms-swift, the HF Trainer, LLaMA-Factory and accelerate deepspeed_config_file', async () => {
  for (const [text, reader] of [
    ['swift sft --model m --deepspeed ../configs/no_zero.json\n', /ms-swift hands it to accelerate through the Hugging Face Trainer/],
    [`swift sft --model m --deepspeed '{"train_batch_size": 16}'\n`, /The inline DeepSpeed config has no zero_optimization/],
    ['deepspeed train.py --output_dir out --deepspeed ../configs/no_zero.json\n', /the Hugging Face Trainer hands it to accelerate/],
    ['torchrun --nproc_per_node 2 train.py --per_device_train_batch_size 2 --deepspeed ../configs/no_zero.json\n', /the Hugging Face Trainer/],
    ['accelerate launch --deepspeed_config_file ../configs/no_zero.json train.py\n', /accelerate launch hands it to accelerate through deepspeed_config_file/],
    ['llamafactory-cli train --model_name_or_path m --deepspeed ../configs/no_zero.json\n', /LLaMA-Factory hands it/],
  ] as const) {
    const { document, diagnostics } = await check(text);
    assert.deepEqual(codes(diagnostics), ['zero-optimization-required'], text);
    const d = diagnostics[0];
    assert.equal(d.severity, 1);
    assert.match(String(d.message), reader);
    assert.match(String(d.message), /"Please specify the ZeRO optimization config in the DeepSpeed config\." \(accelerate utils\/dataclasses\.py:1276-1277\)/);
    const value = document.getText().slice(document.offsetAt(d.range.start), document.offsetAt(d.range.end));
    assert.match(value, /no_zero\.json|train_batch_size/, 'at the value');
  }
});

test('launch side: silent for deepspeed.initialize (--deepspeed_config), presets, a config with the section, autotp, --autotuning, the teacher', async () => {
  for (const text of [
    'deepspeed train.py --deepspeed --deepspeed_config ../configs/no_zero.json\n',
    'deepspeed train.py --deepspeed_config ../configs/no_zero.json\n',
    'swift sft --model m --deepspeed zero0\n',
    'swift sft --model m --deepspeed ../configs/zero2.json\n',
    'python train.py --deepspeed "$DS"\n',
    // No flag of the Trainer's: who reads --deepspeed is unknown (LMFlow's chatbot.py hands it to deepspeed.initialize).
    'python chatbot.py --model_name_or_path m --max_new_tokens 256 --deepspeed ../configs/no_zero.json\n',
    // ms-swift adds zero_optimization itself for AutoTP (swift/arguments/sft_args.py:275-279).
    'swift sft --model m --tuner_type full --deepspeed ../configs/no_zero.json --deepspeed_autotp_size 2\n',
    // The autotuner writes its own ZeRO section into each experiment it starts (autotuning/autotuner.py).
    'deepspeed --autotuning run train.py --deepspeed ../configs/no_zero.json\n',
  ]) {
    assert.deepEqual(codes((await check(text)).diagnostics), [], text);
  }
  // The teacher keeps its own code (8aabebe), with the same cause.
  const teacher = await check('swift rlhf --rlhf_type gkd --model m --teacher_model t --deepspeed zero3 --teacher_deepspeed ../configs/no_zero.json\n');
  assert.deepEqual(codes(teacher.diagnostics), ['teacher-deepspeed-without-stage']);
  assert.match(String(teacher.diagnostics[0].message), /accelerate utils\/dataclasses\.py:1276-1277/);
});

test('YAML: ms-swift deepspeed:, LLaMA-Factory deepspeed:, accelerate deepspeed_config_file', async () => {
  for (const [name, text] of [
    ['scripts/sft.yaml', 'model: m\ntuner_type: lora\ndeepspeed: ../configs/no_zero.json\n'],
    ['scripts/lf.yaml', 'model_name_or_path: m\nstage: sft\ndeepspeed: ../configs/no_zero.json\n'],
    ['scripts/acc.yaml', 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ../configs/no_zero.json\n'],
  ]) {
    const { diagnostics } = await check(text, name);
    assert.deepEqual(codes(diagnostics), ['zero-optimization-required'], name);
    assert.equal(diagnostics[0].range.start.line, text.split('\n').findIndex((l) => l.includes('no_zero')), name);
  }
  assert.deepEqual(codes((await check('model: m\ndeepspeed: ../configs/no_zero.json\ndeepspeed_autotp_size: 2\n', 'scripts/sft.yaml')).diagnostics), []);
});

test('ds_config side: an error naming the script and line when a launch through the plugin uses it; a fix that adds stage 0', async () => {
  const text = '{\n  // batch\n  "train_batch_size": 16,\n  "bf16": { "enabled": true }\n}\n';
  const scripts = {
    'configs/no_zero.json': text,
    'scripts/a.sh': '# plain DeepSpeed: stage 0 without complaint\ndeepspeed train.py --deepspeed_config ../configs/no_zero.json\n',
    'scripts/b.sh': '\n\nNPROC_PER_NODE=2 swift sft --model m --deepspeed ../configs/no_zero.json\n',
  };
  const { ls } = service(scripts);
  const config = doc('configs/no_zero.json', text, 'json');
  const diagnostics = (await ls.doValidation(config, settings())).filter((d) => d.code === 'zero-optimization-required');
  assert.equal(diagnostics.length, 1);
  const d = diagnostics[0];
  assert.equal(d.severity, 1);
  assert.deepEqual(d.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 20 } }, 'the first key');
  assert.match(String(d.message), /b\.sh line 3 trains with it: ms-swift hands it to accelerate .*dataclasses\.py:1276-1277/);
  const actions = await ls.getCodeActions(config, d.range, { diagnostics: [d] }, settings());
  const add = actions.find((a) => a.title === 'Add "zero_optimization": { "stage": 0 }');
  assert.ok(add, actions.map((a) => a.title).join(' | '));
  assert.equal(add.isPreferred, true);
  const edits = (add.edit?.changes?.[config.uri] ?? []) as Parameters<typeof applyEdits>[1];
  assert.equal(applyEdits(config, edits), '{\n  // batch\n  "train_batch_size": 16,\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 0\n  }\n}\n');

  // Only deepspeed.initialize uses it, or nothing does: nothing to say.
  const plain = service({ ...scripts, 'scripts/b.sh': '' });
  assert.deepEqual((await plain.ls.doValidation(config, settings())).filter((x) => x.code === 'zero-optimization-required'), []);
  const empty = await service({ 'configs/ds_config_e.json': '{}', 'scripts/c.sh': 'python train.py --output_dir out --deepspeed ../configs/ds_config_e.json\n' }).ls.doValidation(doc('configs/ds_config_e.json', '{}', 'json'), settings());
  assert.deepEqual(empty.filter((x) => x.code === 'zero-optimization-required').map((x) => x.range.end.character), [1], 'an empty object: at its {');
});

test('ds_config side: a script whose consumer is unknown (no flag of the Trainer\'s) claims nothing either way', async () => {
  const text = '{ "train_micro_batch_size_per_gpu": "auto", "bf16": { "enabled": true } }\n';
  const codesWith = async (script: string) => {
    const { ls } = service({ 'configs/x.json': text, 'scripts/run.sh': script });
    return codes(await ls.doValidation(doc('configs/x.json', text, 'json'), settings())).filter((c) => c === 'auto-not-filled' || c === 'zero-optimization-required');
  };
  assert.deepEqual(await codesWith('python chatbot.py --model_name_or_path m --deepspeed ../configs/x.json\n'), []);
  assert.deepEqual(await codesWith('deepspeed chat.py --deepspeed_config ../configs/x.json\n'), ['auto-not-filled'], 'plain deepspeed.initialize');
  assert.deepEqual(await codesWith('python train.py --output_dir out --deepspeed ../configs/x.json\n'), ['zero-optimization-required'], 'the HF Trainer');
});
