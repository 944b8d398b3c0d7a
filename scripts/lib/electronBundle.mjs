// Bundles the @vscode/test-electron suite (test/electron) with esbuild: the launcher that downloads
// VS Code and runs it, and the in-editor suite (with `vscode` external). Run by `npm run test:electron`,
// and by the e2e run as a compile check, since this machine cannot download VS Code.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { cacheDir, fromRoot } from './paths.mjs';

export const electronOutDir = path.join(cacheDir, 'electron-test');

export async function bundleElectronSuite() {
  const esbuild = await import('esbuild');
  const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: true, logLevel: 'warning' };
  const launcher = fromRoot('test', 'electron', 'runTest.ts');
  const suite = fromRoot('test', 'electron', 'suite', 'index.ts');
  if (!existsSync(launcher) || !existsSync(suite)) throw new Error('test/electron/runTest.ts or suite/index.ts is missing');
  await esbuild.build({ ...common, entryPoints: { runTest: launcher }, outdir: electronOutDir, external: ['@vscode/test-electron'] });
  await esbuild.build({ ...common, entryPoints: { suite: suite }, outdir: electronOutDir, external: ['vscode'] });
  // The display-language probe the Chinese e2e run loads into code-server's extension host.
  await esbuild.build({ ...common, entryPoints: { displayLanguage: fromRoot('test', 'e2e', 'inHost', 'displayLanguage.ts') }, outdir: electronOutDir, external: ['vscode'] });
  return { launcher: path.join(electronOutDir, 'runTest.js'), suite: path.join(electronOutDir, 'suite.js'), displayLanguage: path.join(electronOutDir, 'displayLanguage.js') };
}
