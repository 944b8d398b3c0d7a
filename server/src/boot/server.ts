/**
 * dist/server.js: `node dist/server.js --stdio` (or --node-ipc, as the VS Code client starts it). Loads the
 * shared bundle, dist/core.js, from the code cache, and starts the language server.
 */
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type * as Core from '../bundle';
import { loadBundle } from './codeCache';

// The old generation's next full collection comes at 2 × what the last one kept, instead of V8's own factor
// (up to 4×): with a 3.9 MB config and a 1 MB script open (about 150 MB of parses) the garbage no longer piles
// up to 400 MB (test/reliability/probe.ts measures the peak: 308-311 MB here, the same as at 1.5 ×). 1.5 × gave
// the 1 MB config's keystrokes longer full-collection pauses (bench: longest block 63-103 ms against 45-68 ms).
// V8 reads this flag at every collection, so it works when set here; heap sizes do not: --max-semi-space-size set
// at this point left the young generation at 2 × 16 MiB (measured with v8.getHeapSpaceStatistics).
setFlagsFromString('--heap-growing-percent=100');
// For server.ts's collectGarbage. Set here, before the bundle loads, like every flag: V8's code cache is valid only
// for the flags it was made with, and a flag set later would make each start's cache (saved after warm-up) unusable.
setFlagsFromString('--expose-gc');

const core = loadBundle<typeof Core>(path.join(__dirname, 'core.js'));
core.exports.startServer({ warmedUp: () => core.saveCodeCache() }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
