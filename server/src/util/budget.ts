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
    super(why === 'cancelled' ? 'The request was cancelled.' : 'The request ran out of time.');
  }
}

/** No limit and no yielding: the CLI, and tests that call the core directly. */
export const unlimited: Budget = { checkpoint: async () => undefined };

/** A budget of `limitMs` from now that also stops when `isCancelled()` says so; yields every `sliceMs`. */
export function timeBudget(limitMs: number, isCancelled: () => boolean = () => false, sliceMs = 10): Budget {
  const deadline = performance.now() + limitMs;
  let lastYield = performance.now();
  return {
    async checkpoint() {
      const now = performance.now();
      if (now - lastYield >= sliceMs) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
      if (isCancelled()) throw new Cancelled('cancelled');
      if (performance.now() > deadline) throw new Cancelled('out-of-time');
    },
  };
}
