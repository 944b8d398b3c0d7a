import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { formattingOf, minimalEdit, removeProperty, renameKey, setValue } from '../../server/src/util/jsonEdits';

const lines = (...l: string[]) => l.join('\n');

test('remove: the last or only entry, inline entries; comments on other lines stay', () => {
  const last = lines('{', '  "stage": 2, // sharded grads', '  "offload_param": {"device": "cpu"}', '}');
  assert.equal(removeProperty(last, ['offload_param']), lines('{', '  "stage": 2 // sharded grads', '}'));
  const commented = lines('{', '  "stage": 2,', '  "x": 1, // about x', '  "y": 2', '}');
  assert.equal(removeProperty(commented, ['x']), lines('{', '  "stage": 2,', '  // about x', '  "y": 2', '}'));
  assert.equal(removeProperty('{"a": 1, "b": 2, "c": 3}', ['b']), '{"a": 1, "c": 3}');
  assert.equal(removeProperty('{"a": 1, "b": 2}', ['b']), '{"a": 1}');
  assert.equal(removeProperty('{"z": {"only": 1}}', ['z', 'only']), '{"z": {}}');
  assert.equal(removeProperty('{"z": {"only": 1 /* keep */}}', ['z', 'only']), '{"z": { /* keep */}}');
  assert.equal(removeProperty('{"a": 1}', ['missing']), undefined);
});

test('remove withLineComment: a // comment on the entry\'s own line goes with it; own-line comments stay', () => {
  const text = lines('{', '  // about the block', '  "a": 1, // about a', '  "b": 2, /* about b */', '  "c": 3 // about c', '}');
  assert.equal(removeProperty(text, ['a'], { withLineComment: true }), lines('{', '  // about the block', '  "b": 2, /* about b */', '  "c": 3 // about c', '}'));
  assert.equal(removeProperty(text, ['c'], { withLineComment: true }), lines('{', '  // about the block', '  "a": 1, // about a', '  "b": 2 /* about b */', '}'));
  // Only line comments describe the entry; a block comment after it is kept where it was.
  assert.equal(removeProperty(text, ['b'], { withLineComment: true }), lines('{', '  // about the block', '  "a": 1, // about a', '  /* about b */', '  "c": 3 // about c', '}'));
  assert.equal(removeProperty(lines('{', '  "only": 1 // gone', '}'), ['only'], { withLineComment: true }), '{}');
  // Sharing the line with another entry, the comment may describe that one: it stays.
  assert.equal(removeProperty(lines('{', '  "a": 1, "b": 2, // a and b', '  "c": 3', '}'), ['b'], { withLineComment: true }), lines('{', '  "a": 1, // a and b', '  "c": 3', '}'));
});

test('remove keeps the file\'s trailing-comma style and its CRLF line ends', () => {
  assert.equal(removeProperty('{"device": "nvme", "nvme_path": "/nvme", "ratio": 0.5,}', ['ratio']), '{"device": "nvme", "nvme_path": "/nvme",}');
  assert.equal(removeProperty(lines('{', '  "a": 1,', '  "b": 2,', '}'), ['b']), lines('{', '  "a": 1,', '}'));
  assert.equal(removeProperty('{\r\n  "a": 1,\r\n  "b": 2\r\n}', ['b']), '{\r\n  "a": 1\r\n}');
  assert.equal(removeProperty('{\r\n  "a": 1, // one\r\n  "b": 2\r\n}', ['a'], { withLineComment: true }), '{\r\n  "b": 2\r\n}');
});

test('remove: duplicates follow DeepSpeed (last object on the path), the first of a repeated key goes', () => {
  assert.equal(removeProperty('{"a": 1, "a": 2}', ['a']), '{"a": 2}');
  assert.equal(removeProperty('{"z": {"k": 1}, "z": {"k": 2, "m": 3}}', ['z', 'k']), '{"z": {"k": 1}, "z": {"m": 3}}');
});

test('set: inserting after a trailing comment or comma, nesting missing objects, refusing a non-object in the way', () => {
  const format = { insertSpaces: true, tabSize: 2, eol: '\n' };
  assert.equal(setValue(lines('{', '  "a": 1, // one', '}'), ['b'], 2, format), lines('{', '  "a": 1, // one', '  "b": 2,', '}'));
  assert.equal(setValue(lines('{', '  "a": 1 // one', '}'), ['b'], true, format), lines('{', '  "a": 1, // one', '  "b": true', '}'));
  assert.equal(setValue('{}', ['zero_optimization', 'stage'], 3, format), lines('{', '  "zero_optimization": {', '    "stage": 3', '  }', '}'));
  assert.equal(setValue('{"zero_optimization": true}', ['zero_optimization', 'stage'], 3, format), undefined);
  // The last of duplicated keys is the one DeepSpeed reads, so that is the one set.
  assert.equal(setValue('{"a": 1, "a": 2}', ['a'], 3, format), '{"a": 1, "a": 3}');
});

test('set follows the file: tabs, CRLF, one-line objects, a BOM, comments in an otherwise empty object', () => {
  assert.equal(setValue('{\r\n\t"a": {\r\n\t\t"b": 1\r\n\t}\r\n}', ['a', 'c'], { d: true }), '{\r\n\t"a": {\r\n\t\t"b": 1,\r\n\t\t"c": {\r\n\t\t\t"d": true\r\n\t\t}\r\n\t}\r\n}');
  assert.equal(setValue('{"z": {"stage": 1}, "n": 4}', ['z', 'offload'], { device: 'cpu', pin: [1, 2] }), '{"z": {"stage": 1, "offload": {"device": "cpu", "pin": [1, 2]}}, "n": 4}');
  assert.equal(setValue('{"a": 1,}', ['b'], 2), '{"a": 1, "b": 2,}');
  // The last entry starts a line but shares it with the closing brace: still inline, never after the brace.
  assert.equal(setValue('{"z": {"a": 1,\n  "b": 2}}', ['z', 'c'], 3), '{"z": {"a": 1,\n  "b": 2, "c": 3}}');
  assert.equal(setValue('\ufeff{"a": 1}', ['a'], 2), '\ufeff{"a": 2}');
  assert.equal(setValue(lines('{', '  "z": { // nothing yet', '  }', '}'), ['z', 'stage'], 2), lines('{', '  "z": { // nothing yet', '    "stage": 2', '  }', '}'));
  assert.equal(setValue(lines('{', '  "z": {', '  }', '}'), ['z', 'stage'], 2), lines('{', '  "z": {', '    "stage": 2', '  }', '}'));
});

test('rename changes only the key token (the last duplicate); a missing key gives undefined', () => {
  assert.equal(renameKey('{"z": {"stgae": 2 /* keep */}}', ['z', 'stgae'], 'stage'), '{"z": {"stage": 2 /* keep */}}');
  assert.equal(renameKey('{"a": 1, "a": 2}', ['a'], 'b'), '{"a": 1, "b": 2}');
  assert.equal(renameKey('{"a": 1}', ['b'], 'c'), undefined);
});

test('formattingOf reads indentation and line ends from the file', () => {
  assert.deepEqual(formattingOf('{\r\n\t"a": 1\r\n}'), { insertSpaces: false, tabSize: 4, eol: '\r\n' });
  assert.deepEqual(formattingOf('{\n    "a": {\n        "b": 1\n    }\n}'), { insertSpaces: true, tabSize: 4, eol: '\n' });
  assert.deepEqual(formattingOf('{}'), { insertSpaces: true, tabSize: 2, eol: '\n' });
  assert.deepEqual(formattingOf('{\n   \n\n  "a": {\n    "b": 1\n  }\n}'), { insertSpaces: true, tabSize: 2, eol: '\n' }, 'a line of blanks says nothing');
  assert.deepEqual(formattingOf('{\n \t"a": 1\n}'), { insertSpaces: true, tabSize: 2, eol: '\n' }, 'an indent that starts with a space is spaces');
  const huge = '{\n   "a": [\n' + '      1,\n'.repeat(20_000) + '\t\t1\r\n]}';
  assert.deepEqual(formattingOf(huge), { insertSpaces: true, tabSize: 3, eol: '\n' }, 'only the first 64 KiB are read');
});

test('minimalEdit replaces only the changed span and never splits a CRLF or a surrogate pair', () => {
  const apply = (before: string, after: string) => {
    const document = TextDocument.create('file:///x.json', 'json', 1, before);
    const edit = minimalEdit(document, before, after);
    assert.equal(TextDocument.applyEdits(document, [edit]), after);
    return edit;
  };
  assert.deepEqual(apply('{"a": 1}', '{"a": 2}'), { range: { start: { line: 0, character: 6 }, end: { line: 0, character: 7 } }, newText: '2' });
  assert.equal(apply('a\r\nb', 'a\nb').range.start.line, 0);
  assert.equal(apply('x😀', 'x😁').newText, '😁');
  fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (before, after) => void apply(before, after)));
});

/** A JSON object laid out like a hand-written config, with line comments after some entries. */
const commentedObject = fc
  .tuple(
    fc.dictionary(fc.constantFrom('stage', 'offload_param', 'device', 'lr', 'betas', 'enabled', 'x', 'y'), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 6 }),
    fc.constantFrom<string | number>(2, 4, '\t'),
    fc.constantFrom('\n', '\r\n'),
    fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
  )
  .map(([value, indent, eol, commentAt]) => {
    const lines = JSON.stringify(value, null, indent).split('\n');
    const text = lines.map((line, i) => (commentAt[i % 40] && /[,{[]$/.test(line) ? `${line} // note ${i}` : line)).join(eol);
    // Through JSON once, so -0 and the like compare as the parsed text will.
    return { value: JSON.parse(JSON.stringify(value)) as Record<string, unknown>, text, eol, indent };
  });

test('property: set and remove give the intended value and keep every comment outside the removed entry', () => {
  const comments = (text: string): string[] => [...(text.match(/\/\/ note \d+/g) ?? [])];
  fc.assert(
    fc.property(commentedObject, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('stage', 'new_key', 'x'), (input, value, key) => {
      const plain = (t: string) => JSON.parse(JSON.stringify(getNodeValue(parseTree(t)!)));
      // Set: the key now holds the value; everything else and every comment outside the old value is unchanged.
      const old = findNodeAtLocation(parseTree(input.text)!, [key]);
      const replaced = old ? comments(input.text.slice(old.offset, old.offset + old.length)) : [];
      const set = setValue(input.text, [key], value, formattingOf(input.text));
      assert.ok(set !== undefined);
      assert.deepEqual(plain(set), { ...input.value, [key]: JSON.parse(JSON.stringify(value)) });
      assert.deepEqual(comments(set), comments(input.text).filter((c) => !replaced.includes(c)));
      if (input.eol === '\r\n') assert.ok(!/[^\r]\n/.test(set), 'CRLF kept');
      // Remove: the key is gone, comments outside its entry remain.
      const first = Object.keys(input.value)[0];
      const property = findNodeAtLocation(parseTree(input.text)!, [first])!.parent!;
      const inside = comments(input.text.slice(property.offset, property.offset + property.length));
      const removed = removeProperty(input.text, [first]);
      assert.ok(removed !== undefined);
      const { [first]: _dropped, ...rest } = input.value;
      assert.deepEqual(plain(removed), rest);
      assert.deepEqual(comments(removed), comments(input.text).filter((c) => !inside.includes(c)));
      // With its line comment: the same value; only the comment on the entry's own last line may go too.
      const withComment = removeProperty(input.text, [first], { withLineComment: true });
      assert.ok(withComment !== undefined);
      assert.deepEqual(plain(withComment), rest);
      const lineEnd = input.text.indexOf('\n', property.offset + property.length);
      const ownLine = comments(input.text.slice(property.offset, lineEnd < 0 ? input.text.length : lineEnd));
      assert.deepEqual(comments(withComment), comments(input.text).filter((c) => !ownLine.includes(c)));
      if (input.eol === '\r\n') assert.ok(!/[^\r]\n/.test(withComment), 'CRLF kept');
    }),
    { numRuns: 300 },
  );
});
