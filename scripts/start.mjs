// `npm start`: installs what is missing, packages the VSIX, installs it into a private code-server
// profile (.cache/profile) and opens a fresh copy of examples/ (.cache/demo/examples) in the browser, so
// trying a quick fix never rewrites the tracked files. Ctrl+C stops it.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { installExtension, startCodeServer } from './lib/codeServer.mjs';
import { logger } from './lib/log.mjs';
import { freePort } from './lib/ports.mjs';
import { cacheDir, repoRoot } from './lib/paths.mjs';
import { profilePaths, seedUserSettings } from './lib/profile.mjs';
import { setup } from './lib/setup.mjs';
import { packageVsix } from './lib/vsix.mjs';

const log = logger('start');

function openInBrowser(url) {
  const hasDisplay = !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  const hasOpener = spawnSync('sh', ['-c', 'command -v xdg-open'], { stdio: 'ignore' }).status === 0;
  if (!hasDisplay || !hasOpener) return false;
  spawn('xdg-open', [url], { stdio: 'ignore', detached: true }).unref();
  return true;
}

try {
  await setup();
  const vsix = await log.step('build + package', () => packageVsix());
  log.info(`${path.basename(vsix.path)} (${(vsix.bytes / 1024).toFixed(1)} KiB)`);

  const profile = profilePaths(path.join(cacheDir, 'profile'));
  await log.step('install the VSIX into .cache/profile', () => installExtension(vsix.path, profile));
  // examples/README.md explains what each file shows: open it first. No autosave, as in the e2e profile: a
  // fix tried in the demo stays an unsaved edit until saved.
  if (seedUserSettings(profile, { 'workbench.startupEditor': 'readme', 'files.autoSave': 'off' })) log.info('seeded .cache/profile/user-data/User/settings.json');

  const port = await freePort(Number(process.env.PORT) || 8080);
  // A scratch copy of examples/, fresh on every start: whatever is saved in the demo stays out of the repo.
  const workspace = path.join(cacheDir, 'demo', 'examples');
  rmSync(workspace, { recursive: true, force: true });
  cpSync(path.join(repoRoot, 'examples'), workspace, { recursive: true });
  // Workspace trust stays on, as for any user: VS Code asks once whether to trust examples/.
  // ZeRO Lens works in both modes (restricted mode reads no model folder, cache or file outside the workspace).
  const server = await startCodeServer({ ...profile, workspace, port, disableWorkspaceTrust: false });
  const url = `http://127.0.0.1:${server.port}/?folder=${encodeURIComponent(workspace)}`;

  console.log('');
  console.log(`  ZeRO Lens in code-server:  ${url}`);
  console.log(`  A fresh copy of examples/ is open (${path.relative(repoRoot, workspace)}): edits there never touch the repo.`);
  console.log('  VS Code asks once whether to trust the folder: it is this repo\'s own files, so "Yes" shows');
  console.log('  every feature; "No" shows restricted mode. Press Ctrl+C to stop.');
  console.log('');
  if (!openInBrowser(url)) log.info('no display here: open the URL above in a browser (forward the port when remote)');

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    log.info('stopping code-server …');
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  server.process.on('exit', (code) => {
    if (stopping) return;
    console.error(`[start] code-server exited (${code}):\n${server.output().split('\n').slice(-20).join('\n')}`);
    process.exit(1);
  });
} catch (error) {
  console.error(`[start] failed: ${error.message}`);
  process.exit(1);
}
