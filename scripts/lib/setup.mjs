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
    // The Debian packages first: code-server's install copies ripgrep from them.
    const missing = missingDebianPackages();
    if (missing.length > 0) {
      await log.step(`apt-get install ${missing.join(' ')}`, () => installDebianPackages(missing));
    } else {
      log.info('Debian packages present');
    }

    // npm ci and code-server's install share nothing but npm's cache, which takes concurrent writers: side by side,
    // a fresh machine waits for the longer one only (npm ci spends most of its time on the network, code-server's
    // native modules on the CPUs).
    const stale = staleNodeModules(repoRoot);
    // allSettled: a failure of one is reported once the other has stopped, not while it still writes under the lock.
    const outcomes = await Promise.allSettled([
      stale
        ? log.step(`npm ci (${stale})`, () => run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repoRoot }))
        : log.info('npm dependencies up to date'),
      codeServerIsInstalled()
        ? log.info(`code-server ${codeServerVersion} ready (cached)`)
        : log.step(`code-server ${codeServerVersion} into .cache`, () =>
          installCodeServer((name, work) => log.step(`  ${name}`, work))),
    ]);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }, { onWait: (pid) => log.info(`waiting for another setup (pid ${pid}) to finish`) });
  log.info(`ready in ${log.elapsed()}`);
}
