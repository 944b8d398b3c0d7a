import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parse, type ParseError } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemTag, type CompletionItem } from 'vscode-languageserver-types';
import { complete } from '../../server/src/dsconfig/completion/complete';
import { completed } from '../../server/src/completionList';
import { defaultSettings } from '../../server/src/settings';
import { applyItem, editOf, sorted, textIn, withCursor } from './dsconfig-completion-cursor';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

/** Items as an editor without lazy resolve gets them: documentation and detail filled in. */
async function completeAt(marked: string): Promise<{ items: CompletionItem[]; document: TextDocument }> {
  const { document, position } = withCursor(marked);
  return { items: sorted((await complete(parses, document, position, defaultSettings)).map(completed)), document };
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label);
const find = (items: CompletionItem[], label: string) => {
  const item = items.find((i) => i.label === label);
  assert.ok(item, `expected an item "${label}" among ${labels(items).slice(0, 30).join(', ')}`);
  return item;
};
const strictJson = (text: string): unknown => {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  assert.deepEqual(errors, [], `not valid JSON:\n${text}`);
  return value;
};

test('keys inside zero_optimization: offload_optimizer with the cursor in its object, present keys left out', async () => {
  const { items, document } = await completeAt('{\n  "zero_optimization": {\n    "stage": 3,\n    |\n  }\n}');
  const item = find(items, 'offload_optimizer');
  const edit = editOf(item);
  assert.equal(edit.newText, '"offload_optimizer": {\n\t$1\n}');
  assert.deepEqual(edit.range, { start: { line: 3, character: 4 }, end: { line: 3, character: 4 } });
  assert.match(item.detail ?? '', /object/);
  assert.match(typeof item.documentation === 'object' ? item.documentation.value : '', /optimizer states/i);
  assert.ok(!labels(items).includes('stage'), 'stage is already present');
  assert.ok(!labels(items).includes('train_batch_size'), 'top-level keys do not belong here');
  strictJson(applyItem(document, item));
});

test('value placeholders: choice for booleans (default first), default for numbers, quotes for strings', async () => {
  const { items } = await completeAt('{\n  "zero_optimization": {\n    |\n  }\n}');
  assert.equal(editOf(find(items, 'contiguous_gradients')).newText, '"contiguous_gradients": ${1|true,false|}');
  assert.equal(editOf(find(items, 'elastic_checkpoint')).newText, '"elastic_checkpoint": ${1|false,true|}');
  assert.equal(editOf(find(items, 'sub_group_size')).newText, '"sub_group_size": ${1:1000000000}');
  assert.equal(editOf(find(items, 'stage')).newText, '"stage": ${1|0,1,2,3|}');
  const { items: top } = await completeAt('{\n  |\n}');
  assert.match(editOf(find(top, 'gradient_allreduce_op')).newText, /^"gradient_allreduce_op": "\$\{1[:|]/);
});

test('a half-typed quoted key is replaced whole, quotes included', async () => {
  const { items, document } = await completeAt('{\n  "zero_optimization": {\n    "stage": 3,\n    "offl|"\n  }\n}');
  const item = find(items, 'offload_param');
  const edit = editOf(item);
  assert.equal(textIn(document, edit.range), '"offl"');
  assert.equal(item.filterText, '"offload_param"');
  const after = strictJson(applyItem(document, item)) as { zero_optimization: Record<string, unknown> };
  assert.deepEqual(Object.keys(after.zero_optimization), ['stage', 'offload_param']);
});

test('an unquoted half-typed key (hjson style) is replaced and quoted', async () => {
  const { items, document } = await completeAt('{\n  "zero_optimization": {\n    offl|\n  }\n}');
  const edit = editOf(find(items, 'offload_param'));
  assert.equal(textIn(document, edit.range), 'offl');
  assert.ok(edit.newText.startsWith('"offload_param": '));
});

test('a key with a following property gets a trailing comma; a value before the cursor gets a leading one', async () => {
  const before = await completeAt('{\n  "zero_optimization": {\n    |\n    "stage": 3\n  }\n}');
  const item = find(before.items, 'overlap_comm');
  assert.ok(editOf(item).newText.endsWith(','));
  strictJson(applyItem(before.document, item));

  const after = await completeAt('{\n  "zero_optimization": {\n    "stage": 3\n    |\n  }\n}');
  const second = find(after.items, 'overlap_comm');
  assert.ok(!editOf(second).newText.endsWith(','));
  assert.deepEqual(second.additionalTextEdits?.map((e) => e.newText), [',']);
  assert.deepEqual(second.additionalTextEdits?.[0].range.start, { line: 2, character: 14 });
  strictJson(applyItem(after.document, second));
});

test('renaming a key that already has a value inserts the name only', async () => {
  const { items, document } = await completeAt('{\n  "zero_optimization": {\n    "overl|": true\n  }\n}');
  const item = find(items, 'overlap_comm');
  assert.equal(editOf(item).newText, '"overlap_comm"');
  assert.deepEqual(strictJson(applyItem(document, item)), { zero_optimization: { overlap_comm: true } });
});

test('aliases: the long or the short form present hides both', async () => {
  const short = await completeAt('{\n  "zero_optimization": {\n    "stage": 3,\n    "prefetch_bucket_size": 1000,\n    |\n  }\n}');
  assert.ok(!labels(short.items).includes('stage3_prefetch_bucket_size'));
  assert.ok(!labels(short.items).includes('prefetch_bucket_size'));
  const long = await completeAt('{\n  "zero_optimization": {\n    |\n    "stage3_max_live_parameters": 1000\n  }\n}');
  assert.ok(!labels(long.items).includes('max_live_parameters'));
  assert.ok(labels(long.items).includes('stage3_max_reuse_distance'));
  // Neither present: the long form sorts before its short alias.
  const names = labels(long.items);
  assert.ok(names.indexOf('stage3_prefetch_bucket_size') < names.indexOf('prefetch_bucket_size'));
  assert.match(find(long.items, 'prefetch_bucket_size').detail ?? '', /alias of stage3_prefetch_bucket_size/);
});

test('deprecated keys are tagged and sorted last; keys the stage ignores sort after the ones it uses', async () => {
  const { items } = await completeAt('{\n  "zero_optimization": {\n    "stage": 2,\n    |\n  }\n}');
  const cpuOffload = find(items, 'cpu_offload');
  assert.deepEqual(cpuOffload.tags, [CompletionItemTag.Deprecated]);
  const keyItems = items.filter((i) => i.kind === 10);
  assert.equal(keyItems[keyItems.length - 1].tags?.[0], CompletionItemTag.Deprecated);
  const names = labels(items);
  assert.ok(names.indexOf('allgather_bucket_size') < names.indexOf('stage3_max_live_parameters'), 'stage-2 keys before stage-3-only keys');
  assert.match(find(items, 'stage3_max_live_parameters').detail ?? '', /ignored at stage 2/);
});

test('values of stage: the default 0 first, then "auto", then 1–3 with what each shards', async () => {
  const { items } = await completeAt('{\n  "zero_optimization": {\n    "stage": |\n  }\n}');
  assert.deepEqual(labels(items), ['0', '"auto"', '1', '2', '3']);
  const three = find(items, '3');
  assert.match(typeof three.documentation === 'object' ? three.documentation.value : '', /parameters/);
  assert.match(find(items, '"auto"').detail ?? '', /accelerate/);
});

test('values after a typed colon get a space; values in quotes replace the whole string', async () => {
  const colon = await completeAt('{\n  "zero_optimization": {\n    "stage":|\n  }\n}');
  assert.equal(editOf(find(colon.items, '3')).newText, ' 3');
  const quoted = await completeAt('{\n  "zero_optimization": {"stage": 3, "offload_param": {"device": "c|"}}\n}');
  assert.deepEqual(labels(quoted.items), ['"none"', '"auto"', '"cpu"', '"nvme"']);
  const cpu = find(quoted.items, '"cpu"');
  assert.equal(textIn(quoted.document, editOf(cpu).range), '"c"');
  assert.deepEqual(strictJson(applyItem(quoted.document, cpu)), { zero_optimization: { stage: 3, offload_param: { device: 'cpu' } } });
  const nvme = find(quoted.items, '"nvme"');
  assert.match(typeof nvme.documentation === 'object' ? nvme.documentation.value : '', /nvme_path/);
});

test('booleans with "auto": bf16.enabled offers false (default), "auto", true', async () => {
  const { items } = await completeAt('{\n  "bf16": {"enabled": |}\n}');
  assert.deepEqual(labels(items), ['false', '"auto"', 'true']);
  assert.match(find(items, '"auto"').detail ?? '', /Hugging Face Trainer/);
});

test('batch size: "auto" offered with who fills it; a null default only where null is legal', async () => {
  const { items } = await completeAt('{\n  "train_batch_size": |\n}');
  assert.match(find(items, '"auto"').detail ?? '', /Hugging Face Trainer or accelerate/);
  const { items: clipping } = await completeAt('{\n  "gradient_clipping": |\n}');
  assert.deepEqual(labels(clipping).slice(0, 2), ['1', '"auto"']);
  const { items: loss } = await completeAt('{\n  "fp16": {"loss_scale": |}\n}');
  assert.ok(!labels(loss).includes('null'));
});

test('section snippets for the zero_optimization value come from the schema', async () => {
  const { items, document } = await completeAt('{\n  "zero_optimization": |\n}');
  for (const label of ['ZeRO-2', 'ZeRO-3', 'ZeRO-3 + CPU offload']) find(items, label);
  const offload = strictJson(applyItem(document, find(items, 'ZeRO-3 + CPU offload'))) as {
    zero_optimization: { stage: number; offload_param: { device: string }; offload_optimizer: { device: string } };
  };
  assert.equal(offload.zero_optimization.stage, 3);
  assert.equal(offload.zero_optimization.offload_param.device, 'cpu');
  assert.equal(offload.zero_optimization.offload_optimizer.device, 'cpu');
  assert.equal(items[items.length - 1].label, '{}');
});

test('top level: whole-section snippets for sections not yet present', async () => {
  const { items, document } = await completeAt('{\n  "train_micro_batch_size_per_gpu": 1,\n  |\n}');
  for (const label of ['ZeRO-2', 'ZeRO-3', 'ZeRO-3 + CPU offload', 'bf16 on', 'fp16 with dynamic loss scaling', 'AdamW', 'WarmupDecayLR', 'WarmupCosineLR']) find(items, label);
  const zero3 = find(items, 'ZeRO-3');
  assert.equal(zero3.labelDetails?.description, 'zero_optimization');
  const value = strictJson(applyItem(document, zero3)) as { zero_optimization: { stage: number } };
  assert.equal(value.zero_optimization.stage, 3);
  const adamw = strictJson(applyItem(document, find(items, 'AdamW'))) as { optimizer: { type: string } };
  assert.equal(adamw.optimizer.type, 'AdamW');

  const present = await completeAt('{\n  "zero_optimization": {"stage": 2},\n  |\n}');
  assert.ok(!labels(present.items).includes('ZeRO-3'), 'no second zero_optimization');
  assert.ok(!labels(present.items).includes('zero_optimization'));
});

test('optimizer and scheduler type values, and params that depend on the type', async () => {
  const types = await completeAt('{\n  "optimizer": {"type": "|"}\n}');
  const adamw = find(types.items, '"AdamW"');
  assert.match(typeof adamw.documentation === 'object' ? adamw.documentation.value : '', /decoupled weight decay/);
  const schedulers = await completeAt('{\n  "scheduler": {"type": |}\n}');
  for (const label of ['"WarmupLR"', '"WarmupDecayLR"', '"WarmupCosineLR"']) find(schedulers.items, label);

  const adam = await completeAt('{\n  "optimizer": {"type": "AdamW", "params": {"lr": 1e-5, |}}\n}');
  assert.ok(labels(adam.items).includes('adam_w_mode'));
  assert.ok(!labels(adam.items).includes('lr'));
  const lion = await completeAt('{\n  "optimizer": {"type": "Lion", "params": {|}}\n}');
  assert.ok(!labels(lion.items).includes('adam_w_mode'));
  assert.ok(labels(lion.items).includes('weight_decay'));
  const lr = await completeAt('{\n  "optimizer": {"type": "AdamW", "params": {"lr": |}}\n}');
  assert.deepEqual(labels(lr.items).slice(0, 2), ['0.001', '"auto"']);
});

test('an empty file offers the whole-config skeleton; comments and finished documents get nothing', async () => {
  const empty = await completeAt('|');
  assert.ok(empty.items.length >= 2);
  const config = strictJson(applyItem(empty.document, empty.items[0])) as Record<string, unknown>;
  assert.ok('zero_optimization' in config);
  assert.deepEqual((await completeAt('{\n  // a comm|ent\n  "stage": 1\n}')).items, []);
  assert.deepEqual((await completeAt('{"train_batch_size": 8}\n|')).items, []);
  assert.deepEqual((await completeAt('{\n  "unknown_section": {|}\n}')).items, []);
});

test('half-typed and broken JSON: never throws, always an array (property test over real presets)', async () => {
  const dir = path.resolve(__dirname, '../fixtures/presets');
  const texts = ['swift-zero3_offload.json', 'llamafactory-ds_z3_config.json', 'swift-zero2.json'].map((f) => readFileSync(path.join(dir, f), 'utf8'));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...texts),
      fc.nat(),
      fc.nat(),
      fc.string({ maxLength: 6 }),
      async (text, cutAt, cursorAt, insert) => {
        const cut = cutAt % (text.length + 1);
        const broken = text.slice(0, cut) + insert + text.slice(cut + Math.min(3, text.length - cut));
        const document = TextDocument.create('file:///ds_config.json', 'json', 1, broken);
        const items = await complete(parses, document, document.positionAt(cursorAt % (broken.length + 1)), defaultSettings);
        assert.ok(Array.isArray(items));
        for (const item of items) assert.ok(editOf(item).range.start.line === editOf(item).range.end.line, 'replace ranges stay on one line');
      },
    ),
    { numRuns: 400 },
  );
});

test('CRLF line ends and a BOM: ranges and commas land where they should', async () => {
  const text = '\ufeff{\r\n  "zero_optimization": {\r\n    "stage": 3\r\n    \r\n  }\r\n}\r\n';
  const document = TextDocument.create('file:///ds_config.json', 'json', 1, text);
  const items = await complete(parses, document, { line: 3, character: 4 }, defaultSettings);
  const item = find(items, 'offload_param');
  assert.deepEqual(editOf(item).range, { start: { line: 3, character: 4 }, end: { line: 3, character: 4 } });
  assert.deepEqual(item.additionalTextEdits?.[0].range.start, { line: 2, character: 14 });
  strictJson(applyItem(document, item).slice(1));
});

test('inside an empty section object, its snippets fill the members (the braces already exist)', async () => {
  const optimizer = await completeAt('{\n  "optimizer": {|}\n}');
  const adamw = find(optimizer.items, 'AdamW');
  assert.ok(editOf(adamw).newText.startsWith('"type": "AdamW",\n"params": {'));
  assert.deepEqual((strictJson(applyItem(optimizer.document, adamw)) as { optimizer: { type: string } }).optimizer.type, 'AdamW');
  const root = await completeAt('{\n  |\n}');
  const skeleton = root.items.find((i) => i.kind === 15 && i.label.startsWith('Minimal ZeRO-2'));
  assert.ok(skeleton, 'the whole-config skeleton is offered in an empty root object');
  assert.ok('zero_optimization' in (strictJson(applyItem(root.document, skeleton)) as object));
  const partial = await completeAt('{\n  "train_batch_size": 8,\n  |\n}');
  assert.ok(!partial.items.some((i) => i.label.startsWith('Minimal ZeRO-2')), 'not when one of its keys is present');
});

test('no whole-config snippet in front of an existing object', async () => {
  assert.deepEqual((await completeAt('|{\n  "train_batch_size": 8\n}')).items, []);
  assert.deepEqual((await completeAt('// header\n|\n{}')).items, []);
  assert.ok((await completeAt('// header\n|')).items.length > 0);
});
