import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { catalogEntries } from '../../server/src/memory';
import { applies, publishedError, publishedTotals, TOLERANCE } from '../../scripts/catalog/lib/assemble';
import { loadInputs } from '../../scripts/catalog/lib/inputs';

/**
 * The bound: every catalog entry with a published total (a hub safetensors total, a model card's
 * exact count) is counted by the real countParams to within 0.5% of it. Totals under an alias count too:
 * an alias claims the entry's shape. See publishedError for how checkpoints that store a tied head twice
 * and totals a lister may have estimated itself are read.
 */
const totals = publishedTotals(loadInputs(path.join(__dirname, '..', '..', 'scripts', 'catalog', 'inputs')));

const checked: Array<{ id: string; error: number }> = [];
for (const entry of catalogEntries()) {
  const published = [entry.id, ...entry.aliases].flatMap((id) => (totals.get(id.toLowerCase()) ?? []).map((p) => ({ ...p, id })));
  const applicable = published.filter((p) => applies(p, entry.info.architecture!));
  if (applicable.length === 0) continue;
  test(`${entry.id}: computed count within 0.5% of ${applicable.length} published total(s)`, () => {
    for (const p of applicable) {
      const error = publishedError(entry.info.architecture!, p);
      checked.push({ id: entry.id, error });
      assert.ok(error <= TOLERANCE, `${p.id}: published ${p.total} (${p.source.title}, ${p.where}) is ${(error * 100).toFixed(3)}% off`);
    }
  });
}

test('the published totals cover a good part of the catalog', () => {
  const withCount = new Set(checked.map((c) => c.id)).size;
  const worst = checked.reduce((a, b) => (b.error > a.error ? b : a), { id: '', error: 0 });
  console.log(`published totals checked: ${checked.length} for ${withCount} entries; worst ${(worst.error * 100).toFixed(4)}% (${worst.id})`);
  assert.ok(withCount >= 50, `${withCount} entries with a published total`);
});
