import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLaunchFacts } from '../../server/src/launch';
import { factsOfFileIn, throughConfigFile } from '../../server/src/launch/references';
import { maxYamlNesting, yamlNestingBound } from '../../server/src/launch/yaml/nesting';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

const files = { 'configs/ds_z3.json': '{ "zero_optimization": { "stage": 3 } }' };

const accelerateYaml = `compute_environment: LOCAL_MACHINE
distributed_type: DEEPSPEED
deepspeed_config:
  deepspeed_multinode_launcher: standard
  gradient_accumulation_steps: 16
  offload_optimizer_device: none
  offload_param_device: cpu
  zero3_init_flag: false
  zero_stage: 3
mixed_precision: bf16
num_machines: 2
num_processes: 8
main_process_port: 29500
rdzv_backend: static
`;

test('accelerate config: facts from deepspeed_config, processes per machine, precision', () => {
  const [f] = extractLaunchFacts(doc('accel/multi_node.yaml', accelerateYaml), [workspaceRoot]);
  assert.equal(f.launcher, 'accelerate-yaml');
  assert.equal(f.gpusPerNode?.value, 4);
  assert.equal(f.nodes?.value, 2);
  assert.equal(f.dtype?.value, 'bf16');
  assert.equal(f.gradientAccumulation?.value, 16);
  assert.deepEqual(f.deepspeed && f.deepspeed.kind === 'settings' && [f.deepspeed.stage, f.deepspeed.offloadOptimizer, f.deepspeed.offloadParam, f.deepspeed.zero3Init], [3, 'none', 'cpu', false]);
  assert.equal(f.deepspeed?.span.line, 9);
});

test('accelerate config: deepspeed_config_file excludes the other deepspeed_config keys and mixed_precision; fix removes the line', async () => {
  const text = `distributed_type: DEEPSPEED
deepspeed_config:
  deepspeed_config_file: configs/ds_z3.json
  zero_stage: 3
  zero3_init_flag: true
mixed_precision: bf16
num_processes: 8
`;
  const { ls } = service(files);
  const document = doc('accel.yaml', text);
  const diagnostics = await ls.doValidation(document, settings());
  assert.deepEqual(codes(diagnostics), ['accelerate-config-file-excludes', 'accelerate-config-file-excludes']);
  assert.equal(fixed(document, diagnostics, 'accelerate-config-file-excludes'), text.replace('  zero_stage: 3\n', ''));
  // mixed_precision: 'no' in the YAML is refused too (launch.py sets mp_from_config_flag for any value).
  const no = await ls.doValidation(doc('accel_no.yaml', text.replace('mixed_precision: bf16', "mixed_precision: 'no'")), settings());
  assert.deepEqual(codes(no), ['accelerate-config-file-excludes', 'accelerate-config-file-excludes']);
  const [f] = extractLaunchFacts(document, [workspaceRoot]);
  assert.equal(f.deepspeed?.kind, 'file');
});

test('accelerate config: invalid values and a missing deepspeed_config_file', async () => {
  const { ls } = service(files);
  const text = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 5\n  offload_param_device: disk\nmixed_precision: bf32\nnum_processes: 0\n';
  assert.deepEqual(codes(await ls.doValidation(doc('a.yaml', text), settings())), ['accelerate-invalid-value', 'accelerate-invalid-value', 'accelerate-invalid-value', 'accelerate-invalid-value']);
  const missing = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: nope.json\n';
  assert.deepEqual(codes(await ls.doValidation(doc('b.yaml', missing), settings())), ['deepspeed-config-not-found']);
});

test('LLaMA-Factory YAML: facts (cutoff_len, finetuning_type, quantization_bit, bf16) and the deepspeed path', async () => {
  const text = `model_name_or_path: Qwen/Qwen3-8B
stage: sft
finetuning_type: lora
lora_rank: 16
quantization_bit: 4
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
cutoff_len: 4096
bf16: true
deepspeed: configs/ds_z3.json
`;
  const document = doc('lf/qwen3_lora_sft_ds3.yaml', text);
  const [f] = extractLaunchFacts(document, [workspaceRoot]);
  assert.equal(f.launcher, 'llamafactory-yaml');
  assert.deepEqual([f.model?.value, f.tuner?.value, f.loraRank?.value, f.quantBits?.value, f.microBatch?.value, f.seqLen?.value, f.dtype?.value], ['Qwen/Qwen3-8B', 'lora', 16, 4, 2, 4096, 'bf16']);
  assert.equal(f.deepspeed?.kind, 'file');
  const { ls } = service(files);
  assert.deepEqual(await ls.doValidation(document, settings()), []);
  assert.deepEqual(codes(await ls.doValidation(doc('lf/x.yaml', text.replace('configs/ds_z3.json', 'examples/deepspeed/ds_z9.json')), settings())), ['deepspeed-config-not-found']);
  assert.deepEqual(codes(await ls.doValidation(doc('lf/y.yaml', text.replace('configs/ds_z3.json', 'zero3')), settings())), ['preset-not-valid-here']);
  assert.deepEqual(codes(await ls.doValidation(doc('lf/z.yaml', text.replace('finetuning_type: lora', 'finetuning_type: qlora')), settings())), ['llamafactory-invalid-value']);
  // bitsandbytes, the default method, takes 4 or 8 bits; HQQ takes 2.
  const twoBits = await ls.doValidation(doc('lf/q2.yaml', text.replace('quantization_bit: 4', 'quantization_bit: 2')), settings());
  assert.deepEqual(codes(twoBits), ['llamafactory-invalid-value']);
  assert.match(String(twoBits[0].message), /bitsandbytes \(the default quantization_method\) takes: 4, 8/);
  // HQQ takes 2 bits, but not with this ZeRO-3 config: LLaMA-Factory refuses it (model_utils/quantization.py:211).
  assert.deepEqual(codes(await ls.doValidation(doc('lf/hqq.yaml', text.replace('quantization_bit: 4', 'quantization_bit: 2\nquantization_method: hqq')), settings())), ['llamafactory-zero3-incompatible']);
});

test('ms-swift YAML (`swift sft config.yaml`): presets are valid there', async () => {
  const text = 'model: Qwen/Qwen2.5-7B-Instruct\ntuner_type: lora\ntorch_dtype: bfloat16\nmax_length: 2048\nper_device_train_batch_size: 1\ndeepspeed: zero2\n';
  const document = doc('swift/sft.yaml', text);
  const [f] = extractLaunchFacts(document, [workspaceRoot]);
  assert.equal(f.launcher, 'swift-yaml');
  assert.equal(f.deepspeed?.kind, 'preset');
  const { ls } = service(files);
  assert.deepEqual(await ls.doValidation(document, settings()), []);
  assert.deepEqual(codes(await ls.doValidation(doc('swift/b.yaml', text.replace('zero2', 'zero-2')), settings())), ['unknown-deepspeed-preset']);
});

test('ms-swift YAML with a mapping as deepspeed: (or teacher_deepspeed:) is inline JSON, as main.py passes it on', async () => {
  // swift/cli/main.py:66-67 turns a dict value into json.dumps(v), which _init_deepspeed parses as inline JSON.
  const text = 'model: Qwen/Qwen3-8B\ntuner_type: full\nENV:\n  NPROC_PER_NODE: 4\ndeepspeed:\n  zero_optimization:\n    stage: 3\n    offload_param:\n      device: cpu\nrlhf_type: gkd\nteacher_model: t\nteacher_deepspeed: {zero_optimization: {stage: 2}}\n';
  const document = doc('swift/inline.yaml', text);
  const [f] = extractLaunchFacts(document, [workspaceRoot]);
  assert.equal(f.deepspeed?.kind, 'inline');
  assert.deepEqual(f.deepspeed?.kind === 'inline' && f.deepspeed.json, { zero_optimization: { stage: 3, offload_param: { device: 'cpu' } } });
  assert.equal(f.deepspeed?.span.line, 6, 'at the mapping');
  assert.deepEqual(f.teacherDeepspeed?.kind === 'inline' && f.teacherDeepspeed.json, { zero_optimization: { stage: 2 } });
  const { ls } = service(files);
  assert.deepEqual(await ls.doValidation(document, settings()), []);
  // Read for the estimate: ZeRO-3 with parameter offload, on the ENV: GPUs.
  const hints = await ls.getInlayHints(document, { start: { line: 0, character: 0 }, end: { line: 12, character: 0 } }, settings());
  assert.equal(hints.length, 1);
  assert.match(String(hints[0].label), /Qwen3-8B · 4 GPUs/);
  // and for the value checks: no zero_optimization is refused by accelerate's DeepSpeedPlugin.
  const bare = doc('swift/bare.yaml', 'model: m\ndeepspeed:\n  train_batch_size: 16\n');
  const bareDiagnostics = await ls.doValidation(bare, settings());
  assert.deepEqual(codes(bareDiagnostics), ['zero-optimization-required']);
  assert.match(String(bareDiagnostics[0].message), /^The DeepSpeed config under deepspeed: has no zero_optimization section/);
});

test('hover on a mapping under ms-swift deepspeed: / teacher_deepspeed: says it is YAML that ms-swift passes on as JSON', async () => {
  const text = 'model: Qwen/Qwen3-8B\ndeepspeed:\n  zero_optimization:\n    stage: 3\nrlhf_type: gkd\nteacher_model: t\nteacher_deepspeed: {zero_optimization: {stage: 2}}\n';
  const { ls } = service(files);
  const value = async (line: number, character: number) => {
    const hover = await ls.doHover(doc('swift/inline.yaml', text), { line, character }, settings());
    return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
  };
  const student = await value(2, 4);
  assert.match(student, /^\*\*DeepSpeed config\*\* written as a YAML mapping under `deepspeed:`; ms-swift passes it on as JSON \(swift\/cli\/main\.py:66-67, json\.dumps\)/);
  assert.doesNotMatch(student, /in the argument/);
  assert.match(await value(6, 25), /\*\*DeepSpeed config\*\* written as a YAML mapping under `teacher_deepspeed:`/);
  // A flag's inline JSON keeps its wording.
  const script = await ls.doHover(doc('scripts/t.sh', `swift sft --deepspeed '{"zero_optimization": {"stage": 2}}'\n`), { line: 0, character: 30 }, settings());
  assert.match(JSON.stringify(script?.contents), /Inline DeepSpeed config\*\* \(JSON in the argument\)/);
});

test('hover on a JSON string as a YAML value says JSON in the value of the key, not in the argument', async () => {
  // Before: "(JSON in the argument)", as for a flag's value.
  const yaml = `model: Qwen/Qwen3-8B\ndeepspeed: '{"zero_optimization": {"stage": 3}}'\nrlhf_type: gkd\nteacher_model: t\nteacher_deepspeed: '{"zero_optimization": {"stage": 2}}'\n`;
  const { ls } = service({ ...files, 'swift/json.yaml': yaml });
  const value = async (name: string, text: string, line: number, character: number) => {
    const hover = await ls.doHover(doc(name, text), { line, character }, settings());
    return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
  };
  const student = await value('swift/json.yaml', yaml, 1, 20);
  assert.match(student, /^\*\*Inline DeepSpeed config\*\* \(JSON in the value of `deepspeed:`\)/);
  assert.doesNotMatch(student, /in the argument/);
  assert.match(await value('swift/json.yaml', yaml, 4, 30), /\*\*Inline DeepSpeed config\*\* \(JSON in the value of `teacher_deepspeed:`\)/);
  // A script naming that YAML shows the YAML's reference on its argument: still a value in the YAML.
  const script = await value('swift/run.sh', 'swift sft json.yaml\n', 0, 12);
  assert.match(script, /\(JSON in the value of `deepspeed:`\) _\(from json\.yaml\)_/);
});

test('YAML that is no launcher config, or broken YAML, never throws; broken YAML we do not claim gives nothing', async () => {
  const { ls } = service(files);
  assert.deepEqual(extractLaunchFacts(doc('x.yaml', 'name: ci\non: push\n')), []);
  for (const text of ['deepspeed: [', 'deepspeed_config:\n  - a\n  b: c', ': : :', '\t\tdeepspeed: x', '[\ndeepspeed: zero2\n', '- a\ndeepspeed: zero2\n']) {
    assert.ok(Array.isArray(await ls.doValidation(doc('bad.yaml', text), settings())));
  }
  // A workflow file with a syntax error is the YAML extension's business, not ours.
  assert.deepEqual(await ls.doValidation(doc('ci.yaml', 'name: ci\non: [push\n'), settings()), []);
  assert.deepEqual(await ls.doValidation(doc('bad.yaml', 'deepspeed_config:\n  - a\n  b: c'), settings()), []);
});

test('a launch YAML with a syntax error: one warning where the parser stopped, saying its DeepSpeed settings are not checked', async () => {
  const { ls } = service(files);
  const check = async (name: string, text: string) => ls.doValidation(doc(name, text), settings());
  // Nothing readable: the whole file goes unchecked. Before, no message at all.
  const unread = await check('swift/sft.yaml', '- model: Qwen/Qwen3-8B\ndeepspeed: zero-3\n');
  assert.deepEqual(unread.map((d) => [d.code, d.severity, d.source]), [['yaml-syntax-error', 2, 'zero-lens']]);
  assert.equal(unread[0].message, 'ZeRO Lens could not read this file, so its DeepSpeed settings are not checked: Unexpected scalar at node end (line 2, column 1).');
  assert.deepEqual(unread[0].range, { start: { line: 1, character: 0 }, end: { line: 1, character: 9 } });
  assert.match(String(unread[0].codeDescription?.href), /^https:\/\/yaml\.org\//);
  // What reads before the error is still checked (the misspelt preset), after the one syntax warning.
  const partly = await check('swift/sft.yaml', 'model: Qwen/Qwen3-8B\ndeepspeed: zero-2\nlr: [1e-4\n');
  assert.deepEqual(partly.map((d) => d.code), ['yaml-syntax-error', 'unknown-deepspeed-preset']);
  assert.match(String(partly[0].message), /^ZeRO Lens could not read this file from here on, so its DeepSpeed settings after this point are not checked: Flow sequence .* \(line 4, column 1\)\.$/);
  // Past the error the values are the parser's guesses: an unclosed quote swallows the next line into the
  // preset ('zero3 torch_dtype: bfloat16'), which is not reported as a wrong preset.
  const quote = await check('swift/sft.yaml', 'model: Qwen/Qwen3-8B\ndeepspeed: "zero3\ntorch_dtype: bfloat16\n');
  assert.deepEqual(quote.map((d) => d.code), ['yaml-syntax-error']);
  assert.match(String(quote[0].message), /Missing closing "quote \(line 4, column 1\)/);
  // Two parser errors (a nested mapping on one line), one warning at the first.
  const two = await check('lf.yaml', 'model_name_or_path: m\ndeepspeed: ds.json\n  stage: 3\n');
  assert.deepEqual(two.map((d) => d.code), ['yaml-syntax-error']);
  assert.deepEqual(two[0].range.start, { line: 1, character: 11 });
  const accelerate = await check('accel.yaml', 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n\tnum_processes: 2\n');
  assert.deepEqual(accelerate.map((d) => [d.code, d.range.start.line]), [['yaml-syntax-error', 3]]);
  assert.match(String(accelerate[0].message), /Tabs are not allowed as indentation \(line 4, column 1\)/);
  // A second document: the library's hint names its JS API, so the message says what is wrong instead,
  // and only the '---' line is underlined, not the whole second document.
  const docs = await check('lf.yaml', 'model_name_or_path: m\ndeepspeed: configs/ds_z3.json\n---\nx: 1\ny: 2\n');
  assert.deepEqual(docs.map((d) => d.code), ['yaml-syntax-error']);
  assert.match(String(docs[0].message), /a second YAML document starts here, and the file may hold only one \(line 3, column 1\)/);
  assert.deepEqual(docs[0].range, { start: { line: 2, character: 0 }, end: { line: 2, character: 3 } });
  // Clean files: no warning.
  assert.deepEqual(await check('lf.yaml', 'model_name_or_path: m\ndeepspeed: configs/ds_z3.json\n'), []);
});

test('YAML nested thousands of levels is not parsed: near the stack limit V8 aborts the server (no exception to catch)', async () => {
  // An upper bound: six columns of indentation and indicators, two brackets.
  assert.equal(yamlNestingBound('a:\n  b:\n    - [1, {c: 2}]\n'), 8);
  assert.ok(yamlNestingBound('x: ' + '['.repeat(300) + ']'.repeat(300)) > maxYamlNesting);
  assert.ok(yamlNestingBound('x:\n' + '- '.repeat(300) + 'y') > maxYamlNesting);
  const deep = 'deepspeed: ds.json\na:\n' + Array.from({ length: 5000 }, (_, i) => ' '.repeat(i + 1) + 'a:').join('\n');
  assert.deepEqual(extractLaunchFacts(doc('deep.yaml', deep)), []);
  const { ls } = service(files);
  assert.deepEqual(await ls.doValidation(doc('deep.yaml', deep), settings()), []);
});

test('accelerate --num_processes is the total: a multi-machine YAML divides it when the command line gives no --num_machines', async () => {
  const yaml = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: configs/ds_z3.json\nnum_machines: 2\nnum_processes: 8\n';
  const { hosts } = service({ ...files, 'accel/multi.yaml': yaml });
  const [script] = extractLaunchFacts(doc('train.sh', 'accelerate launch --config_file accel/multi.yaml --num_processes 16 --machine_rank 0 train.py\n'), [workspaceRoot]);
  const merged = await throughConfigFile(script, factsOfFileIn(hosts.fs, [workspaceRoot]));
  assert.deepEqual([merged?.gpusPerNode?.value, merged?.nodes?.value], [8, 2]);
});
