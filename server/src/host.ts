/**
 * What a file is read as. Each kind has its own size cap: a cloned repository may name a log, a data set, a
 * device or a sparse file where a config is expected, and nothing larger than the cap is read into memory.
 */
export type FileKind = 'config' | 'script' | 'yaml' | 'model-config' | 'model-index' | 'safetensors-header' | 'settings' | 'cache-ref' | 'requirements';

const MiB = 1024 * 1024;

/** The most bytes read of each kind. Real configs and scripts are a few KB; the caps are far above them. */
export const readLimits: Readonly<Record<FileKind, number>> = {
  // The ds_config parser's own cap (dsconfig/parse.ts maxParsedLength).
  config: 4 * MiB,
  script: 1 * MiB,
  yaml: 1 * MiB,
  'model-config': 1 * MiB,
  // A weight map of every tensor: about 100 bytes a tensor, so 16 MiB is 160,000 tensors.
  'model-index': 16 * MiB,
  // One shard's tensor table; the format allows 100 MB, real headers are well under 1 MB.
  'safetensors-header': 8 * MiB,
  settings: 1 * MiB,
  'cache-ref': 4096,
  // requirements.txt, lock files (uv.lock, poetry.lock, conda-lock.yml): large ones are a few MiB.
  requirements: 16 * MiB,
};

/** Why a file was not read. */
export type Unread =
  | { reason: 'missing' }
  /** A folder, a named pipe, a device or a socket: only regular files are read. */
  | { reason: 'not-a-file'; what: 'folder' | 'named pipe' | 'device' | 'socket' | 'other' }
  | { reason: 'too-large'; size: number; limit: number }
  /** A link that leads back to itself. */
  | { reason: 'link-loop' }
  /** Restricted mode (an untrusted workspace): nothing outside the workspace folders is read. */
  | { reason: 'untrusted' }
  | { reason: 'unreadable' };

export type ReadResult = { text: string } | { unread: Unread };
export type BytesResult = { bytes: Uint8Array } | { unread: Unread };

/**
 * The only door from the core to the outside world. The core never touches `fs`, the network or
 * the LSP connection; the LSP layer and the CLI pass an implementation of this interface in.
 * Every path is an absolute file-system path (not a URI).
 */
export interface FileSystemHost {
  /**
   * UTF-8 text of a regular file (links followed) no larger than `readLimits[kind]`, or why it was not read.
   * Never blocks on a named pipe or a device.
   */
  readFile(path: string, kind: FileKind): Promise<ReadResult>;
  /** `length` bytes from `offset` (fewer at end of file) of a regular file, at most `readLimits[kind]`. Used for safetensors headers. */
  readBytes(path: string, offset: number, length: number, kind: FileKind): Promise<BytesResult>;
  /** Whether a file or folder exists. */
  exists(path: string): Promise<boolean>;
  /** Entry names of a folder (not recursive), or undefined when it is not a readable folder. */
  listDir(path: string): Promise<string[] | undefined>;
  /** Home folder, for the Hugging Face and ModelScope caches. Undefined disables cache lookups. */
  homeDir?: string;
  /** Environment variables that matter to model caches (HF_HOME, HF_HUB_CACHE, MODELSCOPE_CACHE). */
  env?: Record<string, string | undefined>;
  /**
   * Restricted mode: the workspace is not trusted, so no model folder and no cache is read, and nothing
   * outside the workspace (the host refuses such paths itself). Absent: trusted.
   */
  restricted?(): boolean;
}

/** The text of a read, or undefined when the file was not read (for callers that need no reason). */
export function textOf(result: ReadResult): string | undefined {
  return 'text' in result ? result.text : undefined;
}

/** Results of a host that has no such file. */
export const missing: { unread: Unread } = { unread: { reason: 'missing' } };

/** Why a file was not read, in words for a hover note or a diagnostic ("it is a named pipe"). */
export function describeUnread(unread: Unread): string {
  switch (unread.reason) {
    case 'missing':
      return 'it does not exist';
    case 'not-a-file':
      return unread.what === 'other' ? 'it is not a regular file' : `it is a ${unread.what}, not a regular file`;
    case 'too-large':
      return `it is ${formatBytes(unread.size)}, over the ${formatBytes(unread.limit)} ZeRO Lens reads of such a file`;
    case 'link-loop':
      return 'it is a link that leads back to itself';
    case 'untrusted':
      return 'it is outside the workspace, and the workspace is not trusted';
    case 'unreadable':
      return 'it cannot be read';
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(bytes >= 100 * MiB ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/** What the core knows of the workspace: which folders it has, and which files are scripts or configs. */
export interface WorkspaceHost {
  /** Absolute paths of the workspace folders. */
  folders(): string[];
  /**
   * Absolute paths of files in the workspace that may be launch scripts or launcher YAML
   * (*.sh, *.bash, *.zsh, *.yaml, *.yml), bounded by the host. The core reads them through FileSystemHost.
   */
  launchFiles(): Promise<string[]>;
  /** Absolute paths of JSON files in the workspace (for `--deepspeed` path completion). */
  jsonFiles(): Promise<string[]>;
}

/** A host that knows nothing: for tests and for files outside any workspace. */
export const emptyWorkspace: WorkspaceHost = {
  folders: () => [],
  launchFiles: async () => [],
  jsonFiles: async () => [],
};

/** The hosts every domain service is created with. */
export interface Hosts {
  fs: FileSystemHost;
  workspace: WorkspaceHost;
}

/**
 * `base`, except that a file open in the editor reads as the editor's text. A launch script edited and not yet
 * saved then already gives the config its model and GPU count, as the user sees them.
 */
export function withOpenDocuments(base: FileSystemHost, openText: (path: string) => string | undefined): FileSystemHost {
  return delegating(base, {
    readFile: async (path, kind) => {
      const text = openText(path);
      return text === undefined ? base.readFile(path, kind) : { text };
    },
  });
}

/**
 * `base` with some of its functions replaced. Every other member is read from `base` when used, not copied:
 * a host's home folder and restricted mode follow workspace trust, which may change while the server runs.
 */
export function delegating(base: FileSystemHost, overrides: Partial<Pick<FileSystemHost, 'readFile' | 'readBytes' | 'exists' | 'listDir'>>): FileSystemHost {
  return {
    readFile: overrides.readFile ?? ((path, kind) => base.readFile(path, kind)),
    readBytes: overrides.readBytes ?? ((path, offset, length, kind) => base.readBytes(path, offset, length, kind)),
    exists: overrides.exists ?? ((path) => base.exists(path)),
    listDir: overrides.listDir ?? ((path) => base.listDir(path)),
    get homeDir() {
      return base.homeDir;
    },
    get env() {
      return base.env;
    },
    restricted: () => base.restricted?.() === true,
  };
}
