/**
 * `zero-lens` — the command-line face of the same core the editor uses.
 *   zero-lens check <paths…> [--format text|json]
 *   zero-lens estimate [options]
 */
import { ExitCode, type CliIO } from './io';
import { runCheck } from './check';
import { runEstimate } from './estimate';

const usage = `Usage:
  zero-lens check <files…> [--format text|json]   Check DeepSpeed configs, launch scripts and YAML
  zero-lens estimate [options]                    Estimate per-GPU memory for every ZeRO stage
  zero-lens <command> --help                      Options of a command
`;

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'check':
      return runCheck(rest, io);
    case 'estimate':
      return runEstimate(rest, io);
    case undefined:
    case '-h':
    case '--help':
      io.stdout(usage);
      return command === undefined ? ExitCode.usage : ExitCode.ok;
    default:
      io.stderr(`zero-lens: unknown command '${command}'.\n${usage}`);
      return ExitCode.usage;
  }
}

if (require.main === module) {
  const io: CliIO = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      io.stderr(`zero-lens: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = ExitCode.usage;
    },
  );
}
