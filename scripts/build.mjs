// Bundles the extension with esbuild: the client (vscode external), the language server,
// the CLI and the sidebar webview script. One build, four entry points.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

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
// Codicons are loaded by the webview from the extension's media, never from a CDN.
cpSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicon.css');
cpSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicon.ttf');

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
