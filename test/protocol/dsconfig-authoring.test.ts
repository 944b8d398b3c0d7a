import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, CompletionList, Hover, MarkupContent } from 'vscode-languageserver-types';
import { startServer } from './lspClient';

// Completion and hover for a ds_config.json through the real bundled server over stdio.
test('ds_config completion inside zero_optimization and hover on stage, over stdio', async () => {
  const server = await startServer();
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config.json';
    const text = '{\n  "zero_optimization": {\n    "stage": 3,\n    \n  }\n}\n';
    await server.open(uri, 'json', text);

    const completion = await server.connection.sendRequest<CompletionList | CompletionItem[] | null>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 3, character: 4 },
    });
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    const offload = items.find((i) => i.label === 'offload_optimizer');
    assert.ok(offload, `offload_optimizer offered; got ${items.map((i) => i.label).slice(0, 20).join(', ')}`);
    assert.equal(offload.insertTextFormat, 2);
    assert.ok(offload.textEdit && 'range' in offload.textEdit);
    assert.equal(offload.textEdit.newText, '"offload_optimizer": {\n\t$1\n}');
    assert.ok(!items.some((i) => i.label === 'stage'), 'the present key is not offered again');

    const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 2, character: 6 },
    });
    assert.ok(hover, 'hover on "stage"');
    const markdown = (hover.contents as MarkupContent).value;
    assert.equal((hover.contents as MarkupContent).kind, 'markdown');
    assert.match(markdown, /zero_optimization\.stage/);
    assert.match(markdown, /shard/i);
    assert.deepEqual(hover.range, { start: { line: 2, character: 4 }, end: { line: 2, character: 11 } });
  } finally {
    await server.stop();
  }
});

// VS Code's client resolves documentation lazily and reads list defaults (LSP 3.17): the list is lean and
// `completionItem/resolve` brings the documentation of the focused item.
test('an editor like VS Code gets a lean completion list and resolves documentation and detail, over stdio', async () => {
  const server = await startServer({
    textDocumentCapabilities: {
      completion: {
        completionItem: { snippetSupport: true, documentationFormat: ['markdown'], resolveSupport: { properties: ['documentation', 'detail'] } },
        completionList: { itemDefaults: ['editRange', 'insertTextFormat', 'data'] },
      },
    },
  });
  try {
    assert.equal(server.capabilities.completionProvider?.resolveProvider, true);
    const uri = 'file:///tmp/zero-lens-protocol/lean/ds_config.json';
    const text = '{\n  "zero_optimization": {\n    "stage": 3,\n    \n  }\n}\n';
    await server.open(uri, 'json', text);
    const list = await server.connection.sendRequest<CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 3, character: 4 } });
    assert.deepEqual(list.itemDefaults?.editRange, { start: { line: 3, character: 4 }, end: { line: 3, character: 4 } });
    assert.ok(list.itemDefaults?.data, 'the list names where it was computed, once');
    const offload = list.items.find((i) => i.label === 'offload_optimizer');
    assert.ok(offload && offload.documentation === undefined && offload.detail === undefined && offload.textEdit === undefined);
    assert.equal(list.itemDefaults?.insertTextFormat, 2, 'snippets, said once for the list');
    assert.equal(offload.textEditText, '"offload_optimizer": {\n\t$1\n}');

    // The client fills the list's data into the item before resolving it, as vscode-languageclient does.
    const resolved = await server.connection.sendRequest<CompletionItem>('completionItem/resolve', { ...offload, data: list.itemDefaults.data });
    assert.equal((resolved.documentation as MarkupContent).kind, 'markdown');
    assert.match((resolved.documentation as MarkupContent).value, /offload_optimizer/);
    assert.match(resolved.detail ?? '', /object/);
    assert.equal(resolved.textEditText, offload.textEditText);
  } finally {
    await server.stop();
  }
});

test('hover under a disabled elasticity block says DeepSpeed ignores it, and the edit that enables it clears that, over stdio', async () => {
  const server = await startServer();
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_elastic.json';
    const text = '{\n  "elasticity": {\n    "enabled": false,\n    "min_gpus": 2\n  }\n}\n';
    await server.open(uri, 'json', text);
    const hoverOn = async () => {
      const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 7 } });
      assert.ok(hover, 'hover on "min_gpus"');
      return (hover.contents as MarkupContent).value;
    };
    assert.match(await hoverOn(), /\*\*Elasticity is off\*\*.*DeepSpeed ignores this block/);
    await server.change(uri, 2, text.replace('"enabled": false', '"enabled": true '));
    const on = await hoverOn();
    assert.match(on, /elasticity\.min_gpus/);
    assert.doesNotMatch(on, /Elasticity is off/);
  } finally {
    await server.stop();
  }
});
