import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { findCatalogModel } from '../../server/src/memory';

/**
 * The parameter counts the catalog derives (countParams over the stored config facts) for the models people
 * fine-tune most, against the totals their publishers state, within 1%. Each row of
 * test/data/catalog-published-totals.json names the model as a user writes it (an Instruct or Chat release, a
 * ModelScope id), so the name must also find the right size, and gives the source URL and its words.
 * Publishers round (7.61B, 46.7B): 1% is wider than their rounding and far narrower than a wrong shape (a
 * tied head read as untied, a wrong layer count or MoE width are 5% and more).
 */
interface Published {
  name: string;
  total: number;
  /** Activated parameters, where the publisher states them and they are comparable. */
  active?: number;
  url: string;
  quote: string;
  note?: string;
}

const published: Published[] = JSON.parse(readFileSync(path.join(__dirname, '..', 'data', 'catalog-published-totals.json'), 'utf8'));

const within = (computed: number, stated: number) => Math.abs(computed - stated) / stated;

test('at least 15 popular models are pinned to their published totals, each with its source and quote', () => {
  assert.ok(published.length >= 15, `${published.length}`);
  for (const p of published) assert.ok(/^https:\/\//.test(p.url) && p.quote.length > 0, p.name);
});

for (const p of published) {
  test(`${p.name}: derived count within 1% of the published ${p.total / 1e9}B (${p.url})`, () => {
    const model = findCatalogModel(p.name);
    assert.ok(model, `${p.name} is in the catalog`);
    const error = within(model.totalParams, p.total);
    assert.ok(error <= 0.01, `${p.name} (${model.id}): ${model.totalParams} is ${(error * 100).toFixed(2)}% from "${p.quote}"`);
    if (p.active !== undefined) {
      const activeError = within(model.activeParams ?? model.totalParams, p.active);
      assert.ok(activeError <= 0.01, `${p.name}: active ${model.activeParams} is ${(activeError * 100).toFixed(2)}% from "${p.quote}"`);
    }
  });
}
