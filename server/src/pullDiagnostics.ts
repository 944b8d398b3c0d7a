import type { ClientCapabilities } from 'vscode-languageserver/node';

/**
 * Pull diagnostics (LSP 3.17 `textDocument/diagnostic`) for editors that ask for them. The editor pulls when it
 * wants a document's diagnostics (after opening or editing it) and gets them at once: no debounce, nothing
 * published in between. When something a document depends on changes (a launch script for its config, a file
 * on disk, the settings), the server marks that document stale and asks the editor to pull again
 * (`workspace/diagnostic/refresh`); documents nothing changed for answer "unchanged" to that pull.
 *
 * Editors without pull support keep getting pushed diagnostics (server.ts).
 */
export interface PullClientSupport {
  pull: boolean;
  refresh: boolean;
}

export function pullSupportOf(capabilities: ClientCapabilities): PullClientSupport {
  return { pull: !!capabilities.textDocument?.diagnostic, refresh: !!capabilities.workspace?.diagnostics?.refreshSupport };
}

export interface PullDiagnosticsHost {
  /** Asks the editor to pull every document again (`workspace/diagnostic/refresh`). */
  refresh(): Promise<void>;
  reportError(error: unknown): void;
}

/**
 * Result ids and staleness. A report's id is the document version plus how often what it read changed, so a
 * pull after a refresh answers "unchanged" for the documents the change did not reach, without validating them.
 */
export class PullDiagnostics {
  /** Bumped for everything (settings, workspace folders); per document when a file it read changed. */
  private epoch = 0;
  private readonly stale = new Map<string, number>();
  private refreshQueued = false;

  constructor(
    private readonly host: PullDiagnosticsHost,
    private readonly canRefresh: boolean,
  ) {}

  /**
   * The id of a report on this version made now: the version plus how often what the document read changed.
   * A pull whose `previousResultId` is this id is answered "unchanged", without validating.
   */
  resultId(uri: string, version: number): string {
    return `${version}.${this.stale.get(uri) ?? 0}.${this.epoch}`;
  }

  /** What these documents read changed: their next pull validates again, and the editor is asked to pull. */
  changed(uris: Iterable<string>): void {
    let any = false;
    for (const uri of uris) {
      this.stale.set(uri, (this.stale.get(uri) ?? 0) + 1);
      any = true;
    }
    if (any) this.queueRefresh();
  }

  /** Settings or workspace folders changed: every document validates again. */
  changedAll(): void {
    this.epoch++;
    this.queueRefresh();
  }

  closed(uri: string): void {
    this.stale.delete(uri);
  }

  /** One refresh request for everything marked in the same turn of the event loop. */
  private queueRefresh(): void {
    if (!this.canRefresh || this.refreshQueued) return;
    this.refreshQueued = true;
    setImmediate(() => {
      this.refreshQueued = false;
      this.host.refresh().catch((error: unknown) => this.host.reportError(error));
    });
  }
}
