import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Hover, MarkupContent } from 'vscode-languageserver-types';
import { hover } from '../../server/src/dsconfig/hover/hover';
import { formatBytes } from '../../server/src/dsconfig/hover/describe';
import { defaultSettings } from '../../server/src/settings';
import { textIn, withCursor } from './dsconfig-completion-cursor';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

async function hoverAt(marked: string): Promise<{ hover: Hover | null; markdown: string; document: TextDocument }> {
  const { document, position } = withCursor(marked);
  const result = await hover(parses, document, position, defaultSettings);
  return { hover: result, markdown: result ? (result.contents as MarkupContent).value : '', document };
}

const zero = (stage: number, body: string) => `{\n  "zero_optimization": {\n    "stage": ${stage},\n    ${body}\n  }\n}`;

test('hover on the stage key: what it does, type, default, allowed values, "auto" filler, range = the key', async () => {
  const { hover: h, markdown, document } = await hoverAt('{\n  "zero_optimization": {\n    "st|age": 3\n  }\n}');
  assert.ok(h);
  assert.equal((h.contents as MarkupContent).kind, 'markdown');
  assert.equal(textIn(document, h.range!), '"stage"');
  assert.match(markdown, /\*\*`zero_optimization\.stage`\*\*/);
  assert.match(markdown, /shards more training state/);
  assert.match(markdown, /Type: `integer`/);
  assert.match(markdown, /Default: `0`/);
  assert.match(markdown, /Allowed: `0`, `1`, `2`, `3`/);
  assert.match(markdown, /filled by accelerate, from `DeepSpeedPlugin\.zero_stage/);
  assert.match(markdown, /\(https:\/\/www\.deepspeed\.ai\/docs\/config-json\/#zero-optimizations/);
});

test('hover on a stage value says what that stage shards; range = the value', async () => {
  const { hover: h, markdown, document } = await hoverAt('{\n  "zero_optimization": {\n    "stage": |3\n  }\n}');
  assert.equal(textIn(document, h!.range!), '3');
  assert.match(markdown, /= `3`/);
  assert.match(markdown, /Shard optimizer states, gradients and the parameters/);
});

test('a stage-3-only key in a stage-2 file is flagged as ignored; at stage 3 it is not', async () => {
  const at2 = await hoverAt(zero(2, '"stage3_max_live|_parameters": 1e9'));
  assert.match(at2.markdown, /Used only at ZeRO stage 3\. \*\*Ignored at stage 2\*\*/);
  const at3 = await hoverAt(zero(3, '"stage3_max_live|_parameters": 1e9'));
  assert.match(at3.markdown, /Used only at ZeRO stage 3\./);
  assert.doesNotMatch(at3.markdown, /Ignored/);
  const noStage = await hoverAt('{\n  "zero_optimization": {\n    "offload_par|am": {"device": "cpu"}\n  }\n}');
  assert.match(noStage.markdown, /Ignored at stage 0/);
});

test('aliases name each other; deprecated keys name their replacement', async () => {
  const short = await hoverAt(zero(3, '"prefetch_bucket|_size": 1000'));
  assert.match(short.markdown, /Short form of `stage3_prefetch_bucket_size`/);
  const long = await hoverAt(zero(3, '"stage3_prefetch_bucket|_size": 1000'));
  assert.match(long.markdown, /Also accepted as `prefetch_bucket_size`/);
  const deprecated = await hoverAt(zero(2, '"cpu_off|load": true'));
  assert.match(deprecated.markdown, /\*\*Deprecated\.\*\*/);
  assert.match(deprecated.markdown, /Use `offload_optimizer` instead/);
});

test('hover on "auto": who fills it from what, and what happens if nothing does', async () => {
  const batch = await hoverAt('{\n  "train_batch_size": "au|to"\n}');
  assert.match(batch.markdown, /Filled in by the Hugging Face Trainer or accelerate, from `TrainingArguments/);
  assert.match(batch.markdown, /literal string `"auto"` and fails/);
  const stage = await hoverAt('{\n  "zero_optimization": {"stage": "a|uto"}\n}');
  assert.match(stage.markdown, /Filled in by accelerate/);
  assert.match(stage.markdown, /drops the `"auto"` and uses the default `0`/);
  // Scheduler params refuse unknown keys like a pydantic section, but are constructor arguments: the text arrives.
  const steps = await hoverAt('{\n  "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "a|uto"}}\n}');
  assert.match(steps.markdown, /literal string `"auto"` and fails/);
});

test('a value DeepSpeed does not know, where it falls back: the hover names the fallback', async () => {
  const other = await hoverAt('{\n  "scheduler": {"type": "WarmupLR", "params": {"warmup_type": "cos|ine"}}\n}');
  assert.match(other.markdown, /DeepSpeed does not know this value and uses `"log"` instead/);
  const known = await hoverAt('{\n  "scheduler": {"type": "WarmupLR", "params": {"warmup_type": "lin|ear"}}\n}');
  assert.doesNotMatch(known.markdown, /does not know/);
});

test('an enum value explains itself: offload device "nvme" needs nvme_path', async () => {
  const { markdown, hover: h, document } = await hoverAt(zero(3, '"offload_param": {"device": "nv|me"}'));
  assert.equal(textIn(document, h!.range!), '"nvme"');
  assert.match(markdown, /nvme_path/);
});

test('numbers in human form: bucket sizes as elements and 16-bit bytes', async () => {
  const { markdown } = await hoverAt(zero(2, '"reduce_bucket_size": 5|e8'));
  assert.match(markdown, /500,000,000 elements ≈ 954 MiB at 2 bytes per element/);
  assert.equal(formatBytes(2 * 1024 ** 3), '2.00 GiB');
});

test('hover on keys of optimizer params follows the optimizer type', async () => {
  const { markdown } = await hoverAt('{\n  "optimizer": {"type": "AdamW", "params": {"adam_w|_mode": true}}\n}');
  assert.match(markdown, /optimizer\.params\.adam_w_mode/);
  assert.match(markdown, /Type: `boolean`/);
});

test('nothing to say: unknown keys, punctuation, broken or empty text give null', async () => {
  assert.equal((await hoverAt('{\n  "not_a_deepspeed_k|ey": 1\n}')).hover, null);
  assert.equal((await hoverAt('{\n  "train_batch_size": 8 |\n}')).hover, null);
  assert.equal((await hoverAt('|')).hover, null);
  assert.equal((await hoverAt('{"zero_optimization": {"sta|ge": ')).hover?.range !== undefined, true, 'half-typed JSON still answers');
});

test('an array element is explained by its list', async () => {
  const { markdown } = await hoverAt('{\n  "optimizer": {"type": "AdamW", "params": {"betas": [0.|9, 0.95]}}\n}');
  assert.match(markdown, /= `0\.9`/);
  assert.match(markdown, /decay rates/);
});

test('CRLF and a BOM keep ranges exact', async () => {
  const text = '\ufeff{\r\n  "zero_optimization": {\r\n    "stage": 2\r\n  }\r\n}\r\n';
  const document = TextDocument.create('file:///ds_config.json', 'json', 1, text);
  const h = await hover(parses, document, { line: 2, character: 7 }, defaultSettings);
  assert.deepEqual(h?.range, { start: { line: 2, character: 4 }, end: { line: 2, character: 11 } });
});

test('random edits of a real config never make hover throw, and ranges stay inside the text', async () => {
  const base = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": {"device": "cpu"},\n    "stage3_prefetch_bucket_size": 5e8\n  },\n  "optimizer": {"type": "AdamW", "params": {"lr": 1e-5, "betas": [0.9, 0.95]}}\n}';
  await fc.assert(
    fc.asyncProperty(fc.nat(), fc.nat(3), fc.string({ maxLength: 4 }), fc.nat(), async (at, remove, insert, cursor) => {
      const cut = at % (base.length + 1);
      const text = base.slice(0, cut) + insert + base.slice(cut + remove);
      const document = TextDocument.create('file:///ds_config.json', 'json', 1, text);
      const h = await hover(parses, document, document.positionAt(cursor % (text.length + 1)), defaultSettings);
      if (h?.range) assert.ok(document.offsetAt(h.range.end) <= text.length);
    }),
    { numRuns: 400 },
  );
});

test('hover on weight_quantization.quantized_initialization says it is used only at stage 3, ignored at the file\'s stage 2', async () => {
  const { markdown } = await hoverAt('{\n  "zero_optimization": {"stage": 2},\n  "weight_quantization": {"quantized_init|ialization": {}}\n}');
  assert.match(markdown, /Read only by `zero\.Init`/);
  assert.match(markdown, /Used only at ZeRO stage 3\. \*\*Ignored at stage 2\*\*/);
});

test('hover under elasticity while it is off says DeepSpeed ignores the block (runtime/config.py:730-731); on, it does not', async () => {
  for (const block of ['"min_g|pus": 2', '"enabled": false, "min_g|pus": 2', '"enabled": false, "min_gpus": |2']) {
    const { markdown } = await hoverAt(`{"elasticity": {${block}}}`);
    assert.match(markdown, /\*\*Elasticity is off\*\*.*DeepSpeed ignores this block/, block);
  }
  const on = await hoverAt('{"elasticity": {"enabled": true, "max_train_batch_size": 64, "micro_batch_sizes": [2], "min_g|pus": 2}}');
  assert.match(on.markdown, /Default: `1`/);
  assert.doesNotMatch(on.markdown, /Elasticity is off/);
  // The switch itself says nothing of the kind.
  assert.doesNotMatch((await hoverAt('{"elasticity": {"enab|led": false}}')).markdown, /Elasticity is off/);
});

test('the same key in two groups: each heading names its own path, the rest is the same; a new stage reaches it', async () => {
  const groups = (stage: number, marked: 0 | 1) =>
    `{\n  "zero_optimization": { "stage": ${stage} },\n  "compression_training": { "weight_quantization": { "different_groups": {\n` +
    [0, 1].map((g) => `    "wq${g}": { "params": { "start_bits": 8, "${g === marked ? 'targ|et_bits' : 'target_bits'}": 8 } }`).join(',\n') +
    '\n  } } }\n}';
  const first = await hoverAt(groups(3, 0));
  const second = await hoverAt(groups(3, 1));
  const heading = (g: number) => `**\`compression_training.weight_quantization.different_groups.wq${g}.params.target_bits\`**\n\n`;
  assert.ok(first.markdown.startsWith(heading(0)), first.markdown);
  assert.ok(second.markdown.startsWith(heading(1)), second.markdown);
  assert.equal(second.markdown.slice(heading(1).length), first.markdown.slice(heading(0).length));
  // A key whose text depends on the file's stage, hovered in one document as its stage is edited.
  const { document, position } = withCursor(zero(3, '"stage3_max_live|_parameters": 1e9'));
  const text = (await hover(parses, document, position, defaultSettings)) as Hover;
  assert.doesNotMatch((text.contents as MarkupContent).value, /Ignored/);
  const stageDigit = document.getText().indexOf('"stage": 3') + '"stage": '.length;
  TextDocument.update(document, [{ range: { start: document.positionAt(stageDigit), end: document.positionAt(stageDigit + 1) }, text: '2' }], 2);
  const edited = (await hover(parses, document, position, defaultSettings)) as Hover;
  assert.match((edited.contents as MarkupContent).value, /\*\*Ignored at stage 2\*\*/);
});

test('a heading names a key written with a backtick or a control character as written, fenced and visible', async () => {
  const marked = '{\n  "compression_training": { "weight_quantization": { "different_groups": {\n    "w`q\\u202e": { "params": { "targ|et_bits": 8 } }\n  } } }\n}';
  const { markdown } = await hoverAt(marked);
  assert.ok(markdown.startsWith('**``compression_training.weight_quantization.different_groups.w`q\\u{202e}.params.target_bits``**\n\n'), markdown);
});
