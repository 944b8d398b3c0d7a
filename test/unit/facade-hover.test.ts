import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { MarkupContent } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { missing, type FileSystemHost } from '../../server/src/host';

const noDisk: FileSystemHost = {
  readFile: async () => missing,
  readBytes: async () => missing,
  exists: async () => false,
  listDir: async () => undefined,
};

test('hover on "stage" shows the memory table first, then the key docs, over the key range', async () => {
  const text = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n';
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 4, gpuMemoryGiB: 80 });
  const offset = text.indexOf('"stage"') + 2;
  const hover = await getLanguageService({ fs: noDisk }).doHover(document, document.positionAt(offset), settings);
  const markdown = (hover?.contents as MarkupContent).value;
  const table = markdown.indexOf('ZeRO options for Qwen3-8B');
  const docs = markdown.indexOf('**`zero_optimization.stage`**');
  assert.ok(table >= 0 && docs > table, 'the estimate table comes before the key documentation');
  const keyStart = document.positionAt(text.indexOf('"stage"'));
  assert.deepEqual(hover?.range, { start: keyStart, end: { line: keyStart.line, character: keyStart.character + '"stage"'.length } });
});

test('the stage table is built once per version: a new version with another stage gets its own', async () => {
  const text = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n';
  const service = getLanguageService({ fs: noDisk });
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 4, gpuMemoryGiB: 80 });
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
  const at = document.positionAt(text.indexOf('"stage"') + 2);
  const table = async () => ((await service.doHover(document, at, settings))?.contents as MarkupContent).value;
  const first = await table();
  assert.equal(await table(), first);
  assert.match(first, /\| ▶ \| \*\*ZeRO-2\*\* \|/);
  const stageDigit = text.indexOf('"stage": 2') + '"stage": '.length;
  TextDocument.update(document, [{ range: { start: document.positionAt(stageDigit), end: document.positionAt(stageDigit + 1) }, text: '3' }], 2);
  const after = await table();
  assert.match(after, /\| ▶ \| \*\*ZeRO-3\*\* \|/);
  assert.doesNotMatch(after, /\| ▶ \| \*\*ZeRO-2\*\* \|/);
});
