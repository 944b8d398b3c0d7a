/**
 * docs/ARCHITECTURE.md's layer table against the layer check (.dependency-cruiser.cjs): every folder and file the
 * table puts in a layer below the facade is held to that layer by a `layer-order` rule, and every edge the table
 * names is an edge to the check.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');
const architecture = readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
const cruiser = require(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: { name: string; from: { path: string }; to: { path: string } }[] };

/** The table's rows: layer name → the backticked paths of its "where" column, under server/src. */
function layerRows(): Map<string, string[]> {
  const section = architecture.slice(architecture.indexOf('## Layers'), architecture.indexOf('## Invariants'));
  const rows = new Map<string, string[]>();
  for (const [, layer, where] of section.matchAll(/^\| (\w+) \| ([^|]+) \|/gm)) {
    if (layer === 'layer') continue;
    rows.set(layer, [...where.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  }
  return rows;
}

const rows = layerRows();
const layerRules = cruiser.forbidden.filter((rule) => rule.name === 'layer-order').map((rule) => new RegExp(rule.from.path));
const edgeRule = new RegExp(cruiser.forbidden.find((rule) => rule.name === 'core-not-to-edges')!.to.path);

test("the architecture's layer table names the layers the check knows", () => {
  assert.deepEqual([...rows.keys()], ['shared', 'catalog', 'base', 'domains', 'training', 'estimates', 'facade', 'edges']);
});

test('every folder and file of a layer below the facade is held to its layer by the check', () => {
  const unchecked: string[] = [];
  for (const layer of ['shared', 'catalog', 'base', 'domains', 'training', 'estimates']) {
    for (const name of rows.get(layer)!) {
      const file = `server/src/${name}`;
      assert.ok(existsSync(path.join(root, file)), `${layer}: ${file} exists`);
      const probe = name.endsWith('/') ? `${file}x.ts` : file;
      if (!layerRules.some((rule) => rule.test(probe))) unchecked.push(`${layer}: ${name}`);
    }
  }
  assert.deepEqual(unchecked, []);
});

test('every edge the table names is an edge to the check', () => {
  const notEdges = rows
    .get('edges')!
    .filter((name) => /(\.ts|\/)$/.test(name))
    .filter((name) => {
      assert.ok(existsSync(path.join(root, 'server/src', name)), `server/src/${name} exists`);
      return !edgeRule.test(`server/src/${name}${name.endsWith('/') ? 'x.ts' : ''}`);
    });
  assert.deepEqual(notEdges, []);
});
