import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags the language server runs with. Its entry point sets them before the bundle loads (boot/server.ts):
 * V8's code cache is valid only for the flags it was made with, and the cache is saved after warm-up. Creating a
 * new isolate (a worker thread) raises the semi-space growth factor back to V8's minimum of 2 (Node 20: the young
 * generation grew to 2 × 16 MiB again once clientWatch.ts's thread was up, and stayed small when the flags were set
 * again), so clientWatch.ts sets them all again once its thread is online.
 */
const serverFlags = [
  // The old generation's next full collection comes at 2 × what the last one kept, instead of V8's own factor (up
  // to 4×): with a 3.9 MB config and a 1 MB script open (about 150 MB of parses) the garbage no longer piles up
  // to 400 MB (test/reliability/probe.ts measures the peak). V8 reads it at every collection, so it works when
  // set at run time; heap sizes do not (--max-semi-space-size set then left the young generation as it was).
  '--heap-growing-percent=100',
  // The young generation keeps its first size instead of doubling, up to 2 × 16 MiB, whenever much of it survives
  // a scavenge; V8 reads the factor each time it would grow (NewSpace::Grow). A server's live garbage between
  // requests is small: the grown space was resident memory it never needed (bench sessions, peak RSS: typical
  // config 110 → 89 MB, 2,000 lines 128 → 92 MB, with the watchdog thread started only for huge texts).
  // V8 versions after Node 20's raise the factor to at least 2: there it does nothing.
  '--semi-space-growth-factor=1',
  // For server.ts's collectGarbage (`gc` in a context made after this is set).
  '--expose-gc',
];

export function applyServerV8Flags(): void {
  for (const flag of serverFlags) setFlagsFromString(flag);
}
