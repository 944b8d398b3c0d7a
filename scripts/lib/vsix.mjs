// Builds the production bundles and packs them with @vscode/vsce into a VSIX that holds only what runs.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { packagedReadme } from './packagedReadme.mjs';
import { coreInputs, formatSizes, measureVsix, overBudget } from './sizeBudget.mjs';
import { repoRoot } from './paths.mjs';
import { run } from './run.mjs';
import { zipEntries } from './zipEntries.mjs';

const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');

/** Paths that must never ship: sources, tests, dependencies, source maps. */
const forbidden = [/(^|\/)node_modules\//, /(^|\/)(src|test|bench|scripts|\.cache)\//, /\.map$/, /\.ts$/, /tsconfig/];

export function packageVersion() {
  return JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;
}

export function defaultVsixPath() {
  return path.join(repoRoot, `zero-lens-${packageVersion()}.vsix`);
}

/** Production build: minified, no source maps (stale maps from a dev build are removed first). */
export async function buildProduction() {
  const dist = path.join(repoRoot, 'dist');
  if (existsSync(dist)) {
    for (const name of readdirSync(dist)) if (name.endsWith('.map')) rmSync(path.join(dist, name), { force: true });
  }
  await run(process.execPath, ['scripts/build.mjs', '--production'], { cwd: repoRoot });
}

const vsceFlags = ['--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links'];

/** The files inside a VSIX (without the `extension/` prefix), checked against the forbidden list. */
export function vsixFiles(vsixPath) {
  const files = zipEntries(vsixPath)
    .map((entry) => entry.name)
    .filter((name) => name.startsWith('extension/'))
    .map((name) => name.slice('extension/'.length));
  const bad = files.filter((file) => forbidden.some((pattern) => pattern.test(file)));
  if (bad.length > 0) throw new Error(`${vsixPath} contains files that do not run:\n  ${bad.join('\n  ')}`);
  return files;
}

/**
 * Builds and packs, with the README the installed extension's page can show; returns { path, bytes, files, sizes }.
 * Fails when the package is over its size budget or a component over its own (sizeBudget.mjs).
 */
export async function packageVsix({ out = defaultVsixPath() } = {}) {
  await buildProduction();
  // vsce takes the README only from inside the package folder; it ships as extension/readme.md.
  const readme = path.join('.cache', 'vsix', 'README.md');
  mkdirSync(path.join(repoRoot, path.dirname(readme)), { recursive: true });
  const readmeText = packagedReadme(readFileSync(path.join(repoRoot, 'README.md'), 'utf8'), repoRoot);
  writeFileSync(path.join(repoRoot, readme), readmeText);
  await run(process.execPath, [vsce, 'package', ...vsceFlags, '--readme-path', readme, '--out', out], { cwd: repoRoot });
  const files = vsixFiles(out);
  const sizes = measureVsix(out, { coreInputs: coreInputs(repoRoot), readme: readmeText, root: repoRoot });
  console.log(formatSizes(sizes));
  const over = overBudget(sizes);
  if (over.length) throw new Error(`over the size budget (scripts/lib/sizeBudget.mjs):\n  ${over.join('\n  ')}`);
  return { path: out, bytes: statSync(out).size, files, sizes };
}
