import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseConfigText, type ParsedConfig } from '../../server/src/dsconfig/parse';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

/**
 * A keystroke inside one value is parsed by patching the previous version's tree (literalEdit.ts). Whatever
 * the edit, the result must equal a parse from scratch: tree, value, comments, commas, duplicates, errors.
 */
function comparable(parsed: ParsedConfig): string {
  return JSON.stringify(
    {
      ...parsed,
      value: parsed.value,
      duplicateKeys: parsed.duplicateKeys.map((d) => ({ path: d.path, key: d.keyNode.offset, first: d.firstKeyNode.offset })),
    },
    (key, v) => (key === 'parent' ? undefined : v),
  );
}

function assertEditParsesLikeScratch(text: string, edits: { at: number; remove: number; insert: string }[]): void {
  const document = TextDocument.create('file:///p/ds_config.json', 'ds-config', 1, text);
  parses.parse(document);
  let version = 1;
  for (const edit of edits) {
    const current = document.getText();
    const at = Math.min(edit.at, current.length);
    const range = { start: document.positionAt(at), end: document.positionAt(Math.min(current.length, at + edit.remove)) };
    TextDocument.update(document, [{ range, text: edit.insert }], ++version);
    assert.equal(comparable(parses.parse(document)), comparable(parseConfigText(document.getText())), `after editing ${JSON.stringify(document.getText())}`);
  }
}

test('editing a number, string or keyword value in place parses like a fresh parse', () => {
  const text = '{\n  "steps_per_print": 2000, // every\n  "a": [1, "x", true],\n  "b": {"c": null, "d": "e",},\n  "a": 3\n}\n';
  assertEditParsesLikeScratch(text, [
    { at: text.indexOf('2000') + 3, remove: 1, insert: '1' },
    { at: text.indexOf('2000') + 4, remove: 0, insert: '5' },
    { at: text.indexOf('"x"') + 1, remove: 1, insert: 'yz' },
    { at: text.indexOf('true'), remove: 4, insert: 'false' },
    { at: text.indexOf('null'), remove: 4, insert: '-1.5e3' },
    { at: text.indexOf('2000'), remove: 0, insert: ' ' },
    { at: text.indexOf('"e"'), remove: 3, insert: '"e,"' },
    { at: text.indexOf('"a": 3') + 5, remove: 1, insert: '"' },
  ]);
});

test('a whole number typed over a number parses like a fresh parse: signs, zeros, leading zeros, 15 digits and more', () => {
  const text = '{\n  "a": 7,\n  "b": [7, 8]\n}\n';
  const numbers = ['5', '-5', '0', '-0', '10', '01', '-01', '00', '-', '--1', '123456789012345', '-123456789012345', '1234567890123456', '9007199254740993', '1e3', '1.5', '1a'];
  for (const n of numbers) {
    assertEditParsesLikeScratch(text, [
      { at: text.indexOf('7'), remove: 1, insert: n },
      { at: text.indexOf('[7') + 1, remove: 1, insert: n },
    ]);
  }
  // JSON.stringify shows -0 as 0: the patched value is compared as it is.
  const document = TextDocument.create('file:///p/zero.json', 'ds-config', 1, text);
  parses.parse(document);
  TextDocument.update(document, [{ range: { start: document.positionAt(text.indexOf('7')), end: document.positionAt(text.indexOf('7') + 1) }, text: '-0' }], 2);
  assert.ok(Object.is((parses.parse(document).value as { a: number }).a, (parseConfigText(document.getText()).value as { a: number }).a));
});

test('a digit typed before a number\'s first digit belongs to the number, which keeps its start', () => {
  // Found by the property below (seed 1673549980): `0` → `10` was patched as the literal moved one to the right.
  const text = '{\n  "x y": [\n    false,\n    0\n  ]\n}';
  assertEditParsesLikeScratch(text, [{ at: text.indexOf('0'), remove: 0, insert: '1' }]);
});

test('property: any single edit of a config parses like a fresh parse', () => {
  const config = fc.dictionary(fc.constantFrom('a', 'b', 'stage', 'lr', 'x y'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
  const edit = fc.record({ at: fc.nat(400), remove: fc.nat(3), insert: fc.stringMatching(/^[0-9a-z".,:{}\[\] \-]{0,3}$/) });
  fc.assert(
    fc.property(config, fc.constantFrom(0, 2), fc.array(edit, { minLength: 1, maxLength: 6 }), (value, indent, edits) => {
      assertEditParsesLikeScratch(JSON.stringify(value, null, indent), edits);
    }),
    { numRuns: 300 },
  );
});

test('property: digit edits inside numbers and letters inside strings keep patching correctly', () => {
  const config = fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.array(fc.integer(), { maxLength: 4 })), { minKeys: 1, maxKeys: 5 });
  fc.assert(
    fc.property(config, fc.array(fc.record({ pick: fc.nat(), digit: fc.constantFrom('0', '7', 'a', '-', '.') }), { minLength: 1, maxLength: 10 }), (value, picks) => {
      const text = JSON.stringify(value, null, 2);
      const spots = [...text.matchAll(/[0-9a-z]/g)].map((m) => m.index!);
      if (spots.length === 0) return;
      assertEditParsesLikeScratch(
        text,
        picks.map((p) => ({ at: spots[p.pick % spots.length], remove: 1, insert: p.digit })),
      );
    }),
    { numRuns: 300 },
  );
});

test('a keystroke in one value shares every untouched section of the parsed value with the previous version', () => {
  const text = '{\n  "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}},\n  "zero_optimization": {"stage": 2, "reduce_bucket_size": 500}\n}\n';
  const document = TextDocument.create('file:///p/shared/ds_config.json', 'ds-config', 1, text);
  const before = parses.parse(document).value as Record<string, Record<string, unknown>>;
  const at = text.indexOf('500');
  TextDocument.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + 3) }, text: '5000' }], 2);
  const after = parses.parse(document).value as Record<string, Record<string, unknown>>;
  assert.equal(after.zero_optimization.reduce_bucket_size, 5000);
  assert.equal(before.zero_optimization.reduce_bucket_size, 500, 'the previous version keeps its own value');
  assert.equal(after.optimizer, before.optimizer, 'the untouched section is the same object');
  assert.notEqual(after.zero_optimization, before.zero_optimization);
  // The copies are objects without a prototype, as a fresh parse makes them (no inherited `constructor`).
  assert.deepStrictEqual(after, parseConfigText(document.getText()).value);
  assert.equal(Object.getPrototypeOf(after.zero_optimization), null);
});

test('an edit that leaves the text as it was keeps the parse: no second parse, in one go or in slices', async () => {
  // A digit typed over itself: the first measured keystroke of the bench, which re-parsed a 1 MB config in one 60–80 ms step.
  for (const text of ['{\n  "steps_per_print": 2000\n}\n', `{\n  "steps_per_print": 2000,\n  "pad": "${'x'.repeat(300 * 1024)}"\n}\n`]) {
    const document = TextDocument.create('file:///p/same/ds_config.json', 'ds-config', 1, text);
    const before = await parses.parseAsync(document, async () => {});
    const digit = text.indexOf('2000');
    TextDocument.update(document, [{ range: { start: document.positionAt(digit), end: document.positionAt(digit + 1) }, text: '2' }], 2);
    let pauses = 0;
    const after = await parses.parseAsync(document, async () => void pauses++);
    assert.equal(after, before, `the same parse for ${text.length} characters`);
    assert.equal(pauses, 0);
    assert.equal(parses.parse(document), before);
    parses.forget(document.uri);
  }
});
