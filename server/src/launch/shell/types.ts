/**
 * Result of parsing a shell script. Every node carries character offsets into the original text
 * (`start` inclusive, `end` exclusive), so features can map back to exact ranges.
 */

/** A piece of a word: literal text, or an expansion the parser keeps opaque (with its raw text). */
export type WordPart =
  | { kind: 'text'; text: string; start: number; end: number }
  /** `$NAME`, `${NAME}`, `${NAME:-default}` (name is the variable, raw the whole expansion). */
  | { kind: 'var'; name: string; raw: string; start: number; end: number }
  /** `$(...)` or backticks; `inner` is the text between the delimiters. */
  | { kind: 'command'; inner: string; raw: string; start: number; end: number }
  /** `$((...))`. */
  | { kind: 'arith'; inner: string; raw: string; start: number; end: number };

export interface Word {
  /** Value after quote removal; expansions contribute their raw text. */
  value: string;
  /** Source text, continuations included. */
  raw: string;
  start: number;
  end: number;
  parts: WordPart[];
  /** Some part of the word was quoted. */
  quoted: boolean;
  /** The word contains at least one expansion. */
  hasExpansion: boolean;
}

export interface Assignment {
  name: string;
  /** The value part (after `=`), possibly empty. */
  value: Word;
  start: number;
  end: number;
  /** 'prefix' = `A=1 cmd`; 'plain' = `A=1` alone; 'export' = `export A=1` (also declare -x). */
  kind: 'prefix' | 'plain' | 'export';
  /** Index of the command that holds the assignment. */
  commandIndex: number;
}

export interface Redirect {
  op: string;
  target?: Word;
  start: number;
  end: number;
}

export type Separator = ';' | '&&' | '||' | '|' | '|&' | '&' | ';;' | '(' | ')' | 'newline' | 'eof';

export interface Command {
  index: number;
  /** `A=1 B=2` before the command name. */
  envPrefix: Assignment[];
  /** Command name and arguments (reserved words such as `then`/`do` and redirections removed). */
  words: Word[];
  redirects: Redirect[];
  start: number;
  end: number;
  /** 0-based lines of start and end. */
  startLine: number;
  endLine: number;
  /** What ended the command. */
  separator: Separator;
}

export type ShellIssue =
  /** `\` + newline followed by a blank or comment line: bash ends the command there. */
  | { kind: 'broken-continuation'; reason: 'blank-line' | 'comment-line'; backslash: number; gapStart: number; gapEnd: number; joined: boolean }
  /** `\` followed by spaces or tabs before the newline: it escapes a space instead of the newline. */
  | { kind: 'trailing-space'; backslash: number; start: number; end: number }
  | { kind: 'unterminated'; what: 'single-quote' | 'double-quote' | 'command-substitution' | 'backtick' | 'brace' | 'heredoc'; start: number };

/** A here-document: its body [start, bodyEnd) (the terminator line follows, up to end) and the command it feeds. */
export interface Heredoc {
  start: number;
  end: number;
  delimiter: string;
  /** Where the terminator line starts (the body's end); `end` when unterminated. */
  bodyEnd: number;
  /** Index of the command whose redirect opened it (`cat <<EOT > $config_json`). */
  commandIndex: number;
  /** An unquoted delimiter: the shell expands `$VAR`, `${VAR}` and `$(…)` in the body. */
  expands: boolean;
  /** `<<-`: leading tabs are stripped from each line. */
  stripTabs: boolean;
}

export interface ShellScript {
  text: string;
  commands: Command[];
  /** Every assignment in source order (prefix, plain and export). */
  assignments: Assignment[];
  issues: ShellIssue[];
  comments: { start: number; end: number }[];
  heredocs: Heredoc[];
  /** Offsets where lines start, for offset → line. */
  lineStarts: number[];
}
