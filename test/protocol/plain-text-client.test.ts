/**
 * Editors that show only plain text (some Vim and Emacs setups declare `hover.contentFormat: ['plaintext']` and
 * `completionItem.documentationFormat: ['plaintext']`, LSP 3.17 hover.md / completion.md) get hovers and
 * completion documentation as readable text; editors that declare Markdown get what they always did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { CompletionItem, CompletionList, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { fileUri, inEmptyWorkspace, type TestServer } from './lspClient';

const config = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 2,\n    \n  }\n}\n';
const settings = { model: 'Qwen/Qwen3-8B', gpusPerNode: 4, gpuMemoryGiB: 80 };

/** The stage hover and the documentation of `contiguous_gradients`, resolved when the list defers it. */
async function hoverAndDocs(server: TestServer, root: string): Promise<{ hover: MarkupContent; docs: MarkupContent }> {
  const uri = fileUri(path.join(root, 'ds_config.json'));
  await server.open(uri, 'json', config);
  const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 6 } });
  const list = await server.connection.sendRequest<CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 4, character: 4 } });
  const item = list.items.find((i) => i.label === 'contiguous_gradients');
  assert.ok(item, list.items.map((i) => i.label).join(', '));
  const resolved = item.documentation ? item : await server.connection.sendRequest<CompletionItem>('completionItem/resolve', { ...item, data: item.data ?? list.itemDefaults?.data });
  return { hover: hover?.contents as MarkupContent, docs: resolved.documentation as MarkupContent };
}

const resolving = { resolveSupport: { properties: ['documentation', 'detail'] } };

// LSP 3.17 hover.md lines 20-23, completion.md lines 51-54 (microsoft/language-server-protocol@60f2bb8): "The order
// describes the preferred format of the client", so ['plaintext', 'markdown'] asks for plain text.
test('a client that declares only plain text, or prefers it, gets the stage table and key docs as plain text, listed or resolved', async () => {
  for (const [formats, completionItem] of [[['plaintext'], {}], [['plaintext'], resolving], [['plaintext', 'markdown'], {}], [['plaintext', 'markdown'], resolving]] as const) {
    const textDocumentCapabilities = { hover: { contentFormat: formats }, completion: { completionItem: { snippetSupport: true, documentationFormat: formats, ...completionItem } } };
    await inEmptyWorkspace(async (server, root) => {
      const { hover, docs } = await hoverAndDocs(server, root);
      assert.equal(hover.kind, 'plaintext');
      assert.match(hover.value, /^ZeRO options for Qwen3-8B on 4 GPUs\n\n +Option +Per GPU/);
      assert.match(hover.value, /\n▶ +ZeRO-2 +\d+\.\d GiB/);
      assert.match(hover.value, /\nzero_optimization\.stage\n\nWhich ZeRO stage to use/);
      assert.doesNotMatch(hover.value, /\*\*|`|\|---|\]\(/);
      assert.equal(docs.kind, 'plaintext');
      assert.match(docs.value, /^zero_optimization\.contiguous_gradients\n\nCopy gradients .* DeepSpeed docs \(https:\/\/www\.deepspeed\.ai\/docs\/config-json\/#zero-optimizations-for-fp16-training\)/);
      assert.doesNotMatch(docs.value, /\*\*|`|\]\(/);
    }, { settings, textDocumentCapabilities });
  }
});

test('a client that declares Markdown (or says nothing) gets Markdown, as before', async () => {
  const answers: { hover: MarkupContent; docs: MarkupContent }[] = [];
  for (const textDocumentCapabilities of [
    { hover: { contentFormat: ['markdown', 'plaintext'] }, completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } } },
    { hover: {}, completion: { completionItem: { snippetSupport: true } } },
  ]) {
    await inEmptyWorkspace(async (server, root) => void answers.push(await hoverAndDocs(server, root)), { settings, textDocumentCapabilities });
  }
  for (const { hover, docs } of answers) {
    assert.equal(hover.kind, 'markdown');
    assert.match(hover.value, /\| ▶ \| \*\*ZeRO-2\*\* \|/);
    assert.match(hover.value, /\*\*`zero_optimization\.stage`\*\*/);
    assert.equal(docs.kind, 'markdown');
    assert.match(docs.value, /\*\*`zero_optimization\.contiguous_gradients`\*\*/);
  }
  assert.deepEqual(answers[0], answers[1]);
});
