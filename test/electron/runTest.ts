/**
 * `npm run test:electron`: runs the in-editor suite (suite/index.ts) in desktop VS Code through
 * @vscode/test-electron. It DOWNLOADS VS Code from Microsoft's update server on first use, so it works
 * only on machines with that access; offline, use the code-server suite (`npm run test:e2e`).
 * Bundled by scripts/lib/electronBundle.mjs to .cache/electron-test/runTest.js.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

// The bundle lives in <repo>/.cache/electron-test.
const repoRoot = path.resolve(__dirname, '..', '..');

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'zero-lens-electron-'));
  const workspace = path.join(tmp, 'examples');
  cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
  const userDataDir = path.join(tmp, 'user-data');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ 'workbench.startupEditor': 'none', 'extensions.ignoreRecommendations': true, 'telemetry.telemetryLevel': 'off' }),
  );
  try {
    await runTests({
      version: process.env.ZL_VSCODE_VERSION ?? '1.99.3',
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(__dirname, 'suite.js'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', userDataDir],
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`test:electron failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
