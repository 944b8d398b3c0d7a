/**
 * Loads dist/core.js, the bundle the language server and the CLI share, with V8's code cache: the bytecode of
 * what a previous run compiled, kept in a per-user cache folder. Parsing and compiling the ~1 MB bundle is most
 * of the server's start-up; from the cache it is read back instead (Node 22's `module.enableCompileCache` does
 * the same for every module; this works on Node 20 too, and writes the cache once the server has warmed up, so
 * it holds what the first diagnostics, hover and completion compile, not only the top level).
 *
 * V8 checks that a cache fits its version and flags, but of the source it checks only the length, so the cache
 * file is named after a hash of the bundle that the build computes (`ZERO_LENS_CORE_HASH`). Without one (watch
 * and development builds) the bundle is required plainly.
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Script } from 'node:vm';

/** Set by scripts/build.mjs in production builds: the bundle's content hash. */
declare const ZERO_LENS_CORE_HASH: string | undefined;

export interface LoadedBundle<T> {
  exports: T;
  /** Writes the cache of what has been compiled so far, if no usable cache was read; at most once. */
  saveCodeCache(): void;
}

/**
 * The per-user folder for the cache: `ZERO_LENS_CACHE_DIR` (the VS Code client passes the extension's global
 * storage; empty turns the cache off), else the platform's user cache folder. Never a shared temp folder:
 * bytecode read from a folder others can write to would run as this user.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string | undefined {
  if (env.ZERO_LENS_CACHE_DIR !== undefined) return env.ZERO_LENS_CACHE_DIR || undefined;
  if (!home) return undefined;
  // l10n-ignore-start: folder names of the platforms
  if (platform === 'win32') return env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'zero-lens', 'Cache') : undefined;
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'zero-lens');
  // l10n-ignore-end
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'zero-lens');
}

const builtHash = typeof ZERO_LENS_CORE_HASH === 'string' ? ZERO_LENS_CORE_HASH : undefined;

/**
 * How a CommonJS module's code is wrapped to run it. A production build writes dist/core.js wrapped already
 * (scripts/build.mjs), so the 1.4 MB source is not copied into a second string just to add these.
 */
// l10n-ignore: JavaScript source
const wrapperHead = '(function (exports, require, module, __filename, __dirname) {';

/**
 * `file` evaluated as a CommonJS module, compiled from the code cache in `dir` when there is one. `hash` names
 * the bundle's content (the build's by default); without it (a development build) `file` is required plainly.
 */
export function loadBundle<T>(file: string, hash = builtHash, dir = codeCacheDir()): LoadedBundle<T> {
  if (!hash) return { exports: require(file) as T, saveCodeCache: () => undefined };

  const runtime = `${process.version}-${process.arch}`;
  const cacheFile = dir && path.join(dir, `core-${hash}-${runtime}.v8`);
  const cachedData = cacheFile ? readIfPresent(cacheFile) : undefined;
  const source = fs.readFileSync(file, 'utf8');
  const wrapped = source.startsWith(wrapperHead) ? source : `${wrapperHead}${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = new Module(file);
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  module.loaded = true;

  let pending = !!cacheFile && (!cachedData || script.cachedDataRejected === true);
  return {
    exports: module.exports as T,
    saveCodeCache() {
      if (!pending || !dir || !cacheFile) return;
      pending = false;
      try {
        writeAtomically(cacheFile, script.createCachedData());
        removeOtherBuilds(dir, runtime, path.basename(cacheFile));
      } catch {
        // A read-only or full disk: the next start compiles again, as without a cache.
      }
    },
  };
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place, so a server starting meanwhile never reads half a cache. */
function writeAtomically(file: string, data: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Caches of other builds for this Node are never read again (another Node, an editor's, keeps its own). */
function removeOtherBuilds(dir: string, runtime: string, keep: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (name !== keep && name.startsWith('core-') && name.endsWith(`-${runtime}.v8`)) fs.rmSync(path.join(dir, name), { force: true });
  }
}
