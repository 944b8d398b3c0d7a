// Decides whether node_modules matches package-lock.json, so `npm ci` runs only when it must
// (a fresh clone, or a lockfile that changed since the last install).
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Returns the reason node_modules is stale, or undefined when it is up to date. */
export function staleNodeModules(root) {
  const lockPath = path.join(root, 'package-lock.json');
  const installedPath = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installedPath)) return 'node_modules is missing';
  const wanted = JSON.parse(readFileSync(lockPath, 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(installedPath, 'utf8')).packages ?? {};
  for (const [key, entry] of Object.entries(wanted)) {
    if (!key.startsWith('node_modules/')) continue;
    const have = installed[key];
    // Optional packages for other platforms (esbuild's @esbuild/*) are legitimately absent.
    if (!have && entry.optional) continue;
    if (!have) return `${key.slice('node_modules/'.length)} is not installed`;
    if (entry.version && have.version !== entry.version) {
      return `${key.slice('node_modules/'.length)} is ${have.version}, package-lock.json wants ${entry.version}`;
    }
  }
  return undefined;
}
