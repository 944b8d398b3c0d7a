import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { cursorContext } from '../../server/src/dsconfig/completion/cursorContext';
import { parseConfigText } from '../../server/src/dsconfig/parse';

/**
 * Completion finds the cursor's context from the parse tree when the file has no syntax errors (so long files
 * stay cheap). That shortcut must answer exactly what the full scan from the top of the file answers.
 */
const fixtures = path.resolve(__dirname, '../fixtures');
const jsonFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? jsonFiles(file) : file.endsWith('.json') ? [file] : [];
  });

// Sets compare by content, in any order.
const plain = (value: unknown) => JSON.stringify(value, (_key, v) => (v instanceof Set ? [...v].sort() : v));

function assertSameAtEveryOffset(text: string): void {
  const parsed = parseConfigText(text);
  if (parsed.syntaxErrors.length > 0 || !parsed.root) return;
  for (let offset = 0; offset <= text.length; offset++) {
    assert.equal(plain(cursorContext(text, offset, parsed.root)), plain(cursorContext(text, offset)), `offset ${offset} of ${JSON.stringify(text.slice(0, 80))}`);
  }
}

test('cursor context from the tree equals the full scan at every offset of every fixture config', () => {
  const files = jsonFiles(fixtures);
  assert.ok(files.length > 5);
  for (const file of files) assertSameAtEveryOffset(readFileSync(file, 'utf8'));
});

test('property: cursor context from the tree equals the full scan (nested objects, lists, comments, trailing commas, BOM)', () => {
  const value = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
  fc.assert(
    fc.property(value, fc.constantFrom(0, 2, '\t'), fc.boolean(), fc.boolean(), fc.boolean(), (config, indent, comment, trailingComma, bom) => {
      let text = JSON.stringify(config, null, indent);
      if (comment) text = text.replace(/\n/, '\n// note\n');
      if (trailingComma) text = text.replace(/(["\d\]}el])(\n?\s*)}$/, '$1,$2}');
      if (bom) text = '\ufeff' + text;
      assertSameAtEveryOffset(text);
    }),
    { numRuns: 150 },
  );
});
