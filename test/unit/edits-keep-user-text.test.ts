/**
 * Every edit ZeRO Lens makes keeps what the user wrote around it byte for byte: line ends, a BOM, a missing final
 * newline, comments. Each case here is an edit producer that did not, found by running the producers over the
 * corpus's files in CRLF, tab, BOM, no-final-newline and Chinese-comment variants.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type ParseError } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { applyEdits, doc, service, settings } from './launch-helpers';
import { decodeSettingsFile, encodeSettingsFile } from '../../client/src/sidebar/settingsFile';
import { settingsEdit } from '../../server/src/settingsEdit';

const loneLf = /(^|[^\r])\n/;

/** The text after the quick fix titled `title` (of any diagnostic). */
async function afterFix(name: string, text: string, title: RegExp, files: Record<string, string> = {}): Promise<string> {
  const { ls } = service(files);
  const document = doc(name, text);
  const diagnostics = await ls.doValidation(document, settings());
  const actions: CodeAction[] = [];
  for (const d of diagnostics) actions.push(...(await ls.getCodeActions(document, d.range, { diagnostics: [d], only: ['quickfix'] }, settings())));
  const action = actions.find((a) => title.test(a.title));
  assert.ok(action, `no fix ${title} among ${actions.map((a) => a.title).join(', ')} for ${diagnostics.map((d) => d.code).join(', ')}`);
  return applyEdits(document, action.edit!.changes![document.uri]);
}

test('a variable moved before a continued command keeps CRLF line ends', async () => {
  const text = 'CUDA_VISIBLE_DEVICES=0,1 \\\r\nswift sft \\\r\n    --model Qwen/Qwen3-8B \\\r\n    NPROC_PER_NODE=2 \\\r\n    --deepspeed zero3\r\n';
  const after = await afterFix('train.sh', text, /^Move NPROC_PER_NODE before the command$/);
  assert.equal(after, 'CUDA_VISIBLE_DEVICES=0,1 \\\r\nNPROC_PER_NODE=2 \\\r\nswift sft \\\r\n    --model Qwen/Qwen3-8B \\\r\n    --deepspeed zero3\r\n');
});

test('"Add NPROC_PER_NODE" on its own continued line keeps CRLF line ends, and LF ones in an LF script', async () => {
  const text = 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --deepspeed zero3\n';
  const crlf = await afterFix('train.sh', text.replace(/\n/g, '\r\n'), /^Add NPROC_PER_NODE=4$/);
  assert.doesNotMatch(crlf, loneLf);
  assert.equal(crlf, 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\\r\nNPROC_PER_NODE=4 \\\r\nswift sft \\\r\n    --model Qwen/Qwen3-8B \\\r\n    --deepspeed zero3\r\n');
  assert.equal(await afterFix('train.sh', text, /^Add NPROC_PER_NODE=4$/), 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nNPROC_PER_NODE=4 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --deepspeed zero3\n');
});

/** An item's edits with each tab stop at its default, for `TextDocument.applyEdits` (the LSP's order). */
function itemEdits(item: CompletionItem): TextEdit[] {
  const main = item.textEdit as TextEdit;
  const filled = main.newText.replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1').replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/(: |\[)\$\d+/g, '$10').replace(/\$\d+/g, '').replace(/\\([$}\\])/g, '$1');
  return [{ range: main.range, newText: filled }, ...(item.additionalTextEdits ?? [])];
}

test('a key completed right after a value (no comma yet) gives valid JSON: the comma is not a second edit at the same place', async () => {
  const { ls } = service();
  // The last one offers bf16's own snippets, which fill in members of the open object.
  for (const text of ['{\n  "fp16": {\n    "enabled": true\n  }\n}\n', '{\r\n\t"zero_optimization": {\r\n\t\t"stage": 2\r\n\t}\r\n}', '{"bf16": {"comment": {}}}']) {
    const document = TextDocument.create('file:///ws/ds_config.json', 'json', 1, text);
    // Right after the `}` that closes the section (right after a literal, completion edits the literal).
    const position = document.positionAt(text.lastIndexOf('}', text.lastIndexOf('}') - 1) + 1);
    const list = await ls.doComplete(document, position, settings());
    assert.ok(list.items.length > 5, `${list.items.length} items`);
    for (const item of list.items) {
      const edits = itemEdits(item);
      const at = document.offsetAt(edits[0].range.start);
      // LSP 3.16 CompletionItem.additionalTextEdits: "Edits must not overlap (including the same insert position) with the main edit".
      for (const extra of edits.slice(1)) assert.notEqual(document.offsetAt(extra.range.start), at, `"${item.label}" has a second edit at its insert position`);
      const errors: ParseError[] = [];
      const after = TextDocument.applyEdits(document, edits);
      parse(after, errors, { allowTrailingComma: true });
      assert.deepEqual(errors, [], `"${item.label}": ${JSON.stringify(after)}`);
    }
  }
});

test('removing the last entry of a launcher YAML without a final newline leaves the file without one', async () => {
  const head = '# 加速配置\ndistributed_type: DEEPSPEED  # 分布式\nnum_processes: 8\n';
  assert.equal(await afterFix('acc.yaml', `${head}num_procesess: 8`, /^Remove num_procesess$/), head.slice(0, -1));
  assert.equal(await afterFix('acc.yaml', `${head}num_procesess: 8\n`, /^Remove num_procesess$/), head);
  const crlf = head.replace(/\n/g, '\r\n');
  assert.equal(await afterFix('acc.yaml', `${crlf}num_procesess: 8`, /^Remove num_procesess$/), crlf.slice(0, -2));
  // A section (a block mapping) that ends the file.
  const section = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\nmixed_precision: bf16';
  assert.equal(await afterFix('acc.yaml', section, /^Remove 'mixed_precision'$/, { 'ds.json': '{"zero_optimization": {"stage": 2}}' }), 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json');
});

/** The text an editor shows for a file: without its BOM (VS Code's model drops it and writes it back on save). */
const opened = (text: string) => text.replace(/^\ufeff/, '');

test('"Switch stage" from a script edits a config or ms-swift YAML with a BOM where the editor, which drops the BOM, has the value', async () => {
  const config = '\ufeff{"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 1}\n';
  const yaml = '\ufeffdeepspeed: zero2\nmodel: Qwen/Qwen3-8B\n';
  const { ls } = service({ 'ds.json': config, 'sft.yaml': yaml });
  const zero3 = { stage: 3, offloadOptimizer: 'none', offloadParam: 'none' } as const;

  const script = doc('train.sh', 'deepspeed --num_gpus 8 train.py --deepspeed ds.json --model_name_or_path Qwen/Qwen3-8B\n');
  const toConfig = await ls.getApplyOptionEdit(script, { uri: script.uri, ...zero3 }, settings());
  const [configUri] = Object.keys(toConfig.edit!.changes!);
  const configDocument = TextDocument.create(configUri, 'json', 1, opened(config));
  assert.equal(TextDocument.applyEdits(configDocument, toConfig.edit!.changes![configUri]), opened(config).replace('"stage": 2', '"stage": 3'));

  const swift = doc('run.sh', 'swift sft sft.yaml\n');
  const toYaml = await ls.getApplyOptionEdit(swift, { uri: swift.uri, ...zero3 }, settings());
  const [yamlUri] = Object.keys(toYaml.edit!.changes!);
  const yamlDocument = TextDocument.create(yamlUri, 'yaml', 1, opened(yaml));
  assert.equal(TextDocument.applyEdits(yamlDocument, toYaml.edit!.changes![yamlUri]), opened(yaml).replace('zero2', 'zero3'));
});

test("the sidebar's write to a .vscode/settings.json that is not open keeps its BOM, CRLF and comments", () => {
  // What writeFolderSettings does: read the bytes, ask the server for the edit, write the bytes.
  const write = (file: string, value: number) => {
    const text = decodeSettingsFile(new TextEncoder().encode(file));
    const { edit } = settingsEdit({ text, key: 'zeroLens.gpusPerNode', value });
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(encodeSettingsFile(text, edit!));
  };
  const file = '\ufeff{\r\n\t// 训练上下文\r\n\t"editor.tabSize": 2\r\n}';
  assert.equal(write(file, 4), '\ufeff{\r\n\t// 训练上下文\r\n\t"editor.tabSize": 2,\r\n\t"zeroLens.gpusPerNode": 4\r\n}');
  // A file holding nothing but its BOM gets the object after the BOM.
  assert.equal(write('\ufeff', 4), '\ufeff{\n  "zeroLens.gpusPerNode": 4\n}');
});

/** The text after completing `label` where `|` marks the cursor. */
async function completed(name: string, marked: string, label: string, files: Record<string, string> = {}): Promise<string> {
  const { ls } = service(files);
  const offset = marked.indexOf('|');
  const document = doc(name, marked.slice(0, offset) + marked.slice(offset + 1));
  const list = await ls.doComplete(document, document.positionAt(offset), settings());
  const item = list.items.find((i) => i.label === label || i.label === `'${label}'`);
  assert.ok(item, `no ${label} among ${list.items.map((i) => i.label).join(', ')}`);
  const edit = (item.textEdit as TextEdit | undefined) ?? { range: list.itemDefaults!.editRange as TextEdit['range'], newText: item.textEditText ?? item.label };
  return TextDocument.applyEdits(document, [edit, ...(item.additionalTextEdits ?? [])]);
}

test('a YAML value completed inside quotes stays inside them (the opening quote was replaced, the closing one left)', async () => {
  assert.equal(await completed('sft.yaml', 'model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: "zer|"\n', 'zero3'), 'model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: "zero3"\n');
  assert.equal(await completed('sft.yaml', "model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: 'zer|'\r\n", 'zero3'), "model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: 'zero3'\r\n");
  // In quotes `no` is already the string accelerate wants: no second pair of quotes.
  assert.equal(await completed('acc.yaml', 'distributed_type: DEEPSPEED\nmixed_precision: "|"\n', 'no'), 'distributed_type: DEEPSPEED\nmixed_precision: "no"\n');
  assert.equal(await completed('acc.yaml', 'distributed_type: DEEPSPEED\nmixed_precision: |\n', 'no'), "distributed_type: DEEPSPEED\nmixed_precision: 'no'\n");
  assert.equal(await completed('acc.yaml', 'distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: "FU|" # 中文\n', 'FULL_SHARD'), 'distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: "FULL_SHARD" # 中文\n');
  assert.equal(await completed('acc.yaml', "distributed_type: 'FS|'\nfsdp_config:\n  fsdp_version: 2\n", 'FSDP'), "distributed_type: 'FSDP'\nfsdp_config:\n  fsdp_version: 2\n");
});

test('a config path with a space, completed after --deepspeed, stays one shell word', async () => {
  const files = { 'deepspeed/zero 3.json': '{"zero_optimization": {"stage": 3}}' };
  assert.equal(await completed('train.sh', 'deepspeed train.py --deepspeed |\n', './deepspeed/zero 3.json', files), "deepspeed train.py --deepspeed './deepspeed/zero 3.json'\n");
  // Inside quotes the user opened, the path goes in as it is.
  assert.equal(await completed('train.sh', 'deepspeed train.py --deepspeed "./dee|"\n', './deepspeed/zero 3.json', files), 'deepspeed train.py --deepspeed "./deepspeed/zero 3.json"\n');
});

test('an FSDP config path with a space, completed after --fsdp_config, stays one shell word', async () => {
  const files = { 'fsdp/my fsdp.json': '{"fsdp_version": 2}' };
  assert.equal(
    await completed('train.sh', 'python train.py --output_dir out --fsdp full_shard --fsdp_config |\n', './fsdp/my fsdp.json', files),
    "python train.py --output_dir out --fsdp full_shard --fsdp_config './fsdp/my fsdp.json'\n",
  );
});

test('an fsdp_config key completed where a key already has its value renames the key only (it wrote a second colon)', async () => {
  const head = 'distributed_type: FSDP\r\nfsdp_config:\r\n  fsdp_version: 2\r\n';
  assert.equal(await completed('acc.yaml', `${head}  fsdp_sh|: FULL_SHARD # 中文\r\n`, 'fsdp_sharding_strategy'), `${head}  fsdp_sharding_strategy: FULL_SHARD # 中文\r\n`);
  assert.equal(await completed('acc.yaml', `${head}  fsdp_sh|arding: FULL_SHARD\r\n`, 'fsdp_sharding_strategy'), `${head}  fsdp_sharding_strategy: FULL_SHARD\r\n`);
  // A new key gets its colon.
  assert.equal(await completed('acc.yaml', `${head}  fsdp_sh|\r\n`, 'fsdp_sharding_strategy'), `${head}  fsdp_sharding_strategy: \r\n`);
});

test('a comment moved out of a continued command is indented like the command it now stands above', async () => {
  const text = 'if true; then\r\n    deepspeed --num_gpus 8 train.py \\\r\n        # 模型\r\n        --deepspeed ds.json \\\r\n        --model_name_or_path Qwen/Qwen3-8B\r\nfi\r\n';
  assert.equal(
    await afterFix('train.sh', text, /^Move the comment above the command$/),
    'if true; then\r\n    # 模型\r\n    deepspeed --num_gpus 8 train.py \\\r\n        --deepspeed ds.json \\\r\n        --model_name_or_path Qwen/Qwen3-8B\r\nfi\r\n',
  );
});

test('a flag completed with the cursor inside it replaces the whole flag, not the part before the cursor only', async () => {
  assert.equal(await completed('train.sh', 'swift sft --model Qwen/Qwen3-8B --max_len|gth 4096 \\\r\n    --deepspeed zero2\r\n', '--max_length'), 'swift sft --model Qwen/Qwen3-8B --max_length 4096 \\\r\n    --deepspeed zero2\r\n');
  assert.equal(await completed('train.sh', 'swift sft --model Qwen/Qwen3-8B --max_len|\n', '--max_length'), 'swift sft --model Qwen/Qwen3-8B --max_length\n');
});

test('a YAML value completed with the cursor inside it replaces the whole value', async () => {
  assert.equal(await completed('sft.yaml', 'model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: zer|o2 # 注释\n', 'zero3'), 'model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: zero3 # 注释\n');
  assert.equal(await completed('sft.yaml', 'model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: "zer|o2"\n', 'zero3'), 'model: Qwen/Qwen3-8B\ntrain_type: lora\ndeepspeed: "zero3"\n');
  assert.equal(await completed('acc.yaml', 'distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: FU|LL\n', 'FULL_SHARD'), 'distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: FULL_SHARD\n');
});

test('a config path completed as a YAML value stays one value where plain YAML would cut it (" #" starts a comment)', async () => {
  const files = { 'ds/z3 #1.json': '{"zero_optimization": {"stage": 3}}', 'ds/z3.json': '{"zero_optimization": {"stage": 3}}' };
  const head = 'model_name_or_path: Qwen/Qwen3-8B\nstage: sft\nfinetuning_type: full\n';
  assert.equal(await completed('lf.yaml', `${head}deepspeed: |\n`, './ds/z3 #1.json', files), `${head}deepspeed: './ds/z3 #1.json'\n`);
  assert.equal(await completed('lf.yaml', `${head}deepspeed: |\n`, './ds/z3.json', files), `${head}deepspeed: ./ds/z3.json\n`);
  assert.equal(await completed('lf.yaml', `${head}deepspeed: "|"\n`, './ds/z3 #1.json', files), `${head}deepspeed: "./ds/z3 #1.json"\n`);
});
