import type { TextDocument } from 'vscode-languageserver-textdocument';

/** Work on one text made in steps that stop at a deadline (a performance.now() time) and resume. */
export interface SteppedJob {
  readonly done: boolean;
  runUntil(deadline: number): void;
}

/** Work per slice before the event loop may answer other requests. */
const sliceMs = 10;

/**
 * Per open document, the stepped job that a validation makes in slices for one version (a huge config's parse, a
 * huge script's analysis). A caller that needs the result meanwhile takes the job over and finishes it at once
 * (`take`) instead of starting again; the slices then stop.
 */
export class PendingJobs<J extends SteppedJob> {
  private readonly jobs = new Map<string, { version: number; text: string; job: J }>();

  /**
   * The pending job of this very version, handed over to the caller to finish; undefined if there is none. A job
   * of another version is dropped: nothing will finish it, and a huge one holds its text and half its result.
   */
  take(document: TextDocument): J | undefined {
    const entry = this.jobs.get(document.uri);
    this.jobs.delete(document.uri);
    return entry && entry.version === document.version && entry.text === document.getText() ? entry.job : undefined;
  }

  /**
   * Runs this version's job (made by `start` unless one is pending) in slices with `pause` between them. True once
   * it is done or a caller took it over; false when the document changed first (the work is stale).
   */
  async runInSlices(document: TextDocument, start: () => J, pause: () => Promise<void>): Promise<boolean> {
    const { uri, version } = document;
    const text = document.getText();
    let entry = this.jobs.get(uri);
    if (!entry || entry.version !== version || entry.text !== text) {
      entry = { version, text, job: start() };
      this.jobs.set(uri, entry);
    }
    while (!entry.job.done) {
      entry.job.runUntil(performance.now() + sliceMs);
      if (entry.job.done) break;
      await pause();
      if (document.version !== version || document.getText() !== text) {
        if (this.jobs.get(uri) === entry) this.jobs.delete(uri);
        return false;
      }
      // A caller needed the result meanwhile and finished the job itself.
      if (this.jobs.get(uri) !== entry) break;
    }
    return true;
  }

  forget(uri: string): void {
    this.jobs.delete(uri);
  }
}
