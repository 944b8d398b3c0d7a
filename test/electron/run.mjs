// `npm run test:electron`: build, bundle the suite, then run it in desktop VS Code via @vscode/test-electron.
// Needs access to update.code.visualstudio.com (it downloads VS Code); offline, use `npm run test:e2e`.
import { spawnSync } from 'node:child_process';
import { bundleElectronSuite } from '../../scripts/lib/electronBundle.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const { launcher } = await bundleElectronSuite();
if (process.argv.includes('--bundle-only')) {
  console.log(`[electron] bundled ${launcher}`);
  process.exit(0);
}
const result = spawnSync(process.execPath, [launcher], { cwd: repoRoot, stdio: 'inherit' });
process.exit(result.status ?? 1);
