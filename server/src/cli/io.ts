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
 * Messages quote the file's text (`Unexpected '…'`, a model name), which may hold control characters or
 * bidirectional marks (U+202E reverses what follows): replaced, so a file cannot send escape sequences to the
 * terminal or make it show text in another order than it is. JSON output escapes controls anyway.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '\ufffd');
}
