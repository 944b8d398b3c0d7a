/**
 * Lets long work yield to the event loop so the server answers other requests in between. `pause()` yields
 * only once `budgetMs` have passed since the last yield, so small documents never pay for a yield.
 */
export class Pacer {
  private last = performance.now();

  constructor(private readonly budgetMs = 10) {}

  /** Yields to the event loop when the budget is spent; resolves true when it did yield. */
  pause(): Promise<boolean> {
    // Not an async function: most calls do not yield, and each async call is a frame on the heap.
    if (performance.now() - this.last < this.budgetMs) return notYielded;
    return yieldToEventLoop().then(() => {
      this.last = performance.now();
      return true;
    });
  }
}

const notYielded = Promise.resolve(false);

/** One turn of the event loop: pending I/O (requests) runs first. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}
