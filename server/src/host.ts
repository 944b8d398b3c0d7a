/**
 * The only door from the core to the outside world. The core never touches `fs`, the network or
 * the LSP connection; the LSP layer and the CLI pass an implementation of this interface in.
 * Every path is an absolute file-system path (not a URI).
 */
export interface FileSystemHost {
  /** UTF-8 text of a file, or undefined when it does not exist or cannot be read. */
  readFile(path: string): Promise<string | undefined>;
  /** `length` bytes from `offset` (fewer at end of file), or undefined when unreadable. Used for safetensors headers. */
  readBytes(path: string, offset: number, length: number): Promise<Uint8Array | undefined>;
  /** Whether a file or folder exists. */
  exists(path: string): Promise<boolean>;
  /** Entry names of a folder (not recursive), or undefined when it is not a readable folder. */
  listDir(path: string): Promise<string[] | undefined>;
  /** Home folder, for the Hugging Face and ModelScope caches. Undefined disables cache lookups. */
  homeDir?: string;
  /** Environment variables that matter to model caches (HF_HOME, HF_HUB_CACHE, MODELSCOPE_CACHE). */
  env?: Record<string, string | undefined>;
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
  return { ...base, readFile: async (path) => openText(path) ?? base.readFile(path) };
}
