// Debian packages the real-editor tests and the bench need. Checked with dpkg first, so apt runs only on a fresh machine.
import { spawnSync } from 'node:child_process';
import { run } from './run.mjs';

/**
 * chromium: the browser playwright-core drives (no browser download).
 * libkrb5-dev, g++, make, python3: code-server's native modules (kerberos, node-pty, spdlog, argon2) build from source.
 * ripgrep: VS Code's file search; @vscode/ripgrep would otherwise download it from GitHub.
 * util-linux: taskset, with which the bench puts processes on one CPU (essential in Debian, so already present).
 * fonts-wqy-microhei: a Chinese font (4.6 MB), so the Chinese e2e run's screenshots show characters, not empty boxes.
 */
export const debianPackages = ['chromium', 'libkrb5-dev', 'ripgrep', 'g++', 'make', 'python3', 'util-linux', 'fonts-wqy-microhei'];

export function missingDebianPackages(packages = debianPackages) {
  return packages.filter((name) => {
    const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return result.status !== 0 || !result.stdout.includes('install ok installed');
  });
}

/** apt-get update once, then install; as root directly, otherwise through passwordless sudo. */
export async function installDebianPackages(packages) {
  if (packages.length === 0) return;
  const asRoot = process.getuid?.() === 0;
  const aptGet = (args) => (asRoot ? run('apt-get', args, { env: { DEBIAN_FRONTEND: 'noninteractive' } })
    : run('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]));
  try {
    await aptGet(['update', '-qq']);
    await aptGet(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
  } catch (error) {
    const hint = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
    throw new Error(`Could not install Debian packages (${packages.join(', ')}). As root, run:\n  ${hint}\n${error.message}`);
  }
}
