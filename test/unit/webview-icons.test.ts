import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import * as subset from '../../scripts/lib/codiconSubset.mjs';
import { cmap, hasOutline } from './ttf-glyphs';

const { buildCodiconSubset, codePoints, webviewIconNames } = subset as {
  buildCodiconSubset(names?: string[]): Promise<{ ttf: Uint8Array; css: string }>;
  codePoints(css: string): Map<string, number>;
  webviewIconNames(): string[];
};

const root = path.resolve(__dirname, '../..');
const webviewDir = path.join(root, 'client/src/sidebar/webview');
const upstream = codePoints(readFileSync(path.join(root, 'node_modules/@vscode/codicons/dist/codicon.css'), 'utf8'));
const listed = webviewIconNames();

/** Codicon names in a text: `codicon-NAME` classes, and quoted names on lines that speak of an icon. */
function iconNamesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/codicon-([a-z][\w-]*)/g)) if (upstream.has(match[1])) names.add(match[1]);
  for (const line of text.split('\n').filter((l) => /icon/i.test(l))) {
    for (const match of line.matchAll(/['"]([a-z][\w-]*)['"]/g)) if (upstream.has(match[1])) names.add(match[1]);
  }
  return names;
}

const webviewSources = readdirSync(webviewDir)
  .filter((file) => /\.(ts|css)$/.test(file))
  .map((file) => ({ file, text: readFileSync(path.join(webviewDir, file), 'utf8') }));

test('the icon list names only codicons, and the webview uses each of them and no other', () => {
  assert.ok(listed.length > 0);
  assert.deepEqual(listed.filter((name) => !upstream.has(name)), [], 'names @vscode/codicons does not have');
  const used = new Set(webviewSources.flatMap(({ text }) => [...iconNamesIn(text)]));
  assert.deepEqual([...used].filter((name) => !listed.includes(name)).sort(), [], 'icons the webview uses that icons.json does not list');
  assert.deepEqual(listed.filter((name) => !used.has(name)), [], 'icons.json lists icons the webview no longer uses');
});

test('icons reach the page only through the typed icon() and button() of dom.ts', () => {
  for (const { file, text } of webviewSources.filter(({ file }) => file !== 'dom.ts')) {
    assert.doesNotMatch(text, /['"`]vscode-(button|icon)['"`]/, `${file} makes a vscode-button or vscode-icon itself`);
    assert.doesNotMatch(text, /['"`][^'"`]*codicon-/, `${file} writes a codicon class itself`);
  }
});

test('the vscode-elements components the webview bundles ask the font for no icon of their own', async () => {
  const { metafile } = await esbuild.build({
    entryPoints: [path.join(webviewDir, 'main.ts')],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    outdir: path.join(root, '.cache/webview-icons-test'),
    logLevel: 'silent',
  });
  const components = Object.keys(metafile.inputs).filter((input) => input.includes('@vscode-elements/'));
  assert.ok(components.some((input) => input.endsWith('vscode-button/vscode-button.js')), 'the bundle holds vscode-button');
  for (const input of components) {
    const text = readFileSync(path.resolve(input), 'utf8');
    const named = [...text.matchAll(/<vscode-icon[^>]*\bname="([\w-]+)"/g)].map((m) => m[1]);
    const classes = [...text.matchAll(/codicon-([a-z][\w-]*)/g)].map((m) => m[1]).filter((name) => upstream.has(name));
    assert.deepEqual([...named, ...classes].filter((name) => !listed.includes(name)), [], `${input} draws codicons that icons.json does not list`);
  }
});

test('the subset font maps each listed icon to a glyph with an outline, and nothing else', async () => {
  const { ttf } = await buildCodiconSubset();
  const font = Buffer.from(ttf);
  const mapped = cmap(font);
  for (const name of listed) {
    const glyph = mapped.get(upstream.get(name)!);
    assert.ok(glyph, `no glyph for ${name} (U+${upstream.get(name)!.toString(16)})`);
    assert.ok(hasOutline(font, glyph), `the glyph of ${name} is empty`);
  }
  assert.deepEqual([...mapped.keys()].sort(), listed.map((name) => upstream.get(name)!).sort(), 'the cmap holds exactly the listed code points');
  assert.ok(font.length < 8 * 1024, `${font.length} bytes: the whole font is 125 KB`);
});

test('the subset stylesheet has the font face, the base rule and one rule per listed icon', async () => {
  const { ttf, css } = await buildCodiconSubset();
  assert.match(css, /@font-face \{[^}]*font-family: "codicon";[^}]*src: url\("\.\/codicon\.ttf\?[0-9a-f]{32}"\) format\("truetype"\);/);
  assert.match(css, /\.codicon\[class\*='codicon-'\] \{[^}]*font: normal normal normal 16px\/1 codicon;/);
  assert.deepEqual(codePoints(css), new Map(listed.map((name) => [name, upstream.get(name)!])));
  const again = await buildCodiconSubset();
  assert.deepEqual([Buffer.from(again.ttf), again.css], [Buffer.from(ttf), css], 'the build is deterministic');
});

test('a name that is no codicon fails the build', async () => {
  await assert.rejects(buildCodiconSubset(['file', 'no-such-icon']), /icons\.json: no codicon named no-such-icon/);
});
