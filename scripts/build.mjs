// Bundles the extension with esbuild: the client (vscode external), the core that the language server and the
// CLI share (dist/core.js) with their two small entry points (dist/server.js, dist/cli.js), the sidebar
// webview script, and the client's message bundles (dist/l10n).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { buildCodiconSubset } from './lib/codiconSubset.mjs';
import { libraryBuilds } from './lib/libraryBuilds.mjs';
import { fromRoot } from './lib/paths.mjs';
import { run } from './lib/run.mjs';
import { generatedValidatorFile, precompileValidator, sourceValidatorFile } from './precompileValidator.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/**
 * The shipped server and CLI use the schema validator compiled at build time instead of compiling it at run
 * time. Watch builds keep the run-time path, so a schema edited while watching is never validated stale.
 */
const precompiledSchema = {
  name: 'precompiled-schema-validator',
  setup(build) {
    build.onResolve({ filter: /[\\/]schemaValidator$/ }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path + '.ts');
      return resolved === sourceValidatorFile ? { path: generatedValidatorFile } : undefined;
    });
  },
};

/** Where the build writes the catalogs the core bundles: keyed by messageHash, only the messages the core uses. */
const coreBundles = '.cache/generated/l10n';

/**
 * The core bundles its catalogs as the build wrote them (`scripts/l10n.ts core-bundle`) in place of
 * server/src/l10n/zhCnCatalog.ts, which computes the same table from l10n/ at load, with every message.
 */
const prebuiltCatalog = {
  name: 'prebuilt-catalog',
  setup(build) {
    build.onResolve({ filter: /[\\/]zhCnCatalog$/ }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path + '.ts');
      return resolved === fromRoot('server/src/l10n/zhCnCatalog.ts') ? { path: fromRoot(coreBundles, 'bundle.l10n.zh-cn.json') } : undefined;
    });
  },
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's `main` is a UMD build whose lazy require('./impl/…') calls esbuild cannot follow; use its ESM build.
  mainFields: ['module', 'main'],
  plugins: watch ? [libraryBuilds] : [precompiledSchema, prebuiltCatalog, libraryBuilds],
};

/**
 * The language server and the CLI in one bundle; it evaluates only what the face that loads it asks for. A
 * production build writes it wrapped as the function boot/codeCache.ts compiles, so the loader need not copy
 * the source to wrap it.
 */
const core = {
  ...node,
  entryPoints: { core: 'server/src/bundle.ts' },
  outdir: 'dist',
  ...(production && { banner: { js: '(function (exports, require, module, __filename, __dirname) {' }, footer: { js: '\n})' } }),
};

/**
 * The two entry points load dist/core.js through boot/codeCache.ts. A production build tells them the core's
 * content hash, which names its code cache; without one they require it plainly.
 */
const boots = (coreHash) => {
  const boot = { ...node, plugins: [], outdir: 'dist', define: coreHash ? { ZERO_LENS_CORE_HASH: JSON.stringify(coreHash) } : {} };
  return [
    { ...boot, entryPoints: { server: 'server/src/boot/server.ts' } },
    { ...boot, entryPoints: { cli: 'server/src/boot/cli.ts' }, banner: { js: '#!/usr/bin/env node' } },
  ];
};

const builds = [
  { ...node, entryPoints: { client: 'client/src/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  {
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
    entryPoints: { webview: 'client/src/sidebar/webview/main.ts' },
    outdir: 'dist',
  },
];

/** The newest modification time of a file or of any file under a folder. */
function newestUnder(file) {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file).map((name) => newestUnder(path.join(file, name))));
}

/** Whether the core's catalogs were written after the catalogs, the sources they are taken for and the scan last changed. */
function coreBundlesCurrent() {
  const written = readdirSync('l10n').map((name) => statSync(path.join(coreBundles, name), { throwIfNoEntry: false })?.mtimeMs ?? -Infinity);
  return Math.min(...written) >= Math.max(...['l10n', 'server/src', 'scripts/l10n.ts'].map(newestUnder));
}

mkdirSync('dist', { recursive: true });
// The core's catalogs (seconds of parsing the sources) are written while the rest of the build runs, when stale.
const catalogs = watch || coreBundlesCurrent() ? undefined : run(process.execPath, ['--import', 'tsx', 'scripts/l10n.ts', 'core-bundle', coreBundles]);
if (!watch) precompileValidator();
// Codicons are loaded by the webview from the extension's media, never from a CDN: only the glyphs it shows.
const codicons = await buildCodiconSubset();
writeFileSync('dist/codicon.ttf', codicons.ttf);
writeFileSync('dist/codicon.css', codicons.css);

// VS Code reads the client's translations from dist/l10n (package.json's "l10n"): only the messages client/src
// uses, since the core bundles its own for the server and the CLI. A watch build writes them once.
const clientBundles = run(process.execPath, ['--import', 'tsx', 'scripts/l10n.ts', 'client-bundle', 'dist/l10n']);

if (watch) {
  await clientBundles;
  for (const options of [core, ...boots(), ...builds]) await (await esbuild.context(options)).watch();
} else {
  const others = Promise.all(builds.map((options) => esbuild.build(options)));
  await catalogs;
  const { metafile } = await esbuild.build({ ...core, metafile: true });
  // What dist/core.js is made of, for the size budget (scripts/lib/sizeBudget.mjs).
  mkdirSync('.cache/build', { recursive: true });
  writeFileSync('.cache/build/core.meta.json', JSON.stringify(metafile));
  const coreText = readFileSync('dist/core.js');
  // V8 holds a source with any non-ASCII character as two bytes a character: 2.8 MB instead of 1.4 for the core.
  // esbuild escapes them everywhere but in regular expressions (and comments, which a production build drops).
  const nonAscii = production ? coreText.findIndex((byte) => byte > 0x7f) : -1;
  if (nonAscii >= 0) throw new Error(`dist/core.js is not ASCII at byte ${nonAscii}: …${coreText.subarray(Math.max(0, nonAscii - 60), nonAscii + 20).toString()}… (write the character as a \\u escape)`);
  const coreHash = production ? createHash('sha256').update(coreText).digest('hex').slice(0, 16) : undefined;
  await Promise.all([others, clientBundles, ...boots(coreHash).map((options) => esbuild.build(options))]);
}
