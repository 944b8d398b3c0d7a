import type { DocumentKind } from './feature';

/** What the refresh needs from the server, as callbacks: the rule stays testable without a connection. */
export interface DependentsHost {
  /** How long typing must pause first (the validation debounce). */
  delayMs(): number;
  /** The open documents and what kind each is. */
  openDocuments(): Promise<{ uri: string; kind: DocumentKind | null }[]>;
  /** Forget what the service read from launch scripts and model folders. */
  dropWorkspaceCaches(): void;
  revalidate(uri: string): void;
  refreshInlayHints(): void;
  /** A refresh failed (the edit itself is unaffected): say so in the server's log. */
  reportError(error: unknown): void;
}

const isLaunchFile = (kind: DocumentKind | null) => kind === 'launch-script' || kind === 'launch-yaml';

/**
 * Launch scripts feed the configs they use (model, GPUs, batch); configs feed the estimates and warnings of
 * the scripts that launch them. After either is opened, edited or closed, saved or not, and once typing
 * pauses, the open documents that may show it are checked again.
 */
export class DependentsRefresh {
  private pending: { timer: ReturnType<typeof setTimeout>; dropCaches: boolean; changed: Set<string> } | undefined;

  constructor(private readonly host: DependentsHost) {}

  touched(uri: string, kind: DocumentKind | null): void {
    if (!isLaunchFile(kind) && kind !== 'ds-config') return;
    // What the service read from a script is cached; a config is read again on every request.
    const dropCaches = isLaunchFile(kind) || !!this.pending?.dropCaches;
    const changed = this.pending?.changed ?? new Set<string>();
    changed.add(uri);
    clearTimeout(this.pending?.timer);
    const timer = setTimeout(() => {
      this.pending = undefined;
      if (dropCaches) this.host.dropWorkspaceCaches();
      this.revalidate(changed, dropCaches).catch((error: unknown) => this.host.reportError(error));
    }, this.host.delayMs());
    this.pending = { timer, dropCaches, changed };
  }

  /**
   * Every open document when a script changed, only the launch files when only configs did. A document that
   * changed alone is skipped (its own validation is scheduled); several may feed each other (a script and its
   * config), so then none is.
   */
  private async revalidate(changed: Set<string>, everyKind: boolean): Promise<void> {
    const skip = changed.size === 1 ? [...changed][0] : undefined;
    let any = false;
    for (const { uri, kind } of await this.host.openDocuments()) {
      if (uri === skip || (!everyKind && !isLaunchFile(kind))) continue;
      this.host.revalidate(uri);
      any = true;
    }
    if (any) this.host.refreshInlayHints();
  }
}
