/**
 * `zero-lens` — the command-line face of the same core the editor uses.
 *   zero-lens check <paths…> [--format text|json]
 *   zero-lens estimate [options]
 */
import { ExitCode, printable, type CliIO } from './io';
import { runCheck } from './check';
import { runEstimate } from './estimate';

const usage = `Usage:
  zero-lens check <files…> [--format text|json]   Check DeepSpeed configs, launch scripts and YAML
  zero-lens estimate [options]                    Estimate per-GPU memory for every ZeRO stage
  zero-lens <command> --help                      Options of a command

Exit status: 0 no errors, 1 errors found (check), 2 usage error or unreadable input.
`;

export async function main(argv: string[], given: CliIO): Promise<number> {
  const io: CliIO = { ...given, stdout: (t) => given.stdout(printable(t)), stderr: (t) => given.stderr(printable(t)) };
  const [command, ...rest] = argv;
  switch (command) {
    case 'check':
      return runCheck(rest, io);
    case 'estimate':
      return runEstimate(rest, io);
    case undefined:
      // A usage error like any other: to stderr, so a script piping stdout does not take it for output.
      io.stderr(usage);
      return ExitCode.usage;
    case '-h':
    case '--help':
      io.stdout(usage);
      return ExitCode.ok;
    default:
      io.stderr(`zero-lens: unknown command '${command}'.\n${usage}`);
      return ExitCode.usage;
  }
}

/** Runs `zero-lens` on this process's arguments and streams, and sets its exit status. */
export function runInProcess(): Promise<void> {
  const io: CliIO = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
  };
  return main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      io.stderr(`zero-lens: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = ExitCode.usage;
    },
  );
}

if (require.main === module) void runInProcess();
