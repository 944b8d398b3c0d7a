/**
 * FSDP and model-parallel launch files through the real bundled server over stdio: an accelerate FSDP YAML gets
 * completion of `fsdp_config` keys and values, a diagnostic with its fix, and a documented hover; a `megatron sft`
 * script gets completion of its parallel sizes and a diagnostic when they do not divide the GPUs; a Trainer FSDP
 * config file gets a diagnostic on its key with its fix, key completion and a hover.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { CompletionItem, CompletionList, Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-types';
import { fileUri, inEmptyWorkspace, openedDiagnostics, quickFixes, type TestServer } from './lspClient';

async function complete(server: TestServer, uri: string, line: number, character: number): Promise<CompletionItem[]> {
  const list = await server.connection.sendRequest<CompletionList | CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: { line, character } });
  return Array.isArray(list) ? list : list.items;
}

test('accelerate FSDP YAML over stdio: key and value completion, a diagnostic with its fix, a hover with docs links', async () => {
  await inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'fsdp.yaml'));
    const text = 'distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\n  fsdp_reshard_after_forward: FULL_SHARD\n  fsdp_\nnum_processes: 2\n';
    const diagnostics = await openedDiagnostics(server, uri, 'yaml', text);
    const invalid = diagnostics.find((d: Diagnostic) => d.code === 'fsdp-invalid-value');
    assert.ok(invalid, diagnostics.map((d) => d.code).join());
    assert.equal(invalid.range.start.line, 3);
    assert.match(String(invalid.codeDescription?.href), /huggingface\/accelerate\/blob\/16cb6eb8/);
    const fixes = await quickFixes(server, uri, invalid);
    assert.deepEqual(fixes.map((f) => f.title), ['Change to true']);

    const keys = (await complete(server, uri, 4, 7)).map((i) => i.label);
    assert.ok(keys.includes('fsdp_offload_params') && keys.includes('fsdp_state_dict_type'), keys.join());
    assert.ok(!keys.includes('fsdp_version'), 'written already');
    const values = await complete(server, uri, 0, 22);
    assert.deepEqual(values.map((i) => i.label), ['DEEPSPEED', 'FSDP']);

    const hover = await server.connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 6 } });
    const markdown = (hover.contents as MarkupContent).value;
    assert.match(markdown, /\*\*fsdp_reshard_after_forward\*\*/);
    assert.match(markdown, /\(https:\/\/huggingface\.co\/docs\/accelerate\//);
  });
});

test('a Trainer FSDP config file over stdio: a diagnostic on its key with the rename fix, key completion, a hover', async () => {
  await inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'fsdp_config.json'));
    const text = '{\n  "transformer_layer_cls_to_wrap": "LlamaDecoderLayer",\n  "use_orig_param": true,\n  \n}\n';
    const diagnostics = await openedDiagnostics(server, uri, 'json', text);
    const unknown = diagnostics.find((d: Diagnostic) => d.code === 'fsdp-unknown-key');
    assert.ok(unknown, diagnostics.map((d) => d.code).join());
    assert.deepEqual([unknown.range.start.line, unknown.range.start.character], [2, 2]);
    const fixes = await quickFixes(server, uri, unknown);
    assert.deepEqual(fixes.map((f) => f.title), ['Rename to "use_orig_params"']);

    const keys = (await complete(server, uri, 3, 2)).map((i) => i.label);
    assert.ok(keys.includes('backward_prefetch') && keys.includes('state_dict_type'), keys.join());
    const hover = await server.connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 5 } });
    assert.match((hover.contents as MarkupContent).value, /^\*\*transformer_layer_cls_to_wrap\*\*/);
  });
});

test('megatron sft script over stdio: parallel-size flag completion and a divisibility diagnostic', async () => {
  await inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'train.sh'));
    const text = 'NPROC_PER_NODE=8 megatron sft --model Qwen/Qwen2.5-7B-Instruct --tensor_model_parallel_size 2 --context_parallel_size 3 --pipe\n';
    const diagnostics = await openedDiagnostics(server, uri, 'shellscript', text);
    const mismatch = diagnostics.find((d: Diagnostic) => d.code === 'parallel-sizes-gpu-mismatch');
    assert.ok(mismatch, diagnostics.map((d) => d.code).join());
    assert.match(String(mismatch.message), /8 GPUs \(NPROC_PER_NODE\) cannot be split into model-parallel groups of TP 2 × PP 1 × CP 3 = 6/);
    assert.match(String(mismatch.codeDescription?.href), /Megatron-LM\/blob\/d98e8a64[0-9a-f]*\/megatron\/core\/parallel_state\.py/);

    const items = await complete(server, uri, 0, text.indexOf('--pipe') + 6);
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('--pipeline_model_parallel_size') && labels.includes('--expert_model_parallel_size'), labels.join());
    const hover = await server.connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: text.indexOf('--tensor') + 4 } });
    assert.match((hover.contents as MarkupContent).value, /^\*\*--tensor_model_parallel_size\*\* \(megatron sft\)/);
  });
});
