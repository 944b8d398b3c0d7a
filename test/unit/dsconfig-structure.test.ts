import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SymbolKind, type DocumentSymbol, type SelectionRange, type TextEdit } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { missing, type FileSystemHost } from '../../server/src/host';
import { configSymbols } from '../../server/src/dsconfig/structure/documentSymbols';
import { parseConfigText } from '../../server/src/dsconfig/parse';

const noDisk: FileSystemHost = {
  readFile: async () => missing,
  readBytes: async () => missing,
  exists: async () => false,
  listDir: async () => undefined,
};
const service = () => getLanguageService({ fs: noDisk });
const configOf = (text: string, uri = 'file:///w/ds_config.json') => TextDocument.create(uri, 'ds-config', 1, text);
const applied = (document: TextDocument, edits: TextEdit[]) => TextDocument.applyEdits(document, edits);

// A config as people paste it: one line per section, comments, a trailing comma, Python's NaN.
const messy = '{\n// ZeRO-2 on 8 GPUs\n"train_micro_batch_size_per_gpu":"auto","zero_optimization":{"stage":2, /* keep */ "overlap_comm":true,},\n"gradient_clipping": NaN}';

test('Format Document indents with the editor\'s options and changes nothing but whitespace', () => {
  const document = configOf(messy);
  const formatted = applied(document, service().format(document, undefined, { tabSize: 2, insertSpaces: true }));
  assert.equal(
    formatted,
    '{\n  // ZeRO-2 on 8 GPUs\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": {\n    "stage": 2, /* keep */\n    "overlap_comm": true,\n  },\n  "gradient_clipping": NaN\n}',
  );
  assert.equal(formatted.replace(/\s+/g, ''), messy.replace(/\s+/g, ''), 'only whitespace changed: comments, the trailing comma and NaN stay');
  const tabs = applied(document, service().format(document, undefined, { tabSize: 4, insertSpaces: false, insertFinalNewline: true }));
  assert.match(tabs, /^\{\n\t\/\/ ZeRO-2 on 8 GPUs\n\t"train_micro_batch_size_per_gpu"/);
  assert.match(tabs, /\n\t\t"stage": 2,/);
  assert.ok(tabs.endsWith('}\n'), 'insertFinalNewline adds the last line break');
});

test('Format Document keeps the file\'s CRLF line ends; formatting a formatted file changes nothing', () => {
  const document = configOf('{"a":1,\r\n"b":{"c":[1,2]}}');
  const formatted = applied(document, service().format(document, undefined, { tabSize: 2, insertSpaces: true }));
  assert.equal(formatted, '{\r\n  "a": 1,\r\n  "b": {\r\n    "c": [\r\n      1,\r\n      2\r\n    ]\r\n  }\r\n}');
  assert.deepEqual(service().format(configOf(formatted), undefined, { tabSize: 2, insertSpaces: true }), []);
  const withFinalBreak = configOf('{"a":1}\r\n');
  assert.equal(applied(withFinalBreak, service().format(withFinalBreak, undefined, { tabSize: 2, insertSpaces: true })), '{\r\n  "a": 1\r\n}\r\n', 'the final line break stays');
});

test('Format Selection changes only the selected lines', () => {
  const text = '{\n"a":   1,\n"b":{"c":2}\n}';
  const document = configOf(text);
  const line2 = { start: { line: 2, character: 0 }, end: { line: 2, character: 11 } };
  const formatted = applied(document, service().format(document, line2, { tabSize: 2, insertSpaces: true }));
  assert.ok(formatted.includes('"a":   1,'), 'the first key, outside the selection, is as written');
  // Indented from where the selection starts, as VS Code's JSON formatter does.
  assert.equal(formatted, '{\n"a":   1,\n"b": {\n  "c": 2\n}\n}');
});

test('a file too big to parse is not formatted', () => {
  const huge = configOf(`{"a": "${'x'.repeat(4 * 1024 * 1024)}"}`);
  assert.deepEqual(service().format(huge, undefined, { tabSize: 2, insertSpaces: true }), []);
});

test('the outline lists every key nested as in the file, with kinds, a scalar\'s value and the key as selection', async () => {
  const text = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": { "device": "cpu" }\n  },\n  "betas": [0.9, 0.95],\n  "x": null\n}\n';
  const document = configOf(text);
  const symbols = await service().getDocumentSymbols(document);
  const shape = (s: DocumentSymbol): unknown => [s.name, s.kind, s.detail ?? '', (s.children ?? []).map(shape)];
  assert.deepEqual(symbols.map(shape), [
    ['bf16', SymbolKind.Module, '', [['enabled', SymbolKind.Boolean, 'true', []]]],
    ['zero_optimization', SymbolKind.Module, '', [['stage', SymbolKind.Number, '3', []], ['offload_param', SymbolKind.Module, '', [['device', SymbolKind.String, '"cpu"', []]]]]],
    ['betas', SymbolKind.Array, '', [['0', SymbolKind.Number, '0.9', []], ['1', SymbolKind.Number, '0.95', []]]],
    ['x', SymbolKind.Null, 'null', []],
  ]);
  const stage = symbols[1].children![0];
  assert.equal(document.getText(stage.range), '"stage": 3');
  assert.equal(document.getText(stage.selectionRange), '"stage"');
});

test('the outline lists duplicate keys as written, cuts long values, and stops at its limit', async () => {
  const document = configOf(`{"a": 1, "a": 2, "s": "${'y'.repeat(100)}"}`);
  const symbols = configSymbols(document, parseConfigText(document.getText()));
  assert.deepEqual(symbols.map((s) => s.name), ['a', 'a', 's']);
  assert.equal(symbols[2].detail?.length, 60);
  assert.ok(symbols[2].detail?.endsWith('…'));
  const many = configOf(`{${Array.from({ length: 50 }, (_, i) => `"k${i}": {"v": ${i}}`).join(',')}}`);
  const limited = configSymbols(many, parseConfigText(many.getText()), 30);
  const count = (list: DocumentSymbol[]): number => list.reduce((n, s) => n + 1 + count(s.children ?? []), 0);
  assert.equal(count(limited), 30);
  assert.deepEqual(await service().getDocumentSymbols(configOf('not json')), []);
});

test('folding: objects and arrays over several lines (closing line visible) and block comments, outer first', async () => {
  const text = '{\n  /* a note\n     over two lines */\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": {\n      "device": "cpu"\n    }\n  },\n  "betas": [0.9, 0.95]\n}\n';
  const ranges = await service().getFoldingRanges(configOf(text));
  assert.deepEqual(ranges, [
    { startLine: 1, endLine: 2, kind: 'comment' },
    { startLine: 0, endLine: 9 },
    { startLine: 3, endLine: 7 },
    { startLine: 5, endLine: 6 },
  ]);
  assert.equal((await service().getFoldingRanges(configOf(text), 2)).length, 2, 'the limit keeps the first (outer) ranges');
});

test('Expand Selection goes from a string\'s contents to the string, the pair, the object, its pair and the document', async () => {
  const text = '{\n  "zero_optimization": {\n    "offload_param": { "device": "cpu" }\n  }\n}';
  const document = configOf(text);
  const [chain] = await service().getSelectionRanges(document, [document.positionAt(text.indexOf('cpu') + 1)]);
  const texts: string[] = [];
  for (let r: SelectionRange | undefined = chain; r; r = r.parent) texts.push(document.getText(r.range));
  assert.deepEqual(texts, [
    'cpu',
    '"cpu"',
    '"device": "cpu"',
    '{ "device": "cpu" }',
    '"offload_param": { "device": "cpu" }',
    '{\n    "offload_param": { "device": "cpu" }\n  }',
    '"zero_optimization": {\n    "offload_param": { "device": "cpu" }\n  }',
    text,
  ]);
  const [atNumberEnd] = await service().getSelectionRanges(configOf('{"stage": 3}'), [{ line: 0, character: 11 }]);
  assert.equal(atNumberEnd.range.start.character, 10, 'a cursor right after a value selects the value first');
});

test('the outline of a 2 MB config lets the event loop run while it is parsed, and a newer version makes it give up', async () => {
  const keys = Array.from({ length: 40_000 }, (_, i) => `  "key_${i}": { "value": ${i}, "note": "${'n'.repeat(20)}" }`);
  const document = configOf(`{\n${keys.join(',\n')}\n}\n`);
  assert.ok(document.getText().length > 2 * 1024 * 1024);
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const symbols = await service().getDocumentSymbols(document);
  ticking = false;
  const count = (list: DocumentSymbol[]): number => list.reduce((n, s) => n + 1 + count(s.children ?? []), 0);
  assert.equal(count(symbols), 5000, 'the outline stops at its limit');
  assert.ok(turns >= 3, `the event loop ran ${turns} times during the parse`);
  const stale = configOf(document.getText());
  const pending = service().getDocumentSymbols(stale);
  TextDocument.update(stale, [{ text: '{}' }], 2);
  assert.deepEqual(await pending, [], 'a parse overtaken by a newer version answers nothing');
});
