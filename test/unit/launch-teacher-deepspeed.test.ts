import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { URI } from 'vscode-uri';
import type { MarkupContent } from 'vscode-languageserver-types';
import { extractLaunchFacts } from '../../server/src/launch';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

/**
 * ms-swift's --teacher_deepspeed (swift rlhf, GKD and GRPO on-policy distillation): the same values as
 * --deepspeed (rlhf_args.py:726-746), with ms-swift's rules for when and how the teacher uses it.
 */
const files = {
  'configs/ds_config_zero2.json': '{ "zero_optimization": { "stage": 2 } }',
  'configs/teacher_z3.json': '{ "zero_optimization": { "stage": 3, "offload_param": { "device": "cpu" } } }',
  'configs/no_zero.json': '{ "bf16": { "enabled": true } }',
  'package.json': '{}',
};
const at = (line: number, character: number) => ({ line, character });

/** A GKD command that uses the teacher (examples/train/rlhf/gkd/multi_turn.sh, shortened). */
function gkd(teacher: string, extra = ''): string {
  return [
    'NPROC_PER_NODE=4 \\',
    'swift rlhf \\',
    '    --rlhf_type gkd \\',
    '    --model Qwen/Qwen3-8B \\',
    '    --teacher_model Qwen/Qwen3-32B \\',
    '    --tuner_type full \\',
    '    --deepspeed zero3 \\',
    `    --teacher_deepspeed ${teacher}${extra}`,
    '',
  ].join('\n');
}

async function check(text: string, name = 'scripts/gkd.sh', extraFiles: Record<string, string> = {}) {
  const { ls } = service({ ...files, ...extraFiles });
  const document = doc(name, text);
  return { document, diagnostics: await ls.doValidation(document, settings()) };
}

test('values are checked like --deepspeed: preset did-you-mean, missing file, inline JSON', async () => {
  assert.deepEqual(codes((await check(gkd('zero3'))).diagnostics), []);
  assert.deepEqual(codes((await check(gkd('zero3_offload'))).diagnostics), []);
  assert.deepEqual(codes((await check(gkd('../configs/teacher_z3.json'))).diagnostics), []);
  const typo = await check(gkd('zero3-offload'));
  assert.deepEqual(codes(typo.diagnostics), ['unknown-deepspeed-preset']);
  assert.match(String(typo.diagnostics[0].message), /Did you mean 'zero3_offload'/);
  assert.equal(fixed(typo.document, typo.diagnostics, 'unknown-deepspeed-preset'), gkd('zero3_offload'));
  const missing = await check(gkd('../configs/teacher_z4.json'));
  assert.deepEqual(codes(missing.diagnostics), ['deepspeed-config-not-found']);
  assert.match(String(missing.diagnostics[0].message), /Did you mean '\.\.\/configs\/teacher_z3\.json'/);
  assert.deepEqual(codes((await check(gkd(`'{"zero_optimization": {'`))).diagnostics), ['invalid-inline-deepspeed-json']);
  assert.deepEqual(codes((await check(gkd(`'{"zero_optimization": {"stage": 3}}'`))).diagnostics), []);
  const repaired = await check(gkd(`'{"zero_optimization": {"stage": 3},}'`));
  assert.deepEqual(codes(repaired.diagnostics), ['inline-deepspeed-json-repaired']);
  assert.equal(fixed(repaired.document, repaired.diagnostics, 'inline-deepspeed-json-repaired'), gkd(`'{"zero_optimization": {"stage": 3}}'`));
  assert.deepEqual(codes((await check(gkd('"$TEACHER_DS"'))).diagnostics), [], 'unknown variables are not guessed at');
});

test('only swift rlhf takes it: sft and megatron stop with remaining_argv', async () => {
  const sft = await check('swift sft --model m --deepspeed zero2 --teacher_deepspeed zero3\n');
  assert.deepEqual(codes(sft.diagnostics), ['deepspeed-unsupported-subcommand']);
  assert.match(String(sft.diagnostics[0].message), /'swift sft' does not take --teacher_deepspeed: only rlhf accepts it/);
  assert.equal(fixed(sft.document, sft.diagnostics, 'deepspeed-unsupported-subcommand'), 'swift sft --model m --deepspeed zero2\n');
  const megatron = await check('megatron rlhf --rlhf_type gkd --teacher_deepspeed zero3\n');
  assert.match(String(megatron.diagnostics.find((d) => d.code === 'deepspeed-unsupported-subcommand')!.message), /Megatron-SWIFT has no --teacher_deepspeed/);
  const infer = await check('swift infer --model m --deepspeed zero3\n');
  assert.match(String(infer.diagnostics[0].message), /only sft, pt and rlhf accept it/, 'the --deepspeed message is unchanged');
});

test('unused teacher config: other rlhf types, no local teacher, LoRA self-distillation, no --deepspeed', async () => {
  const unused = async (text: string, why: RegExp) => {
    const { document, diagnostics } = await check(text);
    assert.deepEqual(codes(diagnostics), ['teacher-deepspeed-unused'], text);
    assert.match(String(diagnostics[0].message), why);
    return { document, diagnostics };
  };
  const dpo = await unused('swift rlhf --model m --deepspeed zero3 --teacher_deepspeed zero3\n', /rlhf\.py:127-128\); here rlhf_type is dpo by default/);
  assert.equal(fixed(dpo.document, dpo.diagnostics, 'teacher-deepspeed-unused'), 'swift rlhf --model m --deepspeed zero3\n');
  await unused('swift rlhf --rlhf_type kto --model m --teacher_model t --deepspeed zero3 --teacher_deepspeed zero3\n', /here rlhf_type is kto,/);
  await unused('swift rlhf --rlhf_type gkd --model m --deepspeed zero3 --teacher_deepspeed zero3\n', /Without --teacher_model, gkd distils from the student itself/);
  await unused('swift rlhf --rlhf_type gkd --model m --teacher_model_server http://localhost:8000 --deepspeed zero3 --teacher_deepspeed zero3\n', /--teacher_model_server/);
  await unused('swift rlhf --rlhf_type gkd --model m --teacher_model m --deepspeed zero3 --teacher_deepspeed zero3\n', /disable_adapter\(\)/);
  await unused(gkd('zero3').replace('    --deepspeed zero3 \\\n', ''), /only when the trained model runs under DeepSpeed/);
  // Used: GRPO with a local teacher (on-policy distillation), full training on the same model (a frozen copy).
  assert.deepEqual(codes((await check('swift rlhf --rlhf_type grpo --model m --teacher_model t --deepspeed zero2 --teacher_deepspeed zero3\n')).diagnostics), []);
  assert.deepEqual(codes((await check('swift rlhf --rlhf_type gkd --tuner_type full --model m --teacher_model m --deepspeed zero3 --teacher_deepspeed zero3\n')).diagnostics), []);
  // Not known from the command line: the config file or a variable may say otherwise.
  assert.deepEqual(codes((await check('swift rlhf gkd.yaml --teacher_deepspeed zero3\n', 'scripts/gkd.sh', { 'scripts/gkd.yaml': 'model: m\n' })).diagnostics), []);
  assert.deepEqual(codes((await check('swift rlhf --rlhf_type "$TYPE" --model m --deepspeed zero3 --teacher_deepspeed zero3\n')).diagnostics), []);
  assert.deepEqual(codes((await check('swift rlhf gkd.yaml --rlhf_type gkd --teacher_model t --teacher_deepspeed zero3\n', 'scripts/gkd.sh', { 'scripts/gkd.yaml': 'model: m\ndeepspeed: zero3\n' })).diagnostics), [], '--deepspeed from the config file');
});

test('a teacher config below ZeRO-3 runs at stage 0, whole on every GPU; one without a stage fails', async () => {
  const z2 = await check(gkd('zero2_offload'));
  assert.deepEqual(codes(z2.diagnostics), ['teacher-deepspeed-not-zero3']);
  assert.equal(z2.diagnostics[0].severity, 3, 'information');
  assert.match(String(z2.diagnostics[0].message), /ZeRO stage 2, not 3: .*rlhf\.py:89-90.*utils\.py:360-361/);
  assert.equal(fixed(z2.document, z2.diagnostics, 'teacher-deepspeed-not-zero3'), gkd('zero3'));
  assert.equal(fixed(z2.document, z2.diagnostics, 'teacher-deepspeed-not-zero3', "Change to 'zero3_offload'"), gkd('zero3_offload'));
  const file = await check(gkd('../configs/ds_config_zero2.json'));
  assert.deepEqual(codes(file.diagnostics), ['teacher-deepspeed-not-zero3']);
  assert.deepEqual((file.diagnostics[0].data as { fixes: unknown[] }).fixes, [], 'no fix for a file');
  assert.match(String((await check(gkd(`'{"zero_optimization": {"stage": "3"}}'`))).diagnostics[0].message), /stage "3", not 3/);
  const none = await check(gkd('../configs/no_zero.json'));
  assert.deepEqual(codes(none.diagnostics), ['teacher-deepspeed-without-stage']);
  assert.match(String(none.diagnostics[0].message), /Please specify the ZeRO optimization config/);
  assert.match(String((await check(gkd(`'{"zero_optimization": {}}'`))).diagnostics[0].message), /KeyError/);
});

test('the teacher config decides only the teacher\'s share of the estimate: whole below ZeRO-3, sharded at ZeRO-3, off the GPU offloaded', async () => {
  const { ls } = service(files);
  const range = { start: at(0, 0), end: at(9, 0) };
  const hints = async (text: string) => (await ls.getInlayHints(doc('scripts/gkd.sh', text), range, settings())).map((h) => [h.label, h.position]);
  const gib = (label: unknown) => Number(/≈ ([\d,.]+) GiB/.exec(String(label))![1].replace(/,/g, ''));
  const base = await hints(gkd('zero3'));
  assert.equal(base.length, 1, 'one hint, after --deepspeed');
  assert.deepEqual(base[0][1], at(6, 21));
  // A whole 16-bit Qwen3-32B on every GPU instead of a quarter of it: more, by up to 3/4 of 61 GiB.
  const whole = gib((await hints(gkd('zero0')))[0][0]);
  assert.ok(whole > gib(base[0][0]) + 20 && whole < gib(base[0][0]) + 46, `${whole} vs ${gib(base[0][0])}`);
  assert.ok(gib((await hints(gkd('zero3_offload')))[0][0]) < gib(base[0][0]));
  // A teacher config file is not read here: the teacher follows the run's own stage (ZeRO-3), as with zero3.
  assert.deepEqual(await hints(gkd('../configs/teacher_z3.json')), base);
  const facts = extractLaunchFacts(doc('scripts/gkd.sh', gkd('zero0')), [workspaceRoot])[0];
  assert.equal(facts.deepspeed?.kind === 'preset' && facts.deepspeed.name, 'zero3');
  assert.equal(facts.teacherDeepspeed?.kind === 'preset' && facts.teacherDeepspeed.name, 'zero0');
});

test('hover, completion, links and definition on the --teacher_deepspeed value', async () => {
  const { ls } = service(files);
  const document = doc('scripts/gkd.sh', gkd('zero3_offload'));
  const hover = await ls.doHover(document, at(7, 25), settings());
  const value = (hover!.contents as MarkupContent).value;
  assert.match(value, /^\*\*Teacher model's DeepSpeed config\*\*/);
  assert.match(value, /ms-swift preset `zero3_offload`/);
  assert.match(value, /counts the teacher under "other models"/);
  assert.doesNotMatch(value, /ZeRO options for/, 'no memory table: that is the trained model');
  assert.deepEqual(hover!.range, { start: at(7, 24), end: at(7, 37) });
  const name = await ls.doHover(document, at(7, 8), settings());
  assert.match((name!.contents as MarkupContent).value, /\*\*--teacher_deepspeed\*\* \(swift rlhf\)\n\nDeepSpeed config of the teacher model/);

  const completion = await ls.doComplete(doc('scripts/gkd.sh', gkd('')), at(7, 24), settings());
  assert.deepEqual(completion.items.map((i) => i.label), ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload', '../configs/ds_config_zero2.json']);
  assert.doesNotMatch(String(completion.items[4].detail), /GiB/, 'no estimate of the trained model on teacher presets');

  const withFile = doc('scripts/gkd.sh', gkd('../configs/teacher_z3.json'));
  const target = URI.file(path.join(workspaceRoot, 'configs/teacher_z3.json')).toString();
  const links = await ls.getDocumentLinks(withFile, settings());
  assert.deepEqual(links.map((l) => [l.target, l.range.start.line, l.range.start.character, l.range.end.character]), [[target, 7, 24, 50]]);
  assert.deepEqual((await ls.getDefinition(withFile, at(7, 30), settings())).map((l) => l.uri), [target]);
  const fileHover = await ls.doHover(withFile, at(7, 30), settings());
  assert.match((fileHover!.contents as MarkupContent).value, /DeepSpeed config\*\* `\.\.\/configs\/teacher_z3\.json` →/);
});

test('ms-swift YAML (`swift rlhf gkd.yaml`): teacher_deepspeed: is checked, hovered, completed and linked; LLaMA-Factory has no such key', async () => {
  const { ls } = service(files);
  const yaml = (teacher: string) => `rlhf_type: gkd\nmodel: Qwen/Qwen3-8B\nteacher_model: Qwen/Qwen3-32B\ndeepspeed: zero3\nteacher_deepspeed: ${teacher}\n`;
  const check = async (text: string, name = 'gkd.yaml') => {
    const document = doc(name, text);
    return { document, diagnostics: await ls.doValidation(document, settings()) };
  };
  const typo = await check(yaml('zero_3'));
  assert.deepEqual(codes(typo.diagnostics), ['unknown-deepspeed-preset']);
  assert.equal(fixed(typo.document, typo.diagnostics, 'unknown-deepspeed-preset'), yaml('zero3'));
  assert.deepEqual(codes((await check(yaml('configs/missing.json'))).diagnostics), ['deepspeed-config-not-found']);
  assert.deepEqual(codes((await check(yaml(`"{'zero_optimization': {'stage': 3}}"`))).diagnostics), ['inline-deepspeed-json-repaired']);
  assert.deepEqual(codes((await check(yaml('zero3_offload'))).diagnostics), []);
  assert.deepEqual(codes((await check(`finetuning_type: lora\nteacher_deepspeed: zero_3\n`, 'lf.yaml')).diagnostics), [], 'not read from LLaMA-Factory YAML');

  const document = doc('gkd.yaml', yaml('configs/teacher_z3.json'));
  const hover = await ls.doHover(document, at(4, 22), settings());
  assert.match((hover!.contents as MarkupContent).value, /^\*\*Teacher model's DeepSpeed config\*\*[^]*teacher_z3\.json/);
  const key = await ls.doHover(document, at(4, 3), settings());
  assert.match((key!.contents as MarkupContent).value, /^\*\*teacher_deepspeed\*\*\n\nDeepSpeed config of the teacher model/);
  const target = URI.file(path.join(workspaceRoot, 'configs/teacher_z3.json')).toString();
  assert.deepEqual((await ls.getDocumentLinks(document, settings())).map((l) => [l.target, l.range.start.line]), [[target, 4]]);
  const completion = await ls.doComplete(doc('gkd.yaml', yaml('')), at(4, 19), settings());
  assert.deepEqual(completion.items.slice(0, 6).map((i) => i.label), ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload']);

  // The script that names the YAML: one estimate, from deepspeed: (zero3), whatever the teacher's config.
  const range = { start: at(0, 0), end: at(2, 0) };
  const script = 'NPROC_PER_NODE=4 swift rlhf gkd.yaml --tuner_type full\n';
  const hints = async (teacher: string) => {
    const s = service({ ...files, 'scripts/gkd.yaml': yaml(teacher) });
    return (await s.ls.getInlayHints(doc('scripts/gkd.sh', script), range, settings())).map((h) => String(h.label));
  };
  const base = await hints('zero3');
  assert.equal(base.length, 1);
  // The config file's teacher_deepspeed is read like the flag: below ZeRO-3 every GPU holds the whole teacher.
  const gib = (label: string) => Number(/≈ ([\d,.]+) GiB/.exec(label)![1].replace(/,/g, ''));
  assert.ok(gib((await hints('zero0'))[0]) > gib(base[0]) + 20);
});
