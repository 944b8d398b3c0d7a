import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLaunchFacts } from '../../server/src/launch';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

// accelerate, ms-swift (yaml.safe_load) and LLaMA-Factory (OmegaConf.load) read YAML with PyYAML, whose booleans are
// YAML 1.1's words: yes/no/on/off as well as true/false, but not y/n.

test('a launcher YAML reads yes/no/on/off as booleans, as PyYAML does: zero3_init_flag: no is off, bf16: yes is on', () => {
  const accelerate = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  zero3_init_flag: no\nmixed_precision: bf16\nnum_processes: 8\n';
  const [a] = extractLaunchFacts(doc('accel.yaml', accelerate), [workspaceRoot]);
  assert.equal(a.deepspeed?.kind === 'settings' && a.deepspeed.zero3Init, false);
  const [b] = extractLaunchFacts(doc('accel_on.yaml', accelerate.replace('zero3_init_flag: no', 'zero3_init_flag: Off')), [workspaceRoot]);
  assert.equal(b.deepspeed?.kind === 'settings' && b.deepspeed.zero3Init, false);
  const lf = extractLaunchFacts(doc('lf.yaml', 'model_name_or_path: Qwen/Qwen3-8B\nstage: sft\nfinetuning_type: lora\nbf16: yes\ndeepspeed: ds.json\n'), [workspaceRoot])[0];
  assert.equal(lf.dtype?.value, 'bf16');
  // Quoted words and y/n stay strings.
  const [quoted] = extractLaunchFacts(doc('accel_q.yaml', accelerate.replace('zero3_init_flag: no', "zero3_init_flag: 'no'")), [workspaceRoot]);
  assert.equal(quoted.deepspeed?.kind === 'settings' && quoted.deepspeed.zero3Init, true);
});

test('accelerate config: an unquoted mixed_precision: no is the boolean False, which accelerate launch fails on; the fix quotes it', async () => {
  const text = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\nmixed_precision: no\nnum_processes: 8\n';
  const { ls } = service();
  const document = doc('accel.yaml', text);
  const diagnostics = await ls.doValidation(document, settings());
  assert.deepEqual(codes(diagnostics), ['accelerate-invalid-value']);
  assert.match(String(diagnostics[0].message), /False/);
  assert.equal(document.getText(diagnostics[0].range), 'no');
  assert.equal(fixed(document, diagnostics, 'accelerate-invalid-value'), text.replace('mixed_precision: no', "mixed_precision: 'no'"));
  const zh = await ls.doValidation(doc('accel_zh.yaml', text), settings({ language: 'zh-cn' }));
  assert.match(String(zh[0].message), /[\u4e00-\u9fff]/);
  // Quoted, it is the string accelerate expects.
  assert.deepEqual(codes(await ls.doValidation(doc('accel_ok.yaml', text.replace('mixed_precision: no', "mixed_precision: 'no'")), settings())), []);
  // The section check names the value as written (an unquoted NO is False to PyYAML too).
  const unused = await ls.doValidation(doc('accel_unused.yaml', 'distributed_type: NO\nfsdp_config:\n  fsdp_version: 2\nmixed_precision: fp16\nnum_processes: 1\n'), settings());
  assert.match(String(unused.find((d) => d.code === 'fsdp-section-ignored')!.message), /`distributed_type` is NO,/);
});

test('completing mixed_precision in an accelerate config writes no in quotes', async () => {
  const text = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\nmixed_precision: \nnum_processes: 8\n';
  const { ls } = service();
  const list = await ls.doComplete(doc('accel.yaml', text), { line: 3, character: 17 }, settings());
  const edits = list.items.map((i) => (i.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : i.insertText));
  assert.deepEqual(edits, ["'no'", 'fp16', 'bf16', 'fp8']);
});
