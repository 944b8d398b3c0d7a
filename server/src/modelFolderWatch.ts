/** What the watch needs from the server, as callbacks: the rule stays testable without a connection. */
export interface ModelWatchHost {
  /** The folders to watch now (none in restricted mode). */
  wanted(): string[];
  /** Has the editor watch one folder; resolves to what ends that (undefined when the editor refused). */
  register(folder: string): Promise<{ dispose(): void } | undefined>;
}

/**
 * The model folders outside the workspace whose config.json the server read: the editor's watchers cover only the
 * workspace folders for a glob string (@types/vscode 1.91.0 index.d.ts:13188-13190, createFileSystemWatcher), so
 * each such folder gets a watcher of its own, added and removed as the set changes. The set is compared a little
 * after the last model was sized: settings that drop every model then size them again, and a folder wanted
 * throughout is not unregistered and registered again meanwhile.
 */
export class ModelFolderWatch {
  private readonly registered = new Map<string, Promise<{ dispose(): void } | undefined>>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ModelWatchHost,
    private readonly delayMs = 100,
  ) {}

  /** A model was sized or trust changed: compare once things are quiet. */
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.sync(), this.delayMs);
  }

  /** Registers the folders newly wanted, unregisters those no longer wanted. */
  sync(): void {
    this.timer = undefined;
    const wanted = new Set(this.host.wanted());
    for (const folder of wanted) if (!this.registered.has(folder)) this.registered.set(folder, this.host.register(folder));
    for (const [folder, registration] of this.registered) {
      if (wanted.has(folder)) continue;
      this.registered.delete(folder);
      void registration.then((r) => r?.dispose());
    }
  }

  /** The folders registered (or being registered), for tests and logs. */
  folders(): string[] {
    return [...this.registered.keys()];
  }
}
