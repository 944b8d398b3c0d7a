import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLaunchFacts } from '../../server/src/launch';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

async function check(text: string, name = 'scripts/train.sh') {
  const { ls } = service();
  const document = doc(name, text);
  return { document, diagnostics: await ls.doValidation(document, settings()) };
}

const singleQuoted = `swift sft --model m --deepspeed "{'zero_optimization': {'stage': 2}, 'bf16': {'enabled': 'auto'}}"\n`;

test('ms-swift: single-quoted inline JSON is a warning whose fix writes valid JSON in single quotes', async () => {
  const { document, diagnostics } = await check(singleQuoted);
  assert.deepEqual(codes(diagnostics), ['inline-deepspeed-json-repaired']);
  assert.equal(diagnostics[0].severity, 2);
  assert.match(String(diagnostics[0].message), /ms-swift repairs it with json_repair.*would reject it/);
  const after = fixed(document, diagnostics, 'inline-deepspeed-json-repaired');
  assert.equal(after, `swift sft --model m --deepspeed '{"zero_optimization": {"stage": 2}, "bf16": {"enabled": "auto"}}'\n`);
  assert.deepEqual(codes((await check(after)).diagnostics), []);
});

test('ms-swift: a trailing comma is a warning; the fix on --deepspeed=… replaces only the value', async () => {
  assert.deepEqual(codes((await check(`swift sft --deepspeed '{"zero_optimization": {"stage": 3},}'\n`)).diagnostics), ['inline-deepspeed-json-repaired']);
  const inline = await check(`swift sft --deepspeed="{'zero_optimization': {'stage': 3}}" --model m\n`);
  assert.equal(fixed(inline.document, inline.diagnostics, 'inline-deepspeed-json-repaired'), `swift sft --deepspeed='{"zero_optimization": {"stage": 3}}' --model m\n`);
});

test('ms-swift: a word in several quoted pieces, or built from a variable, is still a warning but not rewritten', async () => {
  for (const text of [`swift sft --deepspeed '{"zero_optimization": {"stage": 3}, "tag": "it'"'"'s",}'\n`, `STAGE=2\nswift sft --deepspeed "{'zero_optimization': {'stage': $STAGE}}"\n`]) {
    const { diagnostics } = await check(text);
    assert.deepEqual(codes(diagnostics), ['inline-deepspeed-json-repaired'], text);
    assert.deepEqual(diagnostics[0].data?.fixes, [], text);
  }
});

test('the Hugging Face Trainer and accelerate use json.loads: the same value stays an error', async () => {
  for (const command of [`torchrun train.py --deepspeed "{'a':1}"`, `accelerate launch train.py --deepspeed "{'a':1}"`, `deepspeed train.py --deepspeed '{"a": 1,}'`]) {
    assert.deepEqual(codes((await check(`${command}\n`)).diagnostics), ['invalid-inline-deepspeed-json'], command);
  }
});

test('what json_repair does not fix the same way keeps its old report', async () => {
  assert.deepEqual(codes((await check('swift sft --deepspeed zero_2\n')).diagnostics), ['unknown-deepspeed-preset']);
  assert.deepEqual(codes((await check(`swift sft --deepspeed "{'a': auto}"\n`)).diagnostics), ['invalid-inline-deepspeed-json']);
});

test('the repaired object is the config: stage and estimate as for the same JSON written validly', async () => {
  const script = (value: string) => `NPROC_PER_NODE=4 swift sft --model Qwen/Qwen3-8B --tuner_type full --deepspeed ${value}\n`;
  const [f] = extractLaunchFacts(doc('scripts/r.sh', script(`"{'zero_optimization': {'stage': 3},}"`)), [workspaceRoot]);
  assert.equal(f.deepspeed?.kind, 'inline');
  assert.deepEqual(f.deepspeed?.kind === 'inline' && f.deepspeed.json, { zero_optimization: { stage: 3 } });
  const { ls } = service();
  const range = { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } };
  const repaired = await ls.getInlayHints(doc('scripts/r.sh', script(`"{'zero_optimization': {'stage': 3},}"`)), range, settings());
  const valid = await ls.getInlayHints(doc('scripts/v.sh', script(`'{"zero_optimization": {"stage": 3}}'`)), range, settings());
  assert.match(String(repaired[0]?.label), /^≈ \d+\.\d GiB\/GPU · Qwen3-8B · 4 GPUs · \d+\.\d allocated, [a-z +()]+$/);
  assert.equal(repaired[0]?.label, valid[0]?.label);
});

test('ms-swift YAML repairs too (main.py hands the string to the CLI); LLaMA-Factory YAML does not', async () => {
  const yaml = `model: Qwen/Qwen2.5-7B-Instruct\ntuner_type: full\ndeepspeed: "{'zero_optimization': {'stage': 2}}"\n`;
  const swift = await check(yaml, 'swift.yaml');
  assert.deepEqual(codes(swift.diagnostics), ['inline-deepspeed-json-repaired']);
  assert.equal(fixed(swift.document, swift.diagnostics, 'inline-deepspeed-json-repaired'), yaml.replace(`"{'zero_optimization': {'stage': 2}}"`, `'{"zero_optimization": {"stage": 2}}'`));
  const lf = `model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\ndeepspeed: "{'zero_optimization': {'stage': 2}}"\n`;
  assert.deepEqual(codes((await check(lf, 'lf.yaml')).diagnostics), ['invalid-inline-deepspeed-json']);
});

test('ms-swift: the hover on repaired inline JSON shows what ms-swift reads', async () => {
  const { ls } = service();
  const document = doc('scripts/train.sh', singleQuoted);
  const hover = await ls.doHover(document, document.positionAt(singleQuoted.indexOf('zero_optimization')), settings());
  const text = (hover?.contents as { value: string } | undefined)?.value ?? '';
  assert.match(text, /not valid JSON: ms-swift repairs it and reads `\{"zero_optimization": \{"stage": 2\}, "bf16": \{"enabled": "auto"\}\}`/);
  const valid = `swift sft --model m --deepspeed '{"zero_optimization": {"stage": 2}}'\n`;
  const plain = await ls.doHover(doc('scripts/valid.sh', valid), { line: 0, character: valid.indexOf('zero_') }, settings());
  assert.match((plain?.contents as { value: string }).value, /\*\*Inline DeepSpeed config\*\* \(JSON in the argument\)/);
});
