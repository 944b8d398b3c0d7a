import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActions } from '../../server/src/dsconfig/codeActions/codeActions';
import { validateConfig } from '../../server/src/dsconfig/validation/validate';
import { defaultSettings } from '../../server/src/settings';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

const fixtures = path.resolve(__dirname, '../fixtures');
const configs = [
  ...readdirSync(path.join(fixtures, 'presets')).map((f) => path.join(fixtures, 'presets', f)),
  ...readdirSync(path.join(fixtures, 'dsconfig')).map((f) => path.join(fixtures, 'dsconfig', f)),
]
  .filter((f) => f.endsWith('.json'))
  .map((f) => readFileSync(f, 'utf8'));

/** Pieces an editor session produces: JSON punctuation, literals, keys DeepSpeed knows, "auto", comments, junk. */
const tokens = ['{', '}', '[', ']', ',', ':', '"', '"auto"', '"stage"', '"offload_param"', '"device": "nvme"', 'true', 'false', 'null', '0', '-1', '5e8', '"5e8"', '1.5', '3', '// c\n', '/*', '*/', '\n', '\r\n', '\ufeff', '\u0000', '\\', '"stage3_prefetch_bucket_size": 1.5', '"fp16": {"enabled": true}', '"bf16": {"enabled": true}', '"train_batch_size": 7'];

type Edit = { kind: 'insert' | 'delete' | 'replace'; at: number; length: number; piece: string };

const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'replace'),
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 12 }),
  piece: fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 })),
});

function applyRandomEdit(text: string, e: Edit): string {
  const at = text.length === 0 ? 0 : e.at % (text.length + 1);
  if (e.kind === 'insert') return text.slice(0, at) + e.piece + text.slice(at);
  if (e.kind === 'delete') return text.slice(0, at) + text.slice(at + e.length);
  return text.slice(0, at) + e.piece + text.slice(at + e.length);
}

test('random edits of real configs: validation, code actions and applying every fix always answer', async () => {
  let version = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...configs), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.constantFrom('ds-config', 'json', 'jsonc'), async (original, edits, languageId) => {
      const text = edits.reduce(applyRandomEdit, original);
      const document = TextDocument.create('file:///prop/ds_config.json', languageId, ++version, text);
      const diagnostics = validateConfig(parses, document, defaultSettings);
      assert.ok(Array.isArray(diagnostics));
      assert.deepEqual(diagnostics.filter((d) => d.code === 'internal-error').map((d) => d.message), []);
      const whole = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };
      const actions = await codeActions(document, whole, { diagnostics, only: ['quickfix', 'source.fixAll'] }, defaultSettings);
      for (const action of actions) {
        const after = TextDocument.applyEdits(document, action.edit?.changes?.[document.uri] ?? []);
        assert.notEqual(after, text, `"${action.title}" changed nothing`);
        const next = TextDocument.create(document.uri, languageId, ++version, after);
        const again = validateConfig(parses, next, defaultSettings);
        assert.deepEqual(again.filter((d) => d.code === 'internal-error').map((d) => d.message), []);
      }
    }),
    { numRuns: 150 },
  );
});

test('fixing everything never makes a parsable config unparsable', async () => {
  let version = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...configs), fc.array(edit, { minLength: 1, maxLength: 3 }), async (original, edits) => {
      const text = edits.reduce(applyRandomEdit, original);
      const document = TextDocument.create('file:///prop/ds_config.json', 'ds-config', ++version, text);
      const before = validateConfig(parses, document, defaultSettings).filter((d) => d.code === 'json-syntax').length;
      const whole = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };
      const [fixAll] = await codeActions(document, whole, { diagnostics: [], only: ['source.fixAll'] }, defaultSettings);
      if (!fixAll) return;
      const after = TextDocument.applyEdits(document, fixAll.edit?.changes?.[document.uri] ?? []);
      const syntax = validateConfig(parses, TextDocument.create(document.uri, 'ds-config', ++version, after), defaultSettings).filter((d) => d.code === 'json-syntax').length;
      if (before === 0) assert.equal(syntax, 0, `fix-all broke the JSON:\n${after}`);
    }),
    { numRuns: 100 },
  );
});
