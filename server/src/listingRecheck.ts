/** What the recheck needs: a fresh walk of the workspace, and where to say which files appeared or went. */
export interface ListingRecheckHost {
  relist(): Promise<{ appeared: string[]; gone: string[]; walkMs: number }>;
  /** Paths that appeared or went without a file event. */
  changed(paths: string[]): void;
  reportError(error: unknown): void;
}

/**
 * The workspace's listing of scripts and configs is kept until a file event says a file was created or deleted
 * (server.ts). Some events never come: a file system without change notification (a network mount, a container's
 * bind mount), an editor that cannot watch files, or a watcher that drops an event under load. While the editor
 * is in use, the server walks the workspace again once the listing is older than `minAgeMs`, or 20 times the last
 * walk's time for a large workspace, and treats what changed as created or deleted. An idle server walks nothing.
 */
export class ListingRecheck {
  private last: number;
  private running = false;
  private walkMs = 0;

  constructor(
    private readonly host: ListingRecheckHost,
    private readonly minAgeMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.last = now();
  }

  /** A request came: walk again in the background if the listing is old enough. */
  touch(): void {
    if (this.running || this.now() - this.last < Math.max(this.minAgeMs, 20 * this.walkMs)) return;
    this.running = true;
    this.host
      .relist()
      .then(({ appeared, gone, walkMs }) => {
        this.walkMs = walkMs;
        if (appeared.length || gone.length) this.host.changed([...appeared, ...gone]);
      })
      .catch((error: unknown) => this.host.reportError(error))
      .finally(() => {
        this.running = false;
        this.last = this.now();
      });
  }
}
