/**
 * Asks `probe` until `accept` takes its answer or `timeoutMs` pass, pausing `pauseMs` between asks, and
 * returns the last answer either way: the caller says what it expected. The editor answers in its own time
 * (a language server's result, a webview rendering again after a theme change).
 */
export async function poll<T>(probe: () => Promise<T>, accept: (value: T) => boolean, { timeoutMs, pauseMs }: { timeoutMs: number; pauseMs: number }): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!accept(value) && Date.now() < deadline) {
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    value = await probe();
  }
  return value;
}
