import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseShell } from '../../server/src/launch/shell/parser';
import { extractLaunchFacts } from '../../server/src/launch';
import { doc, launchFixture, launchFixtures, service, settings } from '../unit/launch-helpers';

const scripts = readdirSync(path.join(launchFixtures, 'shapes')).map((n) => launchFixture(`shapes/${n}`));
const pieces = ['\\', '\n', '\\\n', '\\ \n', "'", '"', '$(', ')', '${', '}', '`', '$((', '<<EOF', '\nEOF\n', '#', ';', '&&', '|', '&', ' --deepspeed ', 'zero3', '=', 'X=1 ', '--', ' ', '\t', '\r\n', '\u00e9', '\ud83d'];

/** An edit: insert a piece, insert random text, or delete a span, at a relative position. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.constantFrom(...pieces) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.integer({ min: 1, max: 40 }) }),
);

function applyEdit(text: string, e: { kind: 'insert'; at: number; text: string } | { kind: 'delete'; at: number; length: number }): string {
  const at = Math.floor(e.at * text.length);
  return e.kind === 'insert' ? text.slice(0, at) + e.text + text.slice(at) : text.slice(0, at) + text.slice(at + e.length);
}

test('random edits of real scripts: the parser never throws and its offsets stay true', () => {
  fc.assert(
    fc.property(fc.constantFrom(...scripts), fc.array(edit, { minLength: 1, maxLength: 8 }), (script, edits) => {
      const text = edits.reduce(applyEdit, script);
      const parsed = parseShell(text);
      let last = -1;
      for (const c of parsed.commands) {
        assert.ok(c.start >= last && c.start <= c.end && c.end <= text.length);
        last = c.start;
        for (const w of c.words) assert.equal(text.slice(w.start, w.end), w.raw);
      }
      assert.ok(Array.isArray(extractLaunchFacts(doc('scripts/x.sh', text))));
    }),
    { numRuns: 600 },
  );
});

test('random edits of real scripts always get an answer from every launch feature', async () => {
  const { ls } = service({ 'configs/ds.json': '{}' });
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...scripts), fc.array(edit, { minLength: 1, maxLength: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), async (script, edits, where) => {
      const text = edits.reduce(applyEdit, script);
      const document = doc('scripts/x.sh', text);
      const position = document.positionAt(Math.floor(where * text.length));
      const s = settings({ gpuMemoryGiB: 24 });
      assert.ok(Array.isArray(await ls.doValidation(document, s)));
      assert.ok(Array.isArray((await ls.doComplete(document, position, s)).items));
      await ls.doHover(document, position, s);
      assert.ok(Array.isArray(await ls.getInlayHints(document, { start: { line: 0, character: 0 }, end: position }, s)));
      assert.ok(Array.isArray(await ls.getCodeActions(document, { start: position, end: position }, { diagnostics: await ls.doValidation(document, s) }, s)));
      assert.ok(Array.isArray(await ls.getDocumentLinks(document, s)));
    }),
    { numRuns: 150 },
  );
});

test('random edits of launcher YAML (accelerate, LLaMA-Factory) always get an answer', async () => {
  const { ls } = service({ 'configs/ds.json': '{}' });
  const yamls = readdirSync(path.resolve(__dirname, '../../examples/scripts'))
    .filter((n) => n.endsWith('.yaml'))
    .map((n) => readFileSync(path.resolve(__dirname, '../../examples/scripts', n), 'utf8'));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...yamls), fc.array(edit, { minLength: 1, maxLength: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), async (yaml, edits, where) => {
      const text = edits.reduce(applyEdit, yaml);
      const document = doc('configs/x.yaml', text);
      const position = document.positionAt(Math.floor(where * text.length));
      const s = settings();
      assert.ok(Array.isArray(await ls.doValidation(document, s)));
      assert.ok(Array.isArray((await ls.doComplete(document, position, s)).items));
      await ls.doHover(document, position, s);
      assert.ok(Array.isArray(extractLaunchFacts(document)));
    }),
    { numRuns: 150 },
  );
});
