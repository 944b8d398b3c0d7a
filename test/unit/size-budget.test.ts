import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import * as budget from '../../scripts/lib/sizeBudget.mjs';

interface Measured {
  totalKiB: number;
  totalBudgetKiB: number;
  components: { name: string; kib: number; budgetKiB: number }[];
}
const { components, measureEntries, overBudget, totalBudgetKiB } = budget as {
  components: { name: string; budgetKiB: number }[];
  totalBudgetKiB: number;
  measureEntries(entries: { name: string; compressedSize: number }[], vsixBytes: number, options: { coreInputs?: string[]; readme?: string; inputSize(input: string): number }): Measured;
  overBudget(measured: Measured): string[];
};

const KiB = 1024;
const kibOf = (m: Measured, name: string) => m.components.find((c) => c.name === name)!.kib;

test('the component budgets fit in the VSIX budget with room for the zip headers', () => {
  const sum = components.reduce((s, c) => s + c.budgetKiB, 0);
  assert.ok(sum <= totalBudgetKiB - 3, `components ${sum} KiB of ${totalBudgetKiB}`);
  assert.deepEqual(components.map((c) => c.name), ['core', 'client', 'webview', 'catalog', 'strings', 'shell parser', 'images', 'docs']);
});

test('every packaged file is counted in one component; the catalog, strings and pictures are taken out of the files holding them', () => {
  const entries = [
    { name: 'dist/core.js', compressedSize: 200 * KiB },
    { name: 'dist/server.js', compressedSize: 1 * KiB },
    { name: 'dist/client.js', compressedSize: 100 * KiB },
    { name: 'dist/webview.js', compressedSize: 30 * KiB },
    { name: 'dist/codicon.ttf', compressedSize: 2 * KiB },
    { name: 'readme.md', compressedSize: 10 * KiB },
    { name: 'package.json', compressedSize: 2 * KiB },
    { name: 'extension.vsixmanifest', compressedSize: 1 * KiB },
    { name: 'package.nls.zh-cn.json', compressedSize: 3 * KiB },
    { name: 'dist/l10n/bundle.l10n.zh-cn.json', compressedSize: 2 * KiB },
  ];
  const picture = randomBytes(4000).toString('base64');
  const measured = measureEntries(entries, 500 * KiB, {
    // The catalog's data counts as strings wherever it sits (the repository's l10n/ too); the translator's code is the core's.
    coreInputs: ['server/src/memory/catalog.generated.json', 'server/src/memory/estimate.ts', 'server/src/l10n/zh-cn.json', 'l10n/bundle.l10n.zh-cn.json', 'server/src/l10n/index.ts'],
    readme: `# Title\n\n![a picture](data:image/webp;base64,${picture})\n`,
    inputSize: (input) => (input.includes('catalog') ? 10 * KiB : 4 * KiB),
  });
  assert.equal(kibOf(measured, 'catalog'), 10);
  assert.equal(kibOf(measured, 'strings'), 5 + 4 + 4);
  assert.equal(kibOf(measured, 'core'), 200 + 1 - 10 - 4 - 4);
  assert.equal(kibOf(measured, 'webview'), 32);
  assert.ok(kibOf(measured, 'images') > 3.9, 'the picture, as deflated base64');
  assert.equal(kibOf(measured, 'docs'), 13 - kibOf(measured, 'images'));
  assert.deepEqual(overBudget(measured), []);
});

test('a file no component covers fails the package, and so does a component or the whole over budget', () => {
  assert.throws(() => measureEntries([{ name: 'dist/unknown.bin', compressedSize: 1 }], 1, { inputSize: () => 0 }), /no size budget covers[\s\S]*dist\/unknown\.bin/);
  const big = measureEntries([{ name: 'dist/client.js', compressedSize: 500 * KiB }], 800 * KiB, { inputSize: () => 0 });
  const client = components.find((c) => c.name === 'client')!.budgetKiB;
  assert.deepEqual(overBudget(big), [`client 500.0 KiB > ${client} KiB`, 'VSIX 800.0 KiB > 700 KiB']);
  const wasm = measureEntries([{ name: 'dist/tree-sitter-bash.wasm', compressedSize: 1 * KiB }], 1 * KiB, { inputSize: () => 0 });
  assert.deepEqual(overBudget(wasm), ['shell parser 1.0 KiB > 0 KiB']);
});

test('the core’s catalog where the build writes it (scripts/build.mjs, .cache/generated/l10n) counts as strings; its translator as core', () => {
  const measured = measureEntries([{ name: 'dist/core.js', compressedSize: 100 * KiB }], 100 * KiB, {
    coreInputs: ['.cache/generated/l10n/bundle.l10n.zh-cn.json', 'server/src/l10n/messageHash.ts', 'server/src/l10n/zhCnCatalog.ts'],
    inputSize: (input) => (input.endsWith('.json') ? 30 * KiB : 1 * KiB),
  });
  assert.equal(kibOf(measured, 'strings'), 30);
  assert.equal(kibOf(measured, 'core'), 70);
});
