/**
 * dist/server.js: `node dist/server.js --stdio` (or --node-ipc, as the VS Code client starts it). Loads the
 * shared bundle, dist/core.js, from the code cache, and starts the language server.
 */
import * as path from 'node:path';
import type * as Core from '../bundle';
import { loadBundle } from './codeCache';
import { applyServerV8Flags } from '../v8Flags';

applyServerV8Flags();

const core = loadBundle<typeof Core>(path.join(__dirname, 'core.js'));
core.exports.startServer({ warmedUp: () => core.saveCodeCache() }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
