// `npm run test:e2e`: the real-editor suite. Packages the VSIX, installs it into fresh code-server profiles,
// starts code-server on temp copies of examples/ (two usual editors, one with workspace trust on, one in
// Simplified Chinese with a language pack built here), runs test/e2e/*.test.ts in two lanes, each file in a
// node test runner of its own against its lane's usual editor, stops everything, exits non-zero if any failed.
// Two lanes: a file spends much of its time waiting on the browser and the extension host, so two at once
// take about as long as the slower lane, not the sum; each lane's editor has its own profile and workspace,
// so one file's settings writes and edits never meet another's.
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
const runners = new Set();
let tmp;

/** Each runner has its own process group: killing the group also ends its test processes and their browsers. */
function killRunners() {
  for (const runner of runners) {
    if (runner.exitCode !== null) continue;
    try {
      process.kill(-runner.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

async function cleanup() {
  killRunners();
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

/** One file in a node test runner of its own; its output is printed whole when it ends, so lanes do not interleave. */
function runFile(file, env, lane) {
  return new Promise((resolve) => {
    const runner = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=spec', file],
      { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    runners.add(runner);
    const output = [];
    runner.stdout.on('data', (chunk) => output.push(chunk));
    runner.stderr.on('data', (chunk) => output.push(chunk));
    runner.on('close', (code, signal) => {
      runners.delete(runner);
      process.stdout.write(`[e2e lane ${lane}] ${path.relative(repoRoot, file)}\n${Buffer.concat(output).toString()}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Files taken from one queue by each lane in turn; the status is the first non-zero one. */
async function runLanes(files, laneEnvs) {
  const queue = [...files];
  const limit = setTimeout(() => {
    log.warn(`the suite exceeded ${Math.round(RUN_LIMIT_MS / 1000)} s: stopping it`);
    queue.length = 0;
    killRunners();
  }, RUN_LIMIT_MS);
  const failed = [];
  await Promise.all(laneEnvs.map(async (env, lane) => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if ((await runFile(file, env, lane + 1)) !== 0) failed.push(path.relative(repoRoot, file));
    }
  }));
  clearTimeout(limit);
  if (failed.length > 0) log.warn(`failed: ${failed.join(', ')}`);
  return failed.length > 0 ? 1 : 0;
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
  const secondProfile = profilePaths(path.join(tmp, 'profile-second'));
  const untrustedProfile = { ...profilePaths(path.join(tmp, 'profile-untrusted')), extensionsDir: trustedProfile.extensionsDir };
  const chineseProfile = profilePaths(path.join(tmp, 'profile-zh-cn'));
  await log.step('code-server --install-extension (both lanes)', () =>
    Promise.all([installExtension(vsix.path, trustedProfile), installExtension(vsix.path, secondProfile)]));
  await log.step('code-server --install-extension (zh-cn profile: ZeRO Lens + the language pack)', async () => {
    await installExtension(vsix.path, chineseProfile);
    await installExtension(pack.path, chineseProfile);
    registerLanguagePack(chineseProfile);
  });
  seedUserSettings(trustedProfile, e2eEditorSettings);
  seedUserSettings(secondProfile, e2eEditorSettings);
  seedUserSettings(untrustedProfile, e2eEditorSettings);
  seedUserSettings(chineseProfile, e2eEditorSettings);

  const workspace = path.join(tmp, 'workspace', 'examples');
  const secondWorkspace = path.join(tmp, 'second', 'examples');
  const untrustedWorkspace = path.join(tmp, 'untrusted', 'examples');
  const chineseWorkspace = path.join(tmp, 'zh-cn', 'examples');
  const untrustedTrace = path.join(tmp, 'untrusted-fs-trace.log');
  cpSync(fromRoot('examples'), workspace, { recursive: true });
  cpSync(fromRoot('examples'), secondWorkspace, { recursive: true });
  cpSync(fromRoot('examples'), untrustedWorkspace, { recursive: true });
  cpSync(fromRoot('examples'), chineseWorkspace, { recursive: true });

  const [trusted, second, untrusted, chinese] = await log.step('start code-server (trusted ×2 + restricted + zh-cn)', () => Promise.all([
    startCodeServer({ ...trustedProfile, workspace }),
    startCodeServer({ ...secondProfile, workspace: secondWorkspace }),
    // Every path ZeRO Lens's server touches in restricted mode is logged: the test proves none is outside.
    startCodeServer({ ...untrustedProfile, workspace: untrustedWorkspace, disableWorkspaceTrust: false, env: { ZERO_LENS_TRACE_FS: untrustedTrace } }),
    startCodeServer({ ...chineseProfile, workspace: chineseWorkspace, extraArgs: ['--locale', 'zh-cn'] }),
  ]));
  servers.push(trusted, second, untrusted, chinese);
  log.info(`code-server ${trusted.url} and ${second.url} (trusted), ${untrusted.url} (workspace trust on), ${chinese.url} (zh-cn)`);

  const resultsDir = fromRoot('test-results');
  rmSync(resultsDir, { recursive: true, force: true });
  const files = testFiles();
  const t0 = Date.now();
  const shared = {
    ZL_E2E_UNTRUSTED_URL: untrusted.url,
    ZL_E2E_UNTRUSTED_WORKSPACE: untrustedWorkspace,
    ZL_E2E_ZH_URL: chinese.url,
    ZL_E2E_ZH_WORKSPACE: chineseWorkspace,
    ZL_E2E_UNTRUSTED_TRACE: untrustedTrace,
    ZL_E2E_RESULTS: resultsDir,
    ZL_E2E_CHROMIUM: chromiumPath,
  };
  status = await runLanes(files, [
    { ...shared, ZL_E2E_URL: trusted.url, ZL_E2E_WORKSPACE: workspace },
    { ...shared, ZL_E2E_URL: second.url, ZL_E2E_WORKSPACE: secondWorkspace },
  ]);
  log.info(`${files.length} files in ${((Date.now() - t0) / 1000).toFixed(1)}s; screenshots and logs in test-results/`);
  collectLogs([['trusted', trustedProfile], ['second', secondProfile], ['untrusted', untrustedProfile], ['zh-cn', chineseProfile]], path.join(resultsDir, 'logs'));
  if (status !== 0) {
    const tail = (server) => server.output().split('\n').filter((l) => /error|warn/i.test(l)).slice(-15).join('\n');
    const logs = [trusted, second].map(tail).filter(Boolean).join('\n');
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
