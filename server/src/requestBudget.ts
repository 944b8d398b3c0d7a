import { LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/node';
import { Cancelled, timeBudget, type Budget } from './util/budget';

/**
 * The time one request may take before the server gives up on it and answers with nothing: well inside the
 * 2 s an editor waits before it looks stuck, and enough for any real config or script.
 */
export const requestTimeMs = 1500;

/**
 * Runs one request under a budget: the client's `$/cancelRequest` (the token) and the time limit stop it at
 * its next checkpoint. A cancelled request is answered as LSP asks (RequestCancelled); one out of time, or
 * one that failed, with `fallback`, and the log says which.
 */
export async function withBudget<T>(what: string, token: CancellationToken | undefined, run: (budget: Budget) => Promise<T>, fallback: T, log: (message: string) => void): Promise<T> {
  const budget = timeBudget(requestTimeMs, () => token?.isCancellationRequested === true);
  try {
    return await run(budget);
  } catch (error) {
    if (error instanceof Cancelled) {
      if (error.why === 'cancelled') throw new ResponseError(LSPErrorCodes.RequestCancelled, error.message);
      log(`ZeRO Lens ${what} stopped after ${requestTimeMs} ms and answered with nothing.`);
      return fallback;
    }
    log(`ZeRO Lens ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return fallback;
  }
}
