import { ExitCode, type CliIO } from './io';

/** Scaffold: replaced by the real `zero-lens estimate`. */
export async function runEstimate(_args: string[], io: CliIO): Promise<number> {
  io.stderr('zero-lens estimate: not built yet\n');
  return ExitCode.usage;
}
