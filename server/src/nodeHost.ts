import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileSystemHost, WorkspaceHost } from './host';

/**
 * Node implementations of the core's hosts, for the LSP server and the CLI. This is the only place
 * outside the thin wrappers that touches the disk.
 */
export const nodeFileSystem: FileSystemHost = {
  async readFile(file) {
    try {
      return await fs.readFile(file, 'utf8');
    } catch {
      return undefined;
    }
  },
  async readBytes(file, offset, length) {
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(file, 'r');
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
    } catch {
      return undefined;
    } finally {
      await handle?.close();
    }
  },
  async exists(file) {
    try {
      await fs.access(file);
      return true;
    } catch {
      return false;
    }
  },
  async listDir(dir) {
    try {
      return await fs.readdir(dir);
    } catch {
      return undefined;
    }
  },
  homeDir: os.homedir(),
  env: process.env,
};

const skippedFolders = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', '__pycache__', '.venv', 'venv', '.cache']);
const launchFilePattern = /\.(sh|bash|zsh|slurm|sbatch|pbs|ya?ml)$/i;
const jsonFilePattern = /\.json$/i;
/**
 * Launch scripts and launcher YAML are a few KB. A bigger .sh or .yaml is a log or a data set, and every
 * estimate reads the launch files: one such file would be read and parsed again and again.
 */
const maxLaunchFileBytes = 1024 * 1024;

async function smallEnough(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).size <= maxLaunchFileBytes;
  } catch {
    return false;
  }
}

/**
 * Walks the workspace folders for scripts and JSON files, bounded in depth and count so a huge
 * checkout cannot stall the server. The listing is cached until `invalidate()` (file watcher events).
 */
export class NodeWorkspace implements WorkspaceHost {
  private listing: Promise<string[]> | undefined;

  constructor(
    private roots: string[],
    private readonly maxFiles = 5000,
    private readonly maxDepth = 6,
  ) {}

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

  private async walk(): Promise<string[]> {
    const found: string[] = [];
    const visit = async (dir: string, depth: number): Promise<void> => {
      if (depth > this.maxDepth || found.length >= this.maxFiles) return;
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (found.length >= this.maxFiles) return;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!skippedFolders.has(entry.name) && !entry.name.startsWith('.')) await visit(full, depth + 1);
        } else if (jsonFilePattern.test(entry.name) || (launchFilePattern.test(entry.name) && (await smallEnough(full)))) {
          found.push(full);
        }
      }
    };
    for (const root of this.roots) await visit(root, 0);
    return found;
  }
}
