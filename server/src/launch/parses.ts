import type { TextDocument } from 'vscode-languageserver-textdocument';
import { VersionedCache } from '../util/documentCache';
import { unlimited, type Budget } from '../util/budget';
import { analyzeDocument, isYamlDocument, ScriptAnalysisJob, type LaunchAnalysis } from './analysis';

/** From this length a script's validation makes its analysis in slices: a 1 MB script takes about a second in one go. */
const slicedFromLength = 64 * 1024;
/** Work between two yields to the event loop. */
const sliceMs = 10;

/**
 * The analyses of open launch documents, one per version, owned by one language service instance. A huge
 * script's validation makes its analysis in slices between which other requests are answered
 * (`forValidation`); a feature that needs it meanwhile finishes that job rather than start over.
 */
export class LaunchParses {
  private readonly pending = new Map<string, { version: number; text: string; job: ScriptAnalysisJob }>();
  private readonly cache: VersionedCache<LaunchAnalysis>;

  /** `dropped`: told the length of a stale version's text once it is let go, before the new one is made. */
  constructor(
    private readonly folders: () => string[],
    dropped?: (length: number) => void,
  ) {
    this.cache = new VersionedCache((document) => this.compute(document), undefined, dropped);
  }

  private compute(document: TextDocument): LaunchAnalysis {
    const entry = this.pending.get(document.uri);
    this.pending.delete(document.uri);
    if (!entry || entry.version !== document.version || entry.text !== document.getText()) return analyzeDocument(document, this.folders());
    entry.job.runUntil(Infinity);
    return entry.job.result();
  }

  get(document: TextDocument): LaunchAnalysis {
    return this.cache.get(document);
  }

  /**
   * The same analysis as `get`, for the validation of a huge script: made in slices, with the budget's
   * checkpoint between them (it yields, and throws `Cancelled` once the work is stale).
   */
  async forValidation(document: TextDocument, budget: Budget): Promise<LaunchAnalysis> {
    const text = document.getText();
    if (budget === unlimited || text.length < slicedFromLength || isYamlDocument(document) || this.cache.has(document)) return this.get(document);
    const { uri, version } = document;
    let entry = this.pending.get(uri);
    if (!entry || entry.version !== version || entry.text !== text) {
      this.cache.dropStale(document);
      entry = { version, text, job: new ScriptAnalysisJob(document, this.folders()) };
      this.pending.set(uri, entry);
    }
    while (!entry.job.done) {
      entry.job.runUntil(performance.now() + sliceMs);
      if (entry.job.done) break;
      await budget.checkpoint();
      // A request needed the analysis meanwhile and finished it (it is cached now).
      if (this.pending.get(uri) !== entry) break;
    }
    return this.get(document);
  }

  /** A document closed: its analysis is no longer needed. */
  forget(uri: string): void {
    this.cache.forget(uri);
    this.pending.delete(uri);
  }
}
