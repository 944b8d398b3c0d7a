/**
 * dist/core.js: the one bundle the language server (dist/server.js) and the CLI (dist/cli.js) share, loaded by
 * both through boot/codeCache.ts. Loading it evaluates nothing; each entry evaluates what its face needs.
 */
export interface ServerHooks {
  /** The first diagnostics are out and the hot paths are compiled: a good moment to save the code cache. */
  warmedUp(): void;
}

/** Starts the LSP server on the transport named on the command line (`--stdio`, `--node-ipc`, …). */
export async function startServer(hooks: ServerHooks): Promise<void> {
  const server = await import('./server');
  server.afterWarmUp(hooks.warmedUp);
}

/** Runs `zero-lens` on this process's arguments, and sets its exit status. */
export async function runCli(): Promise<void> {
  const { runInProcess } = await import('./cli/main');
  await runInProcess();
}
