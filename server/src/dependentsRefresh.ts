/** What the refresh needs from the server, as callbacks: the rule stays testable without a connection. */
export interface DependentsHost {
  /** How long typing must pause first (the validation debounce). */
  delayMs(): number;
  /** Forget what the service read from these documents' files; returns the open documents whose answers may differ. */
  changed(uris: string[]): string[];
  revalidate(uri: string): void;
  refreshInlayHints(): void;
  /** A refresh failed (the edit itself is unaffected): say so in the server's log. */
  reportError(error: unknown): void;
}

/**
 * Launch scripts feed the configs they use (model, GPUs, batch); configs feed the estimates and warnings of
 * the scripts that launch them. After a document is opened, edited or closed, saved or not, what was read from
 * it is forgotten at once, and once typing pauses the open documents that read it are checked again — only
 * those (the service knows who read what).
 */
export class DependentsRefresh {
  private pending: { timer: ReturnType<typeof setTimeout>; dependents: Set<string>; changed: Set<string> } | undefined;

  constructor(private readonly host: DependentsHost) {}

  touched(uri: string): void {
    let affected: string[];
    try {
      affected = this.host.changed([uri]);
    } catch (error) {
      this.host.reportError(error);
      return;
    }
    // A keystroke in a document nothing reads (most): nothing to wait for, nothing made.
    if (affected.length === 0 && !this.pending) return;
    const dependents = this.pending?.dependents ?? new Set<string>();
    const changed = this.pending?.changed ?? new Set<string>();
    affected.forEach((a) => dependents.add(a));
    changed.add(uri);
    clearTimeout(this.pending?.timer);
    if (dependents.size === 0) {
      this.pending = undefined;
      return;
    }
    const timer = setTimeout(() => {
      this.pending = undefined;
      this.revalidate(dependents, changed);
    }, this.host.delayMs());
    this.pending = { timer, dependents, changed };
  }

  /** A document that changed alone is skipped (its own validation is scheduled); several may feed each other, so then none is. */
  private revalidate(dependents: Set<string>, changed: Set<string>): void {
    const skip = changed.size === 1 ? [...changed][0] : undefined;
    let any = false;
    for (const uri of dependents) {
      if (uri === skip) continue;
      this.host.revalidate(uri);
      any = true;
    }
    if (any) this.host.refreshInlayHints();
  }
}

/**
 * Tells the editor which open documents' estimates may differ (the sidebar and the language status follow one of
 * them), once a burst of changes is over: a `git checkout` reports its files in several events, and each
 * document is named once.
 */
export class EstimatesChanged {
  private pending: { timer: ReturnType<typeof setTimeout>; uris: Set<string> } | undefined;

  constructor(
    private readonly delayMs: () => number,
    private readonly send: (uris: string[]) => void,
  ) {}

  add(uris: Iterable<string>): void {
    const added = [...uris];
    if (added.length === 0) return;
    const pending = this.pending?.uris ?? new Set<string>();
    for (const uri of added) pending.add(uri);
    clearTimeout(this.pending?.timer);
    const timer = setTimeout(() => {
      this.pending = undefined;
      this.send([...pending]);
    }, this.delayMs());
    this.pending = { timer, uris: pending };
  }
}
