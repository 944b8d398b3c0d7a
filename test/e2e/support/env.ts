/**
 * What scripts/e2e.mjs hands to the test files: the running code-server instances and their workspaces.
 * Running a test file directly without it fails with a message saying how to run it.
 */
import * as path from 'node:path';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the end-to-end tests with \`npm run test:e2e\` (scripts/e2e.mjs).`);
  return value;
}

export interface EditorInstance {
  /** Base URL of code-server, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** The folder it has open: a temporary copy of examples/. */
  workspace: string;
}

export const e2eEnv = {
  /** code-server with --disable-workspace-trust: the usual editor. */
  get trusted(): EditorInstance {
    return { url: required('ZL_E2E_URL'), workspace: required('ZL_E2E_WORKSPACE') };
  },
  /** A second code-server with workspace trust on, for restricted mode. */
  get untrusted(): EditorInstance {
    return { url: required('ZL_E2E_UNTRUSTED_URL'), workspace: required('ZL_E2E_UNTRUSTED_WORKSPACE') };
  },
  /** A third code-server whose display language is Simplified Chinese (--locale zh-cn, a local language pack). */
  get chinese(): EditorInstance {
    return { url: required('ZL_E2E_ZH_URL'), workspace: required('ZL_E2E_ZH_WORKSPACE') };
  },
  get resultsDir(): string {
    return process.env.ZL_E2E_RESULTS ?? path.resolve(__dirname, '../../../test-results');
  },
  get chromium(): string {
    return process.env.ZL_E2E_CHROMIUM ?? '/usr/bin/chromium';
  },
};
