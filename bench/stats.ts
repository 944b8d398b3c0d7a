/** Latency summaries: exact order statistics over the samples of one operation. */
export interface Summary {
  count: number;
  median: number;
  p95: number;
  max: number;
}

export function summarize(samples: number[]): Summary {
  if (samples.length === 0) return { count: 0, median: NaN, p95: NaN, max: NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { count: sorted.length, median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

/** Runs `fn` until `minMs` has passed (at least `minRuns` times) and returns per-call milliseconds. */
export function timeCalls(fn: () => unknown, minRuns = 200, minMs = 300): Summary {
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < minRuns || performance.now() - start < minMs) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
}
