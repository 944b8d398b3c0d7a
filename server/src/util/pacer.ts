/**
 * Lets long work yield to the event loop so the server answers other requests in between: `due()` says when
 * `budgetMs` have passed since the last yield, so small documents never pay for a yield (nor for an await).
 */
export class Pacer {
  private last = performance.now();

  constructor(private readonly budgetMs = 10) {}

  /** Whether the budget is spent: time to `yield()`. */
  due(): boolean {
    return performance.now() - this.last >= this.budgetMs;
  }

  /** One turn of the event loop; the budget starts again after it. */
  async yield(): Promise<void> {
    await yieldToEventLoop();
    this.last = performance.now();
  }
}

/** One turn of the event loop: pending I/O (requests) runs first. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}
