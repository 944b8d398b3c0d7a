import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentSymbol, FoldingRange, SelectionRange, TextEdit } from 'vscode-languageserver-protocol';
import { startServer } from './lspClient';
import { poll } from '../e2e/support/poll';

// Format, outline, folding and Expand Selection for ds_config documents, through the bundled server over stdio.

const dynamicCapabilities = {
  formatting: { dynamicRegistration: true },
  rangeFormatting: { dynamicRegistration: true },
  documentSymbol: { dynamicRegistration: true, hierarchicalDocumentSymbolSupport: true },
  foldingRange: { dynamicRegistration: true, rangeLimit: 5000 },
  selectionRange: { dynamicRegistration: true },
};
const methods = ['textDocument/formatting', 'textDocument/rangeFormatting', 'textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/selectionRange'];
const config = '{\n// ZeRO-3\n"zero_optimization":{"stage":3,"offload_param":{"device":"cpu"}},\n"bf16":{"enabled":true}}';

test('an editor that registers dynamically gets the JSON basics for the ds-config language only, and json files none', async () => {
  const server = await startServer({ textDocumentCapabilities: dynamicCapabilities });
  try {
    for (const provider of ['documentFormattingProvider', 'documentRangeFormattingProvider', 'documentSymbolProvider', 'foldingRangeProvider', 'selectionRangeProvider'] as const) {
      assert.equal(server.capabilities[provider], undefined, `${provider} is registered later, not announced for every document`);
    }
    const registrations = await poll(async () => server.registrations(), (r) => methods.every((m) => r.some((x) => x.method === m)), { timeoutMs: 5000, pauseMs: 20 });
    for (const method of methods) {
      const registration = registrations.find((r) => r.method === method);
      assert.deepEqual((registration?.registerOptions as { documentSelector?: unknown })?.documentSelector, [{ language: 'ds-config' }], method);
    }

    const uri = 'file:///tmp/zero-lens-basics/ds_config.json';
    await server.open(uri, 'ds-config', config);
    const edits = await server.connection.sendRequest<TextEdit[]>('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    const formatted = TextDocument.applyEdits(TextDocument.create(uri, 'ds-config', 1, config), edits);
    assert.equal(formatted, '{\n  // ZeRO-3\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": {\n      "device": "cpu"\n    }\n  },\n  "bf16": {\n    "enabled": true\n  }\n}');

    const symbols = await server.connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(symbols.map((s) => [s.name, (s.children ?? []).map((c) => c.name)]), [['zero_optimization', ['stage', 'offload_param']], ['bf16', ['enabled']]]);

    const jsonUri = 'file:///tmp/zero-lens-basics/other.json';
    await server.open(jsonUri, 'json', config);
    const none = await server.connection.sendRequest<TextEdit[]>('textDocument/formatting', { textDocument: { uri: jsonUri }, options: { tabSize: 2, insertSpaces: true } });
    assert.deepEqual(none, [], 'a json file is left to VS Code\'s JSON support');
  } finally {
    await server.stop();
  }
});

test('an editor without dynamic registration is offered none of them: its own JSON support keeps the file', async () => {
  const server = await startServer();
  try {
    for (const provider of ['documentFormattingProvider', 'documentRangeFormattingProvider', 'documentSymbolProvider', 'foldingRangeProvider', 'selectionRangeProvider'] as const) {
      assert.equal(server.capabilities[provider], undefined, provider);
    }
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(server.registrations().filter((r) => methods.includes(r.method)), []);
  } finally {
    await server.stop();
  }
});

test('folding and Expand Selection of a ds-config document, as VS Code asks for them', async () => {
  const server = await startServer({ textDocumentCapabilities: dynamicCapabilities });
  try {
    const uri = 'file:///tmp/zero-lens-basics/ds_config_zero3.json';
    const formatted = '{\n  "zero_optimization": {\n    "stage": 3\n  }\n}';
    await server.open(uri, 'ds-config', formatted);
    const folding = await server.connection.sendRequest<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
    assert.deepEqual(folding, [{ startLine: 0, endLine: 3 }, { startLine: 1, endLine: 2 }]);
    const [selection] = await server.connection.sendRequest<SelectionRange[]>('textDocument/selectionRange', { textDocument: { uri }, positions: [{ line: 2, character: 14 }] });
    assert.deepEqual(selection.range, { start: { line: 2, character: 13 }, end: { line: 2, character: 14 } }, 'the stage value');
    assert.deepEqual(selection.parent?.range, { start: { line: 2, character: 4 }, end: { line: 2, character: 14 } }, 'then its pair');
    const range = await server.connection.sendRequest<TextEdit[]>('textDocument/rangeFormatting', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 4, character: 1 } },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.deepEqual(range, [], 'a formatted file needs no edits');
  } finally {
    await server.stop();
  }
});
