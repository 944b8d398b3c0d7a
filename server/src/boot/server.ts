/**
 * dist/server.js: `node dist/server.js --stdio` (or --node-ipc, as the VS Code client starts it). Loads the
 * shared bundle, dist/core.js, from the code cache, and starts the language server.
 */
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type * as Core from '../bundle';
import { loadBundle } from './codeCache';

// A language server allocates little per request: a 1 MiB young generation (V8's default grows it to 16 MiB)
// keeps its resident memory about 10 MB lower for scavenges that stay well under a millisecond.
setFlagsFromString('--max-semi-space-size=1');

const core = loadBundle<typeof Core>(path.join(__dirname, 'core.js'));
core.exports.startServer({ warmedUp: () => core.saveCodeCache() }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
