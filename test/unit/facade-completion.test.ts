import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionItem, CompletionList, MarkupContent } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { inlineCompletion, type CompletionClientSupport } from '../../server/src/completionList';
import { withDefaults } from '../../server/src/settings';
import { missing, type FileSystemHost } from '../../server/src/host';

const noDisk: FileSystemHost = {
  readFile: async () => missing,
  readBytes: async () => missing,
  exists: async () => false,
  listDir: async () => undefined,
};
const settings = withDefaults({});
const vscodeLike: CompletionClientSupport = {
  resolveDocumentation: true,
  resolveDetail: true,
  defaultEditRange: true,
  defaultData: true,
  defaultInsertTextFormat: true,
  snippets: true,
};
const text = '{\n  "zero_optimization": {\n    "stage": 3,\n    ""\n  }\n}\n';
const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
const position = document.positionAt(text.indexOf('""') + 1);

/** What an editor does with a list: item defaults filled into each item. */
function asEditorSees(list: CompletionList): CompletionItem[] {
  return list.items.map((item) => ({
    ...item,
    data: item.data ?? list.itemDefaults?.data,
    insertTextFormat: item.insertTextFormat ?? list.itemDefaults?.insertTextFormat,
    textEdit: item.textEdit ?? (list.itemDefaults?.editRange && 'start' in list.itemDefaults.editRange
      ? { range: list.itemDefaults.editRange, newText: item.textEditText ?? item.label }
      : undefined),
  }));
}

test('an editor that resolves documentation gets a lean list and the same text edits', async () => {
  const full = await getLanguageService({ fs: noDisk }).doComplete(document, position, settings);
  const lean = await getLanguageService({ fs: noDisk, completion: vscodeLike }).doComplete(document, position, settings);
  assert.ok(full.items.length > 5 && full.items.every((item) => item.documentation !== undefined), 'the inline list documents every key');
  assert.ok(lean.items.every((item) => item.documentation === undefined && item.detail === undefined && item.textEdit === undefined));
  assert.ok(lean.itemDefaults?.editRange && lean.itemDefaults.data && lean.itemDefaults.insertTextFormat, 'shared range, format and origin, once');
  const edits = (items: CompletionItem[]) => items.map((item) => [item.label, item.textEdit, item.insertTextFormat]);
  assert.deepEqual(edits(asEditorSees(lean)), edits(full.items));
  assert.ok(JSON.stringify(lean).length < JSON.stringify(full).length / 4, 'under a quarter of the bytes on the wire');
});

test('resolve fills in the documentation and detail of the item the user looks at', async () => {
  const service = getLanguageService({ fs: noDisk, completion: vscodeLike });
  const items = asEditorSees(await service.doComplete(document, position, settings));
  const offload = items.find((item) => item.label === 'offload_optimizer');
  assert.ok(offload, 'offload_optimizer is offered inside zero_optimization');
  const resolved = await service.resolveCompletion(document, offload, settings);
  assert.match((resolved.documentation as MarkupContent).value, /offload_optimizer/);
  assert.match(resolved.detail ?? '', /object/);
  assert.deepEqual({ ...resolved, documentation: undefined, detail: undefined }, { ...offload, documentation: undefined, detail: undefined }, 'nothing else changes');
});

test('resolve leaves items alone that carry no origin or belong to another document', async () => {
  const service = getLanguageService({ fs: noDisk, completion: vscodeLike });
  const plain: CompletionItem = { label: 'stage' };
  assert.deepEqual(await service.resolveCompletion(document, plain, settings), plain);
  const items = asEditorSees(await service.doComplete(document, position, settings));
  const other = TextDocument.create('file:///w/other/ds_config.json', 'ds-config', 1, text);
  assert.equal((await service.resolveCompletion(other, items[0], settings)).documentation, undefined);
});

test('without item defaults each item carries its own origin and range', async () => {
  const support: CompletionClientSupport = { ...inlineCompletion, resolveDocumentation: true };
  const list = await getLanguageService({ fs: noDisk, completion: support }).doComplete(document, position, settings);
  assert.equal(list.itemDefaults, undefined);
  assert.ok(list.items.every((item) => item.data && item.textEdit && item.insertTextFormat && item.detail && item.documentation === undefined));
});
