import { ExitCode, type CliIO } from './io';

/** Scaffold: replaced by the real `zero-lens check`. */
export async function runCheck(_args: string[], io: CliIO): Promise<number> {
  io.stderr('zero-lens check: not built yet\n');
  return ExitCode.usage;
}
