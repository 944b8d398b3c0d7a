import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { findProperty, findValue, maxNestingDepth, maxParsedLength, parseConfigText } from '../../server/src/dsconfig/parse';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

// getNodeValue builds prototype-less objects (safe with a "__proto__" key); compare them as JSON data.
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

test('parses JSONC: comments and trailing commas are recorded, the value is plain data', () => {
  const text = '{\n  // bf16 on A100\n  "bf16": {"enabled": true,},\n  /* zero */ "zero_optimization": {"stage": 2},\n}';
  const parsed = parseConfigText(text);
  assert.deepEqual(plain(parsed.value), { bf16: { enabled: true }, zero_optimization: { stage: 2 } });
  assert.deepEqual(parsed.syntaxErrors, []);
  assert.deepEqual(
    parsed.comments.map((c) => text.substr(c.offset, c.length)),
    ['// bf16 on A100', '/* zero */'],
  );
  assert.deepEqual(
    parsed.trailingCommas.map((c) => text[c.offset]),
    [',', ','],
  );
  assert.equal(text.slice(parsed.trailingCommas[0].offset + 1, parsed.trailingCommas[0].offset + 2), '}');
});

test('duplicate keys: the last value wins (as in a Python dict) and both key nodes are reported', () => {
  const text = '{"train_batch_size": 8, "zero_optimization": {"stage": 1, "stage": 3}, "train_batch_size": 16}';
  const parsed = parseConfigText(text);
  assert.deepEqual(plain(parsed.value), { train_batch_size: 16, zero_optimization: { stage: 3 } });
  assert.deepEqual(
    parsed.duplicateKeys.map((d) => [d.path, text.substr(d.keyNode.offset, d.keyNode.length), d.firstKeyNode.offset < d.keyNode.offset]),
    [
      [['zero_optimization', 'stage'], '"stage"', true],
      [['train_batch_size'], '"train_batch_size"', true],
    ],
  );
  // findProperty / findValue follow the same last-wins rule.
  assert.equal(findValue(parsed.root, ['train_batch_size'])?.value, 16);
  assert.equal(findValue(parsed.root, ['zero_optimization', 'stage'])?.value, 3);
  assert.equal(findProperty(parsed.root, ['missing']), undefined);
});

test('syntax errors come with clear English messages and exact offsets', () => {
  const text = '{"stage": 3 "offload": }';
  const parsed = parseConfigText(text);
  assert.ok(parsed.syntaxErrors.length >= 2);
  const comma = parsed.syntaxErrors.find((e) => /Expected ','/.test(e.message));
  assert.ok(comma, JSON.stringify(parsed.syntaxErrors));
  assert.equal(text.substr(comma.offset, comma.length), '"offload"');
  assert.ok(parsed.syntaxErrors.some((e) => /Expected a value/.test(e.message) && text[e.offset] === '}'));
  assert.match(parseConfigText('{"lr": .5}').syntaxErrors[0].message, /not a valid JSON number|Unexpected '\.5'/);
  assert.match(parseConfigText('{"a": "open').syntaxErrors[0].message, /Unterminated string/);
});

test('an empty file says so', () => {
  const parsed = parseConfigText('   \n');
  assert.equal(parsed.root, undefined);
  assert.match(parsed.syntaxErrors[0].message, /empty/);
});

test('a BOM is recorded and does not shift offsets or break parsing', () => {
  const parsed = parseConfigText('\ufeff{"fp16": {"enabled": false}}');
  assert.equal(parsed.hasBom, true);
  assert.deepEqual(parsed.syntaxErrors, []);
  assert.deepEqual(plain(parsed.value), { fp16: { enabled: false } });
  assert.equal(parsed.root?.offset, 1);
});

test(`nesting deeper than ${maxNestingDepth} levels is refused with a limit, without recursion`, () => {
  const deep = '['.repeat(10_000) + ']'.repeat(10_000);
  const parsed = parseConfigText(deep);
  assert.equal(parsed.root, undefined);
  assert.equal(parsed.limits[0].kind, 'too-deep');
  assert.equal(parsed.limits[0].offset, maxNestingDepth);
  const objects = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  assert.equal(parseConfigText(objects).limits[0].kind, 'too-deep');
  // Just under the limit still parses.
  assert.notEqual(parseConfigText('['.repeat(maxNestingDepth) + ']'.repeat(maxNestingDepth)).root, undefined);
});

test(`files above ${maxParsedLength} characters are skipped with a limit`, () => {
  const huge = '{"a": "' + 'x'.repeat(10 * 1024 * 1024) + '"}';
  const parsed = parseConfigText(huge);
  assert.equal(parsed.root, undefined);
  assert.equal(parsed.limits[0].kind, 'too-large');
  assert.match(parsed.limits[0].message, /10\.0 MB/);
});

test('parseConfig caches per document version', () => {
  const a = TextDocument.create('file:///c/ds_config.json', 'ds-config', 1, '{"stage": 1}');
  assert.equal(parses.parse(a), parses.parse(a));
  const b = TextDocument.update(a, [{ text: '{"stage": 2}' }], 2);
  assert.deepEqual(plain(parses.parse(b).value), { stage: 2 });
});

test('binary bytes never throw', () => {
  const bytes = Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 65536)).join('');
  const parsed = parseConfigText(bytes);
  assert.ok(parsed.syntaxErrors.length > 0 || parsed.limits.length > 0);
});

test("a huge config's parse asks to release memory once its tree is compacted; a small one, or an edited value, does not", () => {
  let asked = 0;
  const parses = new ConfigParses(() => asked++);
  const layer = (i: number) => `{"name": "layer_${i}", "stage": 3}`;
  const huge = `{"layers": [${Array.from({ length: 40_000 }, (_, i) => layer(i)).join(', ')}]}`;
  assert.ok(huge.length >= 1024 * 1024, String(huge.length));
  const document = TextDocument.create('file:///tmp/huge.json', 'json', 1, huge);
  assert.ok(parses.parse(document).root);
  assert.equal(asked, 1);
  // A keystroke inside one value copies the tree (no new parser arrays): nothing to release.
  const at = huge.indexOf('"stage": 3') + '"stage": '.length;
  TextDocument.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + 1) }, text: '2' }], 2);
  assert.equal((parses.parse(document).value as { layers: { stage: number }[] }).layers[0].stage, 2);
  assert.equal(asked, 1);
  parses.parse(TextDocument.create('file:///tmp/small.json', 'json', 1, layer(0)));
  assert.equal(asked, 1);
});
