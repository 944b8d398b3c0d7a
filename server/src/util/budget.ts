import { yieldToEventLoop } from './pacer';

/**
 * What one request may spend. Long work calls `checkpoint()` between its steps: it yields to the event loop
 * now and then (so other requests, `$/cancelRequest` and the client's going away are heard), and throws
 * `Cancelled` once the client cancelled the request or its time is up. Work that cannot finish in time then
 * stops instead of delaying everything behind it.
 */
export interface Budget {
  checkpoint(): Promise<void>;
}

export class Cancelled extends Error {
  constructor(readonly why: 'cancelled' | 'out-of-time') {
    // l10n-ignore: for the log and LSP's RequestCancelled answer, which editors do not show
    super(why === 'cancelled' ? 'The request was cancelled.' : 'The request ran out of time.');
  }
}

/** No limit and no yielding: the CLI, and tests that call the core directly. */
export const unlimited: Budget = { checkpoint: () => goOn };

/** What a checkpoint that neither yields nor stops answers: settled once, for every call (a keystroke makes several). */
const goOn: Promise<void> = Promise.resolve();

/** A budget of `limitMs` from now that also stops when `isCancelled()` says so; yields every `sliceMs`. */
export function timeBudget(limitMs: number, isCancelled: () => boolean = () => false, sliceMs = 10): Budget {
  const deadline = performance.now() + limitMs;
  let lastYield = performance.now();
  const stopped = (): Promise<void> => {
    if (isCancelled()) return Promise.reject(new Cancelled('cancelled'));
    if (performance.now() > deadline) return Promise.reject(new Cancelled('out-of-time'));
    return goOn;
  };
  return {
    checkpoint() {
      if (performance.now() - lastYield < sliceMs) return stopped();
      return yieldToEventLoop().then(() => {
        lastYield = performance.now();
        return stopped();
      });
    },
  };
}
