/**
 * `zero-lens` — the command-line face of the same core the editor uses.
 *   zero-lens check <paths…> [--format text|json|sarif] [--gpu-memory GIB] [--cpu-memory GIB]
 *   zero-lens estimate [options]
 * `--lang en|zh-cn` anywhere picks the language (else LC_ALL, LC_MESSAGES, LANG).
 */
import { translator, type Translate } from '../l10n';
import { ExitCode, printable, type CliIO } from './io';
import { runCheck } from './check';
import { runEstimate } from './estimate';
import { helpRows } from './help';
import { cliLocale, takeLangOption } from './locale';

function usage(t: Translate): string {
  return (
    `${t('Usage:')}\n` +
    helpRows(
      [
        ['zero-lens check <paths…> [--format text|json|sarif] [--gpu-memory GIB] [--cpu-memory GIB]', t('Check DeepSpeed configs, launch scripts and YAML')],
        ['zero-lens estimate [options]', t('Estimate per-GPU memory for every ZeRO stage')],
        ['zero-lens <command> --help', t('Options of a command')],
      ],
      50,
    ) +
    `\n${t('Every command:')}\n` +
    helpRows([['--lang en|zh-cn', t('Language of the output (default: from LC_ALL, LC_MESSAGES or LANG)')]], 50) +
    `\n${t('Exit status: 0 no errors, 1 errors found (check), 2 usage error or unreadable input.')}\n`
  );
}

export async function main(argv: string[], given: CliIO): Promise<number> {
  const { args, lang, invalid } = takeLangOption(argv);
  const locale = cliLocale(lang, given.env ?? {});
  const t = translator(locale);
  const io: CliIO = { ...given, locale, stdout: (text) => given.stdout(printable(text)), stderr: (text) => given.stderr(printable(text)) };
  if (invalid) {
    io.stderr(`zero-lens: ${t('--lang needs a language: en or zh-cn.')}\n${usage(t)}`);
    return ExitCode.usage;
  }
  const [command, ...rest] = args;
  switch (command) {
    case 'check':
      return runCheck(rest, io);
    case 'estimate':
      return runEstimate(rest, io);
    case undefined:
      // A usage error like any other: to stderr, so a script piping stdout does not take it for output.
      io.stderr(usage(t));
      return ExitCode.usage;
    case '-h':
    case '--help':
      io.stdout(usage(t));
      return ExitCode.ok;
    default:
      io.stderr(`zero-lens: ${t("unknown command '{0}'.", command)}\n${usage(t)}`);
      return ExitCode.usage;
  }
}

/** Runs `zero-lens` on this process's arguments and streams, and sets its exit status. */
export function runInProcess(): Promise<void> {
  const io: CliIO = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
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
