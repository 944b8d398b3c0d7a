import type { TextDocument } from 'vscode-languageserver-textdocument';
import { VersionedCache } from '../util/documentCache';
import { unlimited, type Budget } from '../util/budget';
import { PendingJobs } from '../util/pendingJobs';
import { analyzeDocument, isYamlDocument, ScriptAnalysisJob, type LaunchAnalysis } from './analysis';

/** From this length a script's validation makes its analysis in slices: a 1 MB script takes about a second in one go. */
const slicedFromLength = 64 * 1024;

/**
 * The analyses of open launch documents, one per version, owned by one language service instance. A huge
 * script's validation makes its analysis in slices between which other requests are answered
 * (`forValidation`); a feature that needs it meanwhile finishes that job rather than start over.
 */
export class LaunchParses {
  private readonly pending = new PendingJobs<ScriptAnalysisJob>();
  private readonly cache: VersionedCache<LaunchAnalysis>;

  /** `dropped`: told the length of a stale version's text once it is let go, before the new one is made. */
  constructor(
    private readonly folders: () => string[],
    dropped?: (length: number) => void,
  ) {
    this.cache = new VersionedCache((document) => this.compute(document), undefined, dropped);
  }

  private compute(document: TextDocument): LaunchAnalysis {
    const job = this.pending.take(document);
    if (!job) return analyzeDocument(document, this.folders());
    job.runUntil(Infinity);
    return job.result();
  }

  get(document: TextDocument): LaunchAnalysis {
    return this.cache.get(document);
  }

  /**
   * The same analysis as `get`, for the validation of a huge script: made in slices, with the budget's
   * checkpoint between them (it yields, and throws `Cancelled` once the work is stale).
   */
  async forValidation(document: TextDocument, budget: Budget): Promise<LaunchAnalysis> {
    if (budget === unlimited || document.getText().length < slicedFromLength || isYamlDocument(document) || this.cache.has(document)) return this.get(document);
    const start = () => {
      // The stale version's analysis goes first: a huge script's two would not fit together.
      this.cache.dropStale(document);
      return new ScriptAnalysisJob(document, this.folders());
    };
    await this.pending.runInSlices(document, start, () => budget.checkpoint());
    return this.get(document);
  }

  /** A document closed: its analysis is no longer needed. */
  forget(uri: string): void {
    this.cache.forget(uri);
    this.pending.forget(uri);
  }
}
