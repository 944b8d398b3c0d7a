// Everything a fresh machine of this kind needs for the real-editor tests and `npm start`,
// each step skipped when already done: npm dependencies, Debian packages, code-server.
// Node builtins only: this runs before node_modules exists.
import * as path from 'node:path';
import { installDebianPackages, missingDebianPackages } from './apt.mjs';
import { codeServerIsInstalled, installCodeServer } from './codeServer.mjs';
import { withLock } from './lock.mjs';
import { logger } from './log.mjs';
import { staleNodeModules } from './npmDeps.mjs';
import { cacheDir, codeServerVersion, repoRoot } from './paths.mjs';
import { run } from './run.mjs';

export async function setup() {
  const log = logger('setup');
  await withLock(path.join(cacheDir, 'setup.lock'), async () => {
    const stale = staleNodeModules(repoRoot);
    if (stale) {
      await log.step(`npm ci (${stale})`, () => run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repoRoot }));
    } else {
      log.info('npm dependencies up to date');
    }

    const missing = missingDebianPackages();
    if (missing.length > 0) {
      await log.step(`apt-get install ${missing.join(' ')}`, () => installDebianPackages(missing));
    } else {
      log.info('Debian packages present');
    }

    if (codeServerIsInstalled()) {
      log.info(`code-server ${codeServerVersion} ready (cached)`);
    } else {
      await log.step(`code-server ${codeServerVersion} into .cache`, () =>
        installCodeServer((name, work) => log.step(`  ${name}`, work)));
    }
  }, { onWait: (pid) => log.info(`waiting for another setup (pid ${pid}) to finish`) });
  log.info(`ready in ${log.elapsed()}`);
}
