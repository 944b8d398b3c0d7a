import { main } from '../../server/src/cli/main';
import type { CliIO } from '../../server/src/cli/io';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `zero-lens <args>` in-process from `cwd` and captures its exit code, stdout and stderr. */
export async function runCli(args: string[], cwd: string): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd };
  const code = await main(args, io);
  return { code, out, err };
}
