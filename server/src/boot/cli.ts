/**
 * dist/cli.js, the `zero-lens` command: the shared bundle, dist/core.js, run as the CLI. It reads the code cache
 * the language server wrote and never writes one (a short run compiles little).
 */
import * as path from 'node:path';
import type * as Core from '../bundle';
import { loadBundle } from './codeCache';

void loadBundle<typeof Core>(path.join(__dirname, 'core.js')).exports.runCli();
