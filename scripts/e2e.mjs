// `npm run test:e2e`: the real-editor suite. Packages the VSIX, installs it into a fresh code-server
// profile, starts code-server on a temp copy of examples/ (plus a second one with workspace trust on, and a
// third in Simplified Chinese with a language pack built here), runs test/e2e/*.test.ts with node's test runner,
// stops everything, exits with the runner's status.
//   npm run test:e2e -- test/e2e/sidebar.test.ts      one file
//   ZL_E2E_KEEP=1 npm run test:e2e                    keep the temp profile and workspaces
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { installExtension, startCodeServer } from './lib/codeServer.mjs';
import { logger } from './lib/log.mjs';
import { chromiumPath, fromRoot, repoRoot } from './lib/paths.mjs';
import { profilePaths, seedUserSettings } from './lib/profile.mjs';
import { setup } from './lib/setup.mjs';
import { packageVsix } from './lib/vsix.mjs';
import { e2eEditorSettings } from './lib/e2eSettings.mjs';
import { bundleElectronSuite } from './lib/electronBundle.mjs';
import { buildLanguagePack, registerLanguagePack } from './lib/languagePack.mjs';

const log = logger('e2e');
/** The whole run is stopped after this, so a hung browser can never eat the CI budget. */
const RUN_LIMIT_MS = Number(process.env.ZL_E2E_LIMIT_MS) || 12 * 60_000;

const servers = [];
let runner;
let tmp;

/** The runner has its own process group: killing the group also ends its test processes and their browsers. */
function killRunner() {
  if (!runner || runner.exitCode !== null) return;
  try {
    process.kill(-runner.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

async function cleanup() {
  killRunner();
  await Promise.all(servers.map((server) => server.stop()));
  if (tmp && !process.env.ZL_E2E_KEEP) rmSync(tmp, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    log.info(`${signal}: stopping`);
    await cleanup();
    process.exit(130);
  });
}

/** Copies the language client's output ("ZeRO Lens.log") and the extension host logs next to the screenshots. */
function collectLogs(profiles, target) {
  for (const [name, profile] of profiles) {
    const logs = path.join(profile.userDataDir, 'logs');
    if (!existsSync(logs)) continue;
    for (const file of readdirSync(logs, { recursive: true })) {
      if (!/(ZeRO Lens|exthost)\.log$/.test(file)) continue;
      const to = path.join(target, name, file.replace(/[\\/]/g, '_'));
      mkdirSync(path.dirname(to), { recursive: true });
      copyFileSync(path.join(logs, file), to);
    }
  }
}

function testFiles() {
  const requested = process.argv.slice(2).filter((arg) => arg.endsWith('.ts'));
  if (requested.length > 0) return requested.map((file) => path.resolve(file));
  const dir = fromRoot('test', 'e2e');
  return readdirSync(dir).filter((name) => name.endsWith('.test.ts')).sort().map((name) => path.join(dir, name));
}

function runTests(files, env) {
  return new Promise((resolve) => {
    runner = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files],
      { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'inherit', detached: true },
    );
    const limit = setTimeout(() => {
      log.warn(`the suite exceeded ${Math.round(RUN_LIMIT_MS / 1000)} s: stopping it`);
      killRunner();
    }, RUN_LIMIT_MS);
    runner.on('exit', (code, signal) => {
      clearTimeout(limit);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

let status = 1;
try {
  await setup();
  tmp = mkdtempSync(path.join(tmpdir(), 'zero-lens-e2e-'));
  const vsix = await log.step('production build + VSIX', () => packageVsix({ out: path.join(tmp, 'zero-lens.vsix') }));
  log.info(`VSIX ${(vsix.bytes / 1024).toFixed(1)} KiB, ${vsix.files.length} files`);
  await log.step('bundle the @vscode/test-electron suite (compile check)', () => bundleElectronSuite());
  const pack = await log.step('zh-cn language pack', () => buildLanguagePack({ out: path.join(tmp, 'zh-cn-language-pack.vsix') }));

  const trustedProfile = profilePaths(path.join(tmp, 'profile'));
  const untrustedProfile = { ...profilePaths(path.join(tmp, 'profile-untrusted')), extensionsDir: trustedProfile.extensionsDir };
  const chineseProfile = profilePaths(path.join(tmp, 'profile-zh-cn'));
  await log.step('code-server --install-extension', () => installExtension(vsix.path, trustedProfile));
  await log.step('code-server --install-extension (zh-cn profile: ZeRO Lens + the language pack)', async () => {
    await installExtension(vsix.path, chineseProfile);
    await installExtension(pack.path, chineseProfile);
    registerLanguagePack(chineseProfile);
  });
  seedUserSettings(trustedProfile, e2eEditorSettings);
  seedUserSettings(untrustedProfile, e2eEditorSettings);
  seedUserSettings(chineseProfile, e2eEditorSettings);

  const workspace = path.join(tmp, 'workspace', 'examples');
  const untrustedWorkspace = path.join(tmp, 'untrusted', 'examples');
  const chineseWorkspace = path.join(tmp, 'zh-cn', 'examples');
  const untrustedTrace = path.join(tmp, 'untrusted-fs-trace.log');
  cpSync(fromRoot('examples'), workspace, { recursive: true });
  cpSync(fromRoot('examples'), untrustedWorkspace, { recursive: true });
  cpSync(fromRoot('examples'), chineseWorkspace, { recursive: true });

  const [trusted, untrusted, chinese] = await log.step('start code-server (trusted + restricted + zh-cn)', () => Promise.all([
    startCodeServer({ ...trustedProfile, workspace }),
    // Every path ZeRO Lens's server touches in restricted mode is logged: the test proves none is outside.
    startCodeServer({ ...untrustedProfile, workspace: untrustedWorkspace, disableWorkspaceTrust: false, env: { ZERO_LENS_TRACE_FS: untrustedTrace } }),
    startCodeServer({ ...chineseProfile, workspace: chineseWorkspace, extraArgs: ['--locale', 'zh-cn'] }),
  ]));
  servers.push(trusted, untrusted, chinese);
  log.info(`code-server ${trusted.url} (trusted), ${untrusted.url} (workspace trust on), ${chinese.url} (zh-cn)`);

  const resultsDir = fromRoot('test-results');
  rmSync(resultsDir, { recursive: true, force: true });
  const files = testFiles();
  const t0 = Date.now();
  status = await runTests(files, {
    ZL_E2E_URL: trusted.url,
    ZL_E2E_WORKSPACE: workspace,
    ZL_E2E_UNTRUSTED_URL: untrusted.url,
    ZL_E2E_UNTRUSTED_WORKSPACE: untrustedWorkspace,
    ZL_E2E_ZH_URL: chinese.url,
    ZL_E2E_ZH_WORKSPACE: chineseWorkspace,
    ZL_E2E_UNTRUSTED_TRACE: untrustedTrace,
    ZL_E2E_RESULTS: resultsDir,
    ZL_E2E_CHROMIUM: chromiumPath,
  });
  log.info(`${files.length} files in ${((Date.now() - t0) / 1000).toFixed(1)}s; screenshots and logs in test-results/`);
  collectLogs([['trusted', trustedProfile], ['untrusted', untrustedProfile], ['zh-cn', chineseProfile]], path.join(resultsDir, 'logs'));
  if (status !== 0) {
    const tail = (server) => server.output().split('\n').filter((l) => /error|warn/i.test(l)).slice(-15).join('\n');
    const logs = tail(trusted);
    if (logs) log.info(`code-server warnings/errors:\n${logs}`);
  }
  if (process.env.ZL_E2E_KEEP) log.info(`kept ${tmp}`);
} catch (error) {
  console.error(`[e2e] failed: ${error.stack ?? error.message}`);
  status = 1;
} finally {
  await cleanup();
}
log.info(`done in ${log.elapsed()} (exit ${status})`);
process.exit(status);
