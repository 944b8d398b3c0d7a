/** What a CLI command may do to the outside world; tests pass their own to capture output. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
}

/** Exit statuses shared by every command. */
export const ExitCode = { ok: 0, problemsFound: 1, usage: 2 } as const;
