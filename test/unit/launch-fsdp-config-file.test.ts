/**
 * An FSDP config file as a document of its own: a Trainer `--fsdp_config` JSON and an ms-swift `--fsdp` JSON are
 * recognised by name or content, get the checks the script's flag runs on them shown on their keys (with the
 * rename fix), completion of keys and values written as JSON, hover, and their messages in Chinese; a script
 * that names such a file is checked again when it changes. The two
 * real files of the corpus (test/corpus, kind `fsdp-config`) get no diagnostic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CompletionItem, MarkupContent, TextEdit } from 'vscode-languageserver-types';
import { classifyDocument } from '../../server/src/classify';
import { applyEdits, codes, doc, fixed, service, settings } from './launch-helpers';

const json = (name: string, text: string) => doc(name, text, 'json');

test('an FSDP config file is recognised by its name or a key only FSDP configs have, and nothing else is', () => {
  const kind = (name: string, text: string) => classifyDocument(json(name, text), settings());
  assert.equal(kind('fsdp_config.json', '{"transformer_layer_cls_to_wrap": "LlamaDecoderLayer"}'), 'fsdp-config');
  assert.equal(kind('fsdp_config.json', ''), 'fsdp-config', 'a new, empty file by its name');
  assert.equal(kind('wrap.json', '{"fsdp_transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"]}'), 'fsdp-config');
  assert.equal(kind('offload.json', '{"fsdp": "full_shard auto_wrap offload", "fsdp_config": {"fsdp_version": 2}}'), 'fsdp-config');
  // An accelerate config in JSON (`distributed_type`) stays a launcher config; DeepSpeed's own
  // `activation_checkpointing` is not an FSDP key; an ms-swift argument file that names the model is not a config.
  assert.equal(kind('fsdp_accelerate.json', '{"distributed_type": "FSDP", "fsdp_config": {"fsdp_version": 2}}'), 'launch-yaml');
  assert.equal(kind('ckpt.json', '{"activation_checkpointing": {"partition_activations": true}}'), null);
  assert.equal(kind('args.json', '{"model": "Qwen/Qwen2.5-7B", "fsdp": "full_shard", "fsdp_config": {}}'), null);
  assert.equal(kind('fsdp_zero.json', '{"zero_optimization": {"stage": 3}}'), 'ds-config');
});

const trainerFile = `{
  "transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"],
  "backward_prefech": "backward_pre",
  "min_num_params": 100000000,
  "sync_module_states": false,
  "fsdp_cpu_ram_efficient_loading": true
}
`;

test('a Trainer --fsdp_config file: each finding on its key, a misspelt key renamed by its fix, conflicts with their raising lines', async () => {
  const { ls } = service();
  const document = json('fsdp_config.json', trainerFile);
  const diagnostics = await ls.doValidation(document, settings());
  assert.deepEqual(codes(diagnostics), ['fsdp-conflicting-options', 'fsdp-ram-efficient-loading-without-sync', 'fsdp-unknown-key']);
  const at = (code: string) => {
    const d = diagnostics.find((x) => x.code === code)!;
    return trainerFile.slice(document.offsetAt(d.range.start), document.offsetAt(d.range.end));
  };
  assert.equal(at('fsdp-unknown-key'), '"backward_prefech"');
  assert.equal(at('fsdp-conflicting-options'), '"transformer_layer_cls_to_wrap"');
  assert.equal(at('fsdp-ram-efficient-loading-without-sync'), '"fsdp_cpu_ram_efficient_loading"');
  assert.match(String(diagnostics.find((x) => x.code === 'fsdp-unknown-key')!.message), /Did you mean `backward_prefetch`\?/);
  assert.match(String(diagnostics.find((x) => x.code === 'fsdp-conflicting-options')!.codeDescription?.href), /transformers\/blob\/v4\.57\.6\/src\/transformers\/training_args\.py#L1977-L1982/);
  assert.equal(fixed(document, diagnostics, 'fsdp-unknown-key'), trainerFile.replace('"backward_prefech"', '"backward_prefetch"'));
  const actions = await ls.getCodeActions(document, diagnostics[0].range, { diagnostics }, settings());
  assert.deepEqual(actions.map((a) => a.title), ['Rename to "backward_prefetch"']);
});

test('an ms-swift --fsdp file: its words checked inside their string with the fix, keys its FSDP version does not read', async () => {
  const text = '{\n  "fsdp": "full_shard auto_wrp",\n  "fsdp_config": {\n    "fsdp_version": 2,\n    // prefetch is FSDP1\n    "backward_prefetch": "backward_pre",\n    "reshard_after_forward": true\n  }\n}\n';
  const { ls } = service();
  const document = json('fsdp2.json', text);
  const diagnostics = await ls.doValidation(document, settings());
  // The comment is not JSON: ms-swift's json.load stops there, and the keys are still checked as the editor shows them.
  assert.deepEqual(codes(diagnostics), ['fsdp-ignored-by-version', 'fsdp-invalid-value', 'fsdp-invalid-value']);
  const word = diagnostics.find((d) => String(d.message).includes('auto_wrp'))!;
  assert.equal(text.slice(document.offsetAt(word.range.start), document.offsetAt(word.range.end)), 'auto_wrp');
  const syntax = diagnostics.find((d) => String(d.message).includes('not valid JSON'))!;
  assert.equal(syntax.range.start.line, 4);
  assert.match(String(syntax.codeDescription?.href), /ms-swift\/blob\/[0-9a-f]+\/swift\/arguments\/sft_args\.py/);
  assert.equal(fixed(document, [word], 'fsdp-invalid-value', 'Change to auto_wrap'), text.replace('auto_wrp', 'auto_wrap'));
  const version = diagnostics.find((d) => d.code === 'fsdp-ignored-by-version')!;
  assert.equal(version.range.start.line, 5);
  assert.match(String(version.message), /`backward_prefetch` is an FSDP1 option and this FSDP config runs FSDP2/);
});

function labels(items: CompletionItem[] | undefined): string[] {
  return (items ?? []).map((i) => i.label);
}

test('an ms-swift --fsdp file may set ms-swift\'s own `activation_cpu_offload`; a Trainer --fsdp_config file may not', async () => {
  const { ls } = service();
  const swiftFile = json('fsdp2.json', JSON.stringify({ fsdp: 'full_shard auto_wrap', fsdp_config: { fsdp_version: 2, activation_cpu_offload: true } }));
  assert.deepEqual(codes(await ls.doValidation(swiftFile, settings())), []);
  const trainerOnly = json('fsdp_config.json', JSON.stringify({ transformer_layer_cls_to_wrap: 'LlamaDecoderLayer', activation_cpu_offload: true }));
  assert.deepEqual(codes(await ls.doValidation(trainerOnly, settings())), ['fsdp-unknown-key']);
});

test('completion writes JSON: a key with its quotes and colon, values quoted or bare as the option takes them', async () => {
  const { ls } = service();
  const text = '{\n  "transformer_layer_cls_to_wrap": "LlamaDecoderLayer",\n  \n  "backward_prefetch": "",\n  "forward_prefetch": \n}\n';
  const document = json('fsdp_config.json', text);
  const list = async (offset: number) => (await ls.doComplete(document, document.positionAt(offset), settings()))?.items;
  const keys = await list(text.indexOf('  \n') + 2);
  assert.ok(labels(keys).includes('use_orig_params') && labels(keys).includes('state_dict_type'), labels(keys).join());
  assert.ok(!labels(keys).includes('transformer_layer_cls_to_wrap'), 'written already');
  const orig = keys!.find((i) => i.label === 'use_orig_params')!;
  assert.equal(applyEdits(document, [orig.textEdit as TextEdit]), text.replace('  \n', '  "use_orig_params": \n'));
  const prefetch = await list(text.indexOf('""') + 1);
  assert.deepEqual(labels(prefetch), ['backward_pre', 'backward_post', 'no_prefetch']);
  assert.equal(applyEdits(document, [prefetch![1].textEdit as TextEdit]), text.replace('""', '"backward_post"'));
  const bools = await list(text.indexOf('"forward_prefetch": ') + '"forward_prefetch": '.length);
  assert.deepEqual(bools!.map((i) => (i.textEdit as TextEdit).newText), ['true', 'false']);

  const swift = json('fsdp2.json', '{\n  "fsdp": "full_shard",\n  \n}\n');
  const top = (await ls.doComplete(swift, { line: 2, character: 2 }, settings()))?.items;
  assert.deepEqual(labels(top), ['fsdp_config']);
});

test('hover on a key documents the option, in Chinese for a Chinese reader; a value has none', async () => {
  const { ls } = service();
  const document = json('fsdp_config.json', trainerFile);
  const at = (needle: string) => document.positionAt(trainerFile.indexOf(needle) + 3);
  const hover = await ls.doHover(document, at('"min_num_params"'), settings());
  const markdown = (hover?.contents as MarkupContent).value;
  assert.match(markdown, /^\*\*min_num_params\*\*/);
  assert.match(markdown, /\[Documentation\]\(https:\/\/huggingface\.co\/docs\/transformers\//);
  assert.equal(await ls.doHover(document, at('"backward_pre"'), settings()), null);
  const zh = await ls.doHover(document, at('"min_num_params"'), settings({ language: 'zh-cn' }));
  assert.match((zh?.contents as MarkupContent).value, /[\u4e00-\u9fff]/);
  const zhDiagnostics = await ls.doValidation(document, settings({ language: 'zh-cn' }));
  for (const d of zhDiagnostics) assert.match(String(d.message), /[\u4e00-\u9fff]/, String(d.message));
});

test('a script that names an FSDP config file is checked again when that file changes', async () => {
  const { ls } = service({ 'fsdp_config.json': '{"transformer_layer_cls_to_wrap": "LlamaDecoderLayer", "bogus": 1}' });
  const script = doc('train.sh', 'torchrun --nproc_per_node 2 train.py --fsdp "full_shard auto_wrap" --fsdp_config fsdp_config.json\n');
  assert.deepEqual(codes(await ls.doValidation(script, settings())), ['fsdp-unknown-key']);
  assert.deepEqual(ls.filesChanged([json('fsdp_config.json', '').uri]), [script.uri]);
});

test('the real FSDP config files of the corpus get no diagnostic', async () => {
  const corpus = path.resolve(__dirname, '../corpus');
  const entries = (JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string; kind: string }[]).filter((e) => e.kind === 'fsdp-config');
  assert.ok(entries.length >= 2);
  const { ls } = service();
  for (const e of entries) {
    const document = json(path.basename(e.file), readFileSync(path.join(corpus, e.file), 'utf8'));
    assert.equal(classifyDocument(document, settings()), 'fsdp-config', e.file);
    assert.deepEqual(await ls.doValidation(document, settings()), [], e.file);
  }
});
