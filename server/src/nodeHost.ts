import { appendFileSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readLimits, type BytesResult, type FileKind, type FileSystemHost, type ReadResult, type Unread, type WorkspaceHost } from './host';
import { readRegularBytes, readRegularText, regularFile } from './safeFile';

/**
 * Node implementations of the core's hosts, for the LSP server and the CLI. This is the only place
 * outside the thin wrappers that touches the disk.
 */

/** Whether `file` is `folder` or inside it. */
function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The disk as the core sees it. In restricted mode (an untrusted workspace) it reads nothing outside the
 * workspace folders, links included (a path is judged by where it really leads), and offers no home folder,
 * so no model cache is looked at. `trace`, when given, hears every path it touches (tests prove with it what
 * restricted mode reads).
 */
export class NodeFileSystem implements FileSystemHost {
  private trusted = true;
  private folders: string[] = [];
  private realFolders: Promise<string[]> = Promise.resolve([]);

  /** `textRead`: awaited with every text read before it is returned (the server watches huge ones, clientWatch.ts). */
  constructor(
    private readonly trace?: (path: string) => void,
    private readonly textRead?: (text: string) => Promise<void> | undefined,
  ) {}

  /** Whether the workspace is trusted (the editor says; a standalone server is trusted). */
  setTrusted(trusted: boolean): void {
    this.trusted = trusted;
  }

  setFolders(folders: string[]): void {
    this.folders = folders.map((f) => path.resolve(f));
    this.realFolders = Promise.all(this.folders.map((f) => fs.realpath(f).catch(() => f)));
  }

  // Functions are own properties, not methods, so `{ ...host, env }` in a test keeps them.
  readonly restricted = (): boolean => !this.trusted;

  get homeDir(): string | undefined {
    return this.trusted ? os.homedir() : undefined;
  }

  get env(): Record<string, string | undefined> | undefined {
    return this.trusted ? process.env : undefined;
  }

  /** Undefined when `file` may be touched; in restricted mode, 'untrusted' for a path that leads outside. */
  private async refused(file: string): Promise<Unread | undefined> {
    if (this.trusted) return undefined;
    const resolved = path.resolve(file);
    // Judged by its name first, so nothing outside is even looked at.
    if (!this.folders.some((f) => isInside(resolved, f))) return { reason: 'untrusted' };
    this.trace?.(resolved);
    let real: string;
    try {
      real = await fs.realpath(resolved);
    } catch {
      return undefined; // missing: the read itself says so
    }
    const folders = await this.realFolders;
    return folders.some((f) => isInside(real, f)) ? undefined : { reason: 'untrusted' };
  }

  readonly readFile = async (file: string, kind: FileKind): Promise<ReadResult> => {
    const refused = await this.refused(file);
    if (refused) return { unread: refused };
    this.trace?.(file);
    const result = await readRegularText(file, readLimits[kind]);
    if ('text' in result) await this.textRead?.(result.text);
    return result;
  };

  readonly readBytes = async (file: string, offset: number, length: number, kind: FileKind): Promise<BytesResult> => {
    const refused = await this.refused(file);
    if (refused) return { unread: refused };
    this.trace?.(file);
    return readRegularBytes(file, offset, length, readLimits[kind]);
  };

  readonly exists = async (file: string): Promise<boolean> => {
    if (await this.refused(file)) return false;
    this.trace?.(file);
    try {
      await fs.access(file);
      return true;
    } catch {
      return false;
    }
  };

  readonly listDir = async (dir: string): Promise<string[] | undefined> => {
    if (await this.refused(dir)) return undefined;
    this.trace?.(dir);
    try {
      return await fs.readdir(dir);
    } catch {
      return undefined;
    }
  };
}

/** The CLI's disk: trusted (the user ran it on these files), no trace. */
export const nodeFileSystem: FileSystemHost = new NodeFileSystem();

const skippedFolders = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', '__pycache__', '.venv', 'venv', '.cache']);
const launchFilePattern = /\.(sh|bash|zsh|slurm|sbatch|pbs|ya?ml)$/i;
const jsonFilePattern = /\.json$/i;
/**
 * The largest launch file the walk lists. Every config's context reads every listed launch file, and a
 * 1 MB script costs over 100 MB to analyse: a launch script or launcher YAML is a few KB, and a file many
 * times that is a log or a data set. Opened in the editor, a larger script (up to the read cap) is checked.
 */
export const maxListedLaunchBytes = 256 * 1024;

/**
 * Without a workspace folder (one file opened on its own, in any editor) there is nothing to walk: the launch files
 * the editor has open stand for the workspace's, under the walk's size bound, so a config learns its run from the
 * script that names it once that script is open.
 */
export function withOpenLaunchFiles(workspace: WorkspaceHost, openFiles: () => { path: string; length: number }[]): WorkspaceHost {
  return {
    folders: () => workspace.folders(),
    launchFiles: async () =>
      workspace.folders().length > 0
        ? workspace.launchFiles()
        : openFiles()
            .filter((file) => launchFilePattern.test(file.path) && file.length <= maxListedLaunchBytes)
            .map((file) => file.path)
            .sort(),
    jsonFiles: () => workspace.jsonFiles(),
  };
}

/** How far the walk goes: a checkout of a million files, or a link farm, must not stall the server. */
export interface WalkLimits {
  maxFiles: number;
  maxDepth: number;
  /** Folder entries looked at in all. */
  maxEntries: number;
  /** Wall-clock time of one walk. */
  maxMs: number;
}

const defaultWalkLimits: WalkLimits = { maxFiles: 5000, maxDepth: 6, maxEntries: 50_000, maxMs: 2000 };

/**
 * Walks the workspace folders for scripts and JSON files, bounded in depth, count, entries and time so a
 * huge checkout cannot stall the server. Only regular files are listed (a named pipe called `wait.sh` is not
 * a script); a link is followed to what it leads to, a linked folder only once (by its real path) and only
 * inside the workspace, so a link loop ends. Launch files over 256 KiB are not listed (`maxListedLaunchBytes`).
 * The listing is cached until
 * `invalidate()` (file watcher events).
 */
export class NodeWorkspace implements WorkspaceHost {
  private listing: Promise<string[]> | undefined;
  private readonly limits: WalkLimits;

  constructor(
    private roots: string[],
    limits: Partial<WalkLimits> = {},
  ) {
    this.limits = { ...defaultWalkLimits, ...limits };
  }

  setFolders(roots: string[]): void {
    this.roots = roots;
    this.invalidate();
  }

  invalidate(): void {
    this.listing = undefined;
  }

  folders(): string[] {
    return this.roots;
  }

  async launchFiles(): Promise<string[]> {
    return (await this.files()).filter((f) => launchFilePattern.test(f));
  }

  async jsonFiles(): Promise<string[]> {
    return (await this.files()).filter((f) => jsonFilePattern.test(f));
  }

  private files(): Promise<string[]> {
    this.listing ??= this.walk();
    return this.listing;
  }

  /**
   * Walks the folders again now and keeps that listing: the files that appeared and went since the one before (none
   * where there was none), and how long the walk took. For files whose created or deleted events never came.
   */
  async relist(): Promise<{ appeared: string[]; gone: string[]; walkMs: number }> {
    const before = this.listing;
    const started = Date.now();
    const walk = this.walk();
    this.listing = walk;
    const now = new Set(await walk);
    const walkMs = Date.now() - started;
    const old = before && new Set(await before.catch((): string[] => []));
    if (!old) return { appeared: [], gone: [], walkMs };
    return { appeared: [...now].filter((f) => !old.has(f)), gone: [...old].filter((f) => !now.has(f)), walkMs };
  }

  private async walk(): Promise<string[]> {
    const { maxFiles, maxDepth, maxEntries, maxMs } = this.limits;
    const found: string[] = [];
    const deadline = Date.now() + maxMs;
    let entriesSeen = 0;
    const realRoots = await Promise.all(this.roots.map((r) => fs.realpath(r).catch(() => path.resolve(r))));
    const visitedFolders = new Set<string>();
    const full = (): boolean => found.length >= maxFiles || entriesSeen >= maxEntries || Date.now() > deadline;

    const consider = async (file: string, name: string, size: () => Promise<number | undefined>): Promise<void> => {
      if (jsonFilePattern.test(name)) found.push(file);
      else if (launchFilePattern.test(name)) {
        const bytes = await size();
        if (bytes !== undefined && bytes <= maxListedLaunchBytes) found.push(file);
      }
    };

    const visit = async (dir: string, depth: number): Promise<void> => {
      if (depth > maxDepth || full()) return;
      let real: string;
      try {
        real = await fs.realpath(dir);
      } catch {
        return;
      }
      if (visitedFolders.has(real) || !realRoots.some((r) => isInside(real, r))) return;
      visitedFolders.add(real);
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (full()) return;
        entriesSeen++;
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!skippedFolders.has(entry.name) && !entry.name.startsWith('.')) await visit(file, depth + 1);
        } else if (entry.isFile()) {
          await consider(file, entry.name, async () => (await fs.stat(file).catch(() => undefined))?.size);
        } else if (entry.isSymbolicLink()) {
          const target = await regularFile(file);
          if ('size' in target) await consider(file, entry.name, async () => target.size);
          else if (target.reason === 'not-a-file' && target.what === 'folder' && !skippedFolders.has(entry.name) && !entry.name.startsWith('.')) await visit(file, depth + 1);
        }
        // Named pipes, devices and sockets are never listed.
      }
    };
    for (const root of this.roots) await visit(root, 0);
    return found;
  }
}

/**
 * Where `ZERO_LENS_TRACE_FS` sends each path the disk touches: `1` to stderr (the server's log), a path to
 * that file. Unset: nowhere.
 */
export function fsTrace(setting: string | undefined): ((file: string) => void) | undefined {
  if (!setting) return undefined;
  if (setting === '1') return (file) => process.stderr.write(`zero-lens fs: ${file}\n`);
  return (file) => {
    try {
      appendFileSync(setting, `zero-lens fs: ${file}\n`);
    } catch {
      // A trace that cannot be written must not stop a read.
    }
  };
}
