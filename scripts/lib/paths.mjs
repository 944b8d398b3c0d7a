// Where things live. Every script resolves paths from the repository root, not from the cwd.
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cacheDir = path.join(repoRoot, '.cache');

/** code-server 4.99.4 ships VS Code 1.99.3 and runs on Node 20 (Route A in editor-practice.md §5.4). */
export const codeServerVersion = '4.99.4';
export const codeServerDir = path.join(cacheDir, `code-server-${codeServerVersion}`);
export const codeServerPackage = path.join(codeServerDir, 'node_modules', 'code-server');
export const codeServerEntry = path.join(codeServerPackage, 'out', 'node', 'entry.js');
export const codeServerReadyMarker = path.join(codeServerDir, '.ready.json');

export const chromiumPath = '/usr/bin/chromium';

export function fromRoot(...parts) {
  return path.join(repoRoot, ...parts);
}
