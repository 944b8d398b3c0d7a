// The VSIX's size budget: every file it holds belongs to one component, every component has a budget, and the
// whole package has one. `npm run package` (and so the e2e suite, the screenshots and the bench) fails above
// any of them. Sizes are what the files take in the VSIX (deflated), in KiB.
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { zipEntries } from './zipEntries.mjs';

/** The whole VSIX, file size. */
export const totalBudgetKiB = 700;

/**
 * `files` match paths inside the package (`extension/` left off). `bundled` matches inputs of dist/core.js that
 * count towards the component rather than the core (the catalog and strings are bundled into it).
 * Each budget is what the component measured when it was set (`npm run package`, issue 28: VSIX 681.3 KiB with the
 * whole Chinese catalog) plus a margin: about 8 KiB for the core, where new features land, a few KiB for the others
 * (last reset 2026-11-27 at VSIX 678.7 KiB, after the core's catalog lost its English keys: see
 * docs/ARCHITECTURE.md; the client's raised by 1 KiB when the sidebar learned to follow changes on disk and the
 * language status to list in the reader's language; the core's by 5 KiB on 2026-11-27, at 397.7 of 398, for
 * shell loops and conditions, watched model files, launcher refusals and the keystroke's memos (RuleMemo), and the
 * docs' by 0.5 KiB for their changelog; the same day the core fell to 395.7 and the VSIX to 685.5 KiB when the
 * bundles left out what they never run: vscode-uri's module build, the settings' descriptions, unused LSP features;
 * scripts/lib/libraryBuilds.mjs), and 1 KiB of the client's budget went to the docs' for the changelog; on 2026-11-28
 * 0.5 KiB of the core's went to the images', whose pictures, retaken for the sidebar's "Workspaces", came to 53.5x
 * KiB). Together they leave the zip's own headers (about 3 KiB) inside the whole. A wasm shell parser does not fit: its budget is
 * 0, and it would have to take its room from the others.
 */
export const components = [
  {
    name: 'core',
    budgetKiB: 402.5,
    what: 'dist/core.js (the language server and the CLI, less the catalog, strings and shell parser bundled into it), dist/server.js, dist/cli.js',
    files: [/^dist\/(core|server|cli)\.js$/],
  },
  { name: 'client', budgetKiB: 112.5, what: 'dist/client.js (the extension, vscode-languageclient)', files: [/^dist\/client\.js$/] },
  // 38.4 KiB with the codicon font cut down to the icons the sidebar shows (101.7 with the whole font).
  { name: 'webview', budgetKiB: 39, what: 'dist/webview.js and .css, the codicon subset font and stylesheet', files: [/^dist\/(webview|codicon)\./] },
  {
    name: 'catalog',
    budgetKiB: 13.5,
    what: 'the model catalog (server/src/memory/catalog*, bundled; or dist/catalog*)',
    files: [/^dist\/catalog/],
    bundled: /(^|\/)server\/src\/memory\/catalog[^/]*$/,
  },
  {
    name: 'strings',
    budgetKiB: 49,
    what: "translated strings (the catalog l10n/ bundled into the core, the client's share of it in dist/l10n/, package.nls.*.json)",
    files: [/(^|\/)l10n\//, /^package\.nls(\.[\w-]+)?\.json$/],
    // The catalog's data, wherever it sits (l10n/ at the root too); the translator's code is the core's.
    bundled: /((^|\/)(l10n|i18n)\/[^/]+\.json$|\.nls\.)/i,
  },
  {
    name: 'shell parser',
    budgetKiB: 0,
    what: 'a wasm parser for shell scripts (*.wasm, or tree-sitter bundled): none yet; it needs budget taken from elsewhere',
    files: [/\.wasm$/],
    bundled: /(^|\/)node_modules\/(web-)?tree-sitter/,
  },
  {
    name: 'images',
    budgetKiB: 54,
    what: "the README's pictures (embedded in readme.md, the only way the extension page shows them offline) and media/ images",
    files: [/^media\/.*\.(png|svg|webp|jpe?g|gif)$/],
    readmeImages: true,
  },
  {
    name: 'docs',
    // 23: 21.3 measured (2026-11-27) plus a margin; 25 once the changelog took the margin (24.1, 2026-11-27); 25.5
    // when it reached 25.0 (2026-11-27, the launch features of that stop).
    // README.zh-CN.md is not shipped since it says all README.md
    // does (13 KiB deflated; the extension page shows README.md only).
    budgetKiB: 26.5,
    what: 'readme.md less its pictures, changelog, licence, package.json, language configuration, the VSIX manifest',
    files: [/^readme\.md$/i, /^changelog\.md$/i, /^LICENSE/i, /^package\.json$/, /^media\/.*\.json$/, /^\[Content_Types\]\.xml$/, /^extension\.vsixmanifest$/],
  },
];

const kib = (bytes) => bytes / 1024;
const deflated = (data) => deflateRawSync(data, { level: 9 }).length;

const asciiEscaped = (text) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** What one input of the core bundle takes once minified and deflated on its own (a slight overestimate). */
function inputBytes(file) {
  const text = readFileSync(file, 'utf8');
  // As the production core holds it: ASCII, other characters as \u escapes (scripts/build.mjs).
  if (file.endsWith('.json')) return deflated(Buffer.from(asciiEscaped(JSON.stringify(JSON.parse(text)))));
  if (file.endsWith('.wasm')) return deflated(readFileSync(file));
  const loader = path.extname(file).slice(1).replace(/^(mjs|cjs)$/, 'js');
  return deflated(Buffer.from(esbuild.transformSync(text, { loader, minify: true, legalComments: 'none' }).code));
}

/** The base64 payloads of the data: images in a markdown file, deflated as the zip stores them. */
function embeddedImageBytes(markdown) {
  let bytes = 0;
  for (const match of markdown.matchAll(/\]\(data:image\/[\w+.-]+;base64,([A-Za-z0-9+/=]+)\)/g)) bytes += deflated(Buffer.from(match[1]));
  return bytes;
}

/**
 * Sizes per component of a VSIX. `coreInputs` are the input paths of dist/core.js (the build's metafile);
 * `readme` the packaged README's text. Throws when a file belongs to no component.
 */
export function measureVsix(vsixPath, { coreInputs = [], readme = '', root = process.cwd() } = {}) {
  const entries = zipEntries(vsixPath).map((e) => ({ name: e.name.replace(/^extension\//, ''), compressedSize: e.compressedSize }));
  return measureEntries(entries, statSync(vsixPath).size, { coreInputs, readme, inputSize: (input) => inputBytes(path.resolve(root, input)) });
}

/** `measureVsix` on a package's entries ({ name, compressedSize }) and file size; `inputSize` sizes a core input. */
export function measureEntries(entries, vsixBytes, { coreInputs = [], readme = '', inputSize }) {
  const sizes = new Map(components.map((c) => [c.name, 0]));
  const unassigned = [];
  for (const entry of entries) {
    const component = components.find((c) => c.files.some((pattern) => pattern.test(entry.name)));
    if (component) sizes.set(component.name, sizes.get(component.name) + entry.compressedSize);
    else unassigned.push(entry.name);
  }
  if (unassigned.length) throw new Error(`the VSIX holds files no size budget covers (scripts/lib/sizeBudget.mjs):\n  ${unassigned.join('\n  ')}`);
  for (const component of components.filter((c) => c.bundled)) {
    const inside = coreInputs.filter((input) => component.bundled.test(input)).reduce((sum, input) => sum + inputSize(input), 0);
    sizes.set(component.name, sizes.get(component.name) + inside);
    sizes.set('core', sizes.get('core') - inside);
  }
  const images = embeddedImageBytes(readme);
  sizes.set('images', sizes.get('images') + images);
  sizes.set('docs', sizes.get('docs') - images);
  return {
    totalKiB: kib(vsixBytes),
    totalBudgetKiB,
    components: components.map((c) => ({ name: c.name, what: c.what, kib: kib(sizes.get(c.name)), budgetKiB: c.budgetKiB })),
  };
}

/** Over-budget lines, empty when everything fits. */
export function overBudget(measured) {
  const over = measured.components.filter((c) => c.kib > c.budgetKiB).map((c) => `${c.name} ${c.kib.toFixed(1)} KiB > ${c.budgetKiB} KiB`);
  if (measured.totalKiB > measured.totalBudgetKiB) over.push(`VSIX ${measured.totalKiB.toFixed(1)} KiB > ${measured.totalBudgetKiB} KiB`);
  return over;
}

/** The table the package step and the bench print. */
export function formatSizes(measured) {
  const lines = ['| component | KiB in the VSIX | budget |', '|---|---|---|'];
  for (const c of measured.components) lines.push(`| ${c.name} | ${c.kib.toFixed(1)} | ${c.budgetKiB} |`);
  lines.push(`| **VSIX** | **${measured.totalKiB.toFixed(1)}** | **${measured.totalBudgetKiB}** |`);
  return lines.join('\n');
}

/** The inputs of dist/core.js as the last production build recorded them (relative to `root`). */
export function coreInputs(root) {
  const meta = path.join(root, '.cache', 'build', 'core.meta.json');
  if (!existsSync(meta)) return [];
  return Object.keys(JSON.parse(readFileSync(meta, 'utf8')).inputs);
}
