// Bundles the extension with esbuild: the client (vscode external), the language server,
// the CLI and the sidebar webview script. One build, four entry points.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { cpSync, mkdirSync } from 'node:fs';
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
  plugins: watch ? [] : [precompiledSchema],
};

const builds = [
  { ...node, entryPoints: { client: 'client/src/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...node, entryPoints: { server: 'server/src/server.ts' }, outdir: 'dist' },
  { ...node, entryPoints: { cli: 'server/src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
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

mkdirSync('dist', { recursive: true });
if (!watch) precompileValidator();
// Codicons are loaded by the webview from the extension's media, never from a CDN.
cpSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicon.css');
cpSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicon.ttf');

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
