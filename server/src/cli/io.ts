import type { Locale } from '../l10n';

/** What a CLI command may do to the outside world; tests pass their own to capture output. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  /** The environment the language is read from (LC_ALL, LC_MESSAGES, LANG); none: English. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The language of the run, set by `main` from `--lang` and `env`; absent: English. */
  locale?: Locale;
}

/** Exit statuses shared by every command. */
export const ExitCode = { ok: 0, problemsFound: 1, usage: 2 } as const;

/**
 * Messages quote the file's text (`Unexpected '…'`), which may hold control characters: replaced, so a
 * binary or corrupt file cannot send escape sequences to the terminal. JSON output escapes them anyway.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}
