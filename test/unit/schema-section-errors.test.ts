/**
 * ZeRO Lens validates a config's top-level values one by one against their properties' schemas
 * (sectionErrors.ts), so that a keystroke's validation can take over the sections it left as they were. That is
 * only right while it finds exactly what ajv finds validating the whole root: the same errors, in the same order,
 * at the same instance and schema paths (the bounds' facts are read at the schema path). Compared here on the
 * corpus's configs (none written by us), as written and with values changed at random.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import fc from 'fast-check';
import { parse } from 'jsonc-parser';
import ajvOptions from '../../server/src/dsconfig/validation/ajvOptions.json';
import { loadSchemaValidators } from '../../server/src/dsconfig/validation/schemaValidator';
import { allSectionErrors, SectionErrorsMemo } from '../../server/src/dsconfig/validation/sectionErrors';

const schema = JSON.parse(readFileSync(path.join(__dirname, '../../schemas/ds_config.schema.json'), 'utf8')) as { properties: Record<string, unknown> };
const wholeRoot = new Ajv(ajvOptions).compile(schema);
const sections = loadSchemaValidators();

const corpus = path.join(__dirname, '../corpus');
const realConfigs = (JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string; kind: string }[])
  .filter((entry) => entry.kind === 'ds-config' && entry.file.endsWith('.json'))
  .map((entry) => parse(readFileSync(path.join(corpus, entry.file), 'utf8')) as unknown)
  .filter((value): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value));

const shown = (errors: ErrorObject[]) => errors.map((e) => JSON.stringify([e.instancePath, e.schemaPath, e.keyword, e.params]));

function rootErrors(config: Record<string, unknown>): ErrorObject[] {
  wholeRoot(config);
  return wholeRoot.errors ?? [];
}

/** `value` with some of its leaves replaced: negative numbers, numbers for strings, fractions, strings for booleans. */
function changed(value: unknown, pick: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => changed(v, pick));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, changed(v, pick)]));
  const roll = pick();
  if (roll < 0.12) return typeof value === 'number' ? -value - 1 : typeof value === 'string' ? 7 : 'yes';
  if (roll < 0.18) return 0.5;
  return value;
}

test('the schema root checks nothing but its properties: what the section split relies on', () => {
  const own = Object.keys(schema).filter((k) => !['properties', 'definitions', 'type'].includes(k) && !/^(\$|title|description|markdownDescription|allowComments|allowTrailingCommas|defaultSnippets|x-deepspeed)/.test(k));
  assert.deepEqual(own, [], 'a keyword at the root (additionalProperties, required, if, allOf…) would need the whole root validated');
  assert.deepEqual(sections.map((s) => s.key), Object.keys(schema.properties));
});

test('section by section, ajv finds what it finds on the whole root, on every corpus config', () => {
  assert.ok(realConfigs.length >= 100, `${realConfigs.length} corpus configs`);
  let errors = 0;
  for (const config of realConfigs) {
    const expected = shown(rootErrors(config));
    errors += expected.length;
    assert.deepEqual(shown(allSectionErrors(config, sections)), expected);
  }
  assert.ok(errors > 0, 'some corpus configs have schema errors');
});

test('property: with values changed at random, the section errors and the memo\'s are the whole root\'s', () => {
  const memo = new SectionErrorsMemo();
  let definitions = 0;
  fc.assert(
    fc.property(fc.nat(realConfigs.length - 1), fc.integer({ min: 1, max: 2 ** 30 }), (which, seed) => {
      let state = seed;
      const pick = () => ((state = (state * 16807) % 2147483647) / 2147483647);
      const config = changed(realConfigs[which], pick) as Record<string, unknown>;
      const expected = shown(rootErrors(config));
      definitions += expected.filter((e) => e.includes('#/definitions/')).length;
      assert.deepEqual(shown(allSectionErrors(config, sections)), expected);
      // The same sections again under a new root (a keystroke elsewhere): taken over, still the same.
      assert.deepEqual(shown(memo.errorsOf(config, sections)), expected);
      assert.deepEqual(shown(memo.errorsOf({ ...config }, sections)), expected);
    }),
    { numRuns: 400 },
  );
  assert.ok(memo.counts.takenOver > 0, JSON.stringify(memo.counts));
  assert.ok(definitions > 0, 'errors inside the schema\'s definitions (optimizer and scheduler params) were compared');
});

test('a section object moved under another key is validated again under that key', () => {
  const memo = new SectionErrorsMemo();
  const section = { enabled: 'yes' };
  const first = shown(memo.errorsOf({ fp16: section }, sections));
  assert.ok(first.some((e) => e.includes('/fp16/enabled')));
  // Typing "b" over the "f" of "fp16" keeps the value object (literalEdit.ts shares it): its errors are bf16's now.
  const renamed = shown(memo.errorsOf({ bf16: section }, sections));
  assert.deepEqual(renamed, shown(rootErrors({ bf16: section })));
  assert.ok(renamed.every((e) => !e.includes('fp16')));
});

test('a number or string section\'s errors are kept for its last value, and found again for another', () => {
  const memo = new SectionErrorsMemo();
  const expect = (config: Record<string, unknown>) => assert.deepEqual(shown(memo.errorsOf(config, sections)), shown(rootErrors(config)));
  expect({ steps_per_print: 'often', gradient_clipping: 1 });
  const validated = memo.counts.validated;
  expect({ steps_per_print: 'often', gradient_clipping: 1 });
  assert.equal(memo.counts.validated, validated, 'the same values are not validated again');
  expect({ steps_per_print: 10, gradient_clipping: 1 });
  assert.equal(memo.counts.validated, validated + 1, 'a changed value is');
  expect({ steps_per_print: 'often', gradient_clipping: -1 });
  expect({ steps_per_print: Number.NaN, gradient_clipping: 'x' });
  expect({ steps_per_print: Number.NaN, gradient_clipping: 'x' });
});
