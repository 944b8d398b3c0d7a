// code-server: installing it offline from npm (Route A, editor-practice.md §5.4) and running private instances.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  codeServerDir,
  codeServerEntry,
  codeServerPackage,
  codeServerReadyMarker,
  codeServerVersion,
} from './paths.mjs';
import { run } from './run.mjs';

const nodeMajor = process.versions.node.split('.')[0];

export function codeServerIsInstalled() {
  if (!existsSync(codeServerReadyMarker) || !existsSync(codeServerEntry)) return false;
  try {
    const marker = JSON.parse(readFileSync(codeServerReadyMarker, 'utf8'));
    // Native modules are built for one Node ABI; another Node major means a rebuild.
    return marker.version === codeServerVersion && marker.nodeMajor === nodeMajor;
  } catch {
    return false;
  }
}

/**
 * npm_config_nodedir pointing at the running Node's own headers, so node-gyp never downloads them.
 * (A Debian/NodeSource node keeps them in <prefix>/include/node.)
 */
function nativeBuildEnv() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  // JOBS: node-gyp compiles each native module with every CPU (the rebuild took 46 s with one, 31 s with two).
  const env = { npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false', JOBS: 'max' };
  if (existsSync(path.join(prefix, 'include', 'node', 'node_version.h'))) env.npm_config_nodedir = prefix;
  return env;
}

/** lib/vscode's packages with native code that code-server's server, pty host and extension host require. */
const serverNativeModules = ['@vscode/spdlog', 'node-pty', '@parcel/watcher', 'native-watchdog', '@vscode/deviceid', '@vscode/ripgrep'];

function replaceWithSymlink(target, linkPath) {
  rmSync(linkPath, { recursive: true, force: true });
  symlinkSync(target, linkPath);
}

function which(command) {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Installs code-server into .cache/code-server-<version>; `step` reports progress. Idempotent via a marker file. */
export async function installCodeServer(step) {
  const env = nativeBuildEnv();
  const vscodeDir = path.join(codeServerPackage, 'lib', 'vscode');
  // Anything without the marker is a half-finished install: start over rather than patch it.
  rmSync(codeServerDir, { recursive: true, force: true });
  mkdirSync(codeServerDir, { recursive: true });
  writeFileSync(path.join(codeServerDir, 'package.json'), JSON.stringify({ name: 'zero-lens-code-server', private: true }, null, 2));

  // Its postinstall would run `npm install` in lib/vscode, whose @vscode/ripgrep downloads from GitHub: do the steps by hand.
  await step(`npm install code-server@${codeServerVersion}`, () =>
    run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', `code-server@${codeServerVersion}`], { cwd: codeServerDir, env }));
  await step('VS Code dependencies (lib/vscode)', () =>
    run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: vscodeDir, env }));

  const rg = which('rg');
  if (!rg) throw new Error('ripgrep (rg) is not on PATH; install the Debian package "ripgrep".');
  const rgTarget = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
  mkdirSync(path.dirname(rgTarget), { recursive: true });
  copyFileSync(rg, rgTarget);
  chmodSync(rgTarget, 0o755);

  // Only the modules the server and its extension host load: kerberos (proxy authentication, loaded on demand)
  // and the Windows-only ones are left unbuilt; kerberos alone took a fifth of this step.
  await step('native modules (spdlog, node-pty, watcher, …)', () =>
    run('npm', ['rebuild', ...serverNativeModules], { cwd: vscodeDir, env }));

  // The symlinks code-server's postinstall.sh makes (symlink_asar, symlink_bin_script).
  replaceWithSymlink('node_modules', path.join(vscodeDir, 'node_modules.asar'));
  replaceWithSymlink('code-linux.sh', path.join(vscodeDir, 'bin', 'remote-cli', 'code-server'));
  replaceWithSymlink('browser-linux.sh', path.join(vscodeDir, 'bin', 'helpers', 'browser.sh'));

  await step('built-in extensions dependencies', () =>
    run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { cwd: path.join(vscodeDir, 'extensions'), env }));
  await step('argon2', () => run('npm', ['rebuild', 'argon2'], { cwd: codeServerDir, env }));

  await step('first start', async () => {
    const scratch = path.join(codeServerDir, '.first-start');
    const server = await startCodeServer({
      userDataDir: path.join(scratch, 'user-data'),
      extensionsDir: path.join(scratch, 'extensions'),
      configDir: scratch,
    });
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  });
  writeFileSync(codeServerReadyMarker, JSON.stringify({ version: codeServerVersion, nodeMajor, installedAt: new Date().toISOString() }, null, 2));
}

/** Common flags: a private profile, no telemetry, no update check, no auth on loopback. */
function baseArgs({ userDataDir, extensionsDir, configDir }) {
  mkdirSync(configDir, { recursive: true });
  const config = path.join(configDir, 'config.yaml');
  // Without its own --config, code-server would write ~/.config/code-server/config.yaml.
  writeFileSync(config, 'auth: none\ncert: false\n');
  return [
    codeServerEntry,
    '--config', config,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
  ];
}

/** `code-server --install-extension <vsix> --force` into the given profile. */
export async function installExtension(vsix, { userDataDir, extensionsDir, configDir }) {
  const output = await run(process.execPath, [
    ...baseArgs({ userDataDir, extensionsDir, configDir }),
    '--install-extension', vsix,
    '--force',
  ]);
  if (!/successfully installed/i.test(output)) throw new Error(`Installing ${vsix} into code-server failed:\n${output}`);
  return output.trim();
}

/**
 * Starts code-server and resolves once it listens. `port: 0` lets the OS pick a free port.
 * Returns { url, port, stop(), output() }. The server runs in its own process group so stop()
 * also ends its extension hosts and language servers.
 */
export function startCodeServer({
  userDataDir,
  extensionsDir,
  configDir,
  workspace,
  port = 0,
  host = '127.0.0.1',
  disableWorkspaceTrust = true,
  extraArgs = [],
  timeoutMs = 60_000,
  env = {},
}) {
  const args = [
    ...baseArgs({ userDataDir, extensionsDir, configDir }),
    '--auth', 'none',
    '--bind-addr', `${host}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(disableWorkspaceTrust ? ['--disable-workspace-trust'] : []),
    ...extraArgs,
    ...(workspace ? [workspace] : []),
  ];
  // `env` reaches the extension host and the language servers it starts.
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  let exited = false;
  const exitedPromise = new Promise((resolve) => child.on('exit', () => { exited = true; resolve(); }));

  const stop = async () => {
    if (exited) return;
    const signalGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    signalGroup('SIGTERM');
    const killer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
    await exitedPromise;
    clearTimeout(killer);
    // Extension hosts may outlive the main process for a moment: take the whole group down.
    signalGroup('SIGKILL');
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`code-server did not start within ${timeoutMs / 1000}s:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = /HTTP server listening on (https?:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        const url = new URL(match[1]);
        resolve({ url: url.origin + '/', port: Number(url.port), stop, output: () => output, process: child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${signal ?? code}) before listening:\n${output}`));
    });
  });
}

/** Writes User/settings.json of a code-server profile. */
export function writeUserSettings(userDataDir, settings) {
  const dir = path.join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
}
