import { parseShell } from './parser';
import { countBelow } from '../../util/sortedSearch';
import { environmentFor } from './variables';
import type { Assignment, Command, ShellScript, Word, WordPart } from './types';

/**
 * Words that come from variables, as a launch runs them: `ds_args="--deepspeed ds.json"; deepspeed t.py $ds_args`,
 * `CMD=(torchrun …); CMD+=(--deepspeed x); "${CMD[@]}"`, `options="${options} --deepspeed"`, `eval $run_cmd`,
 * `bash -c "…"`. The variable's text is put where it is used and the command is parsed again; every word of
 * that parse carries offsets in the document (into the assignment it came from), so spans, hovers and fixes
 * point at the place the flag is written.
 *
 * Bounded: each assignment is expanded once, in order (linear in the script), and an expansion is cut at
 * `maxExpandedLength` characters, so `a="$a $a"` repeated cannot grow without limit.
 */

/** Text with, for each character, the document offset it was written at. */
export interface MappedText {
  text: string;
  at: number[];
}

const maxExpandedLength = 16 * 1024;
const namePattern = /^[A-Za-z_][A-Za-z0-9_]*/;

function mapped(text: string, start: number): MappedText {
  return { text, at: Array.from({ length: text.length }, (_, i) => start + i) };
}

function append(into: MappedText, more: MappedText): void {
  const room = maxExpandedLength - into.text.length;
  if (room <= 0) return;
  into.text += more.text.slice(0, room);
  for (let i = 0; i < Math.min(room, more.at.length); i++) into.at.push(more.at[i]);
}

/**
 * An unquoted expansion is split into words at blanks and newlines; a `\`+newline written inside the value's
 * double quotes was removed by bash. Same length, so the offsets stay.
 */
function asFields(value: MappedText): MappedText {
  return { text: value.text.replace(/\\\r?\n/g, (m) => ' '.repeat(m.length)).replace(/[\r\n]/g, ' '), at: value.at };
}


/**
 * Whether a variable's text is several words where it is used unquoted (an argument list), as the shell reads
 * them: `$(dirname $0)/x` and `a\ b` are one word.
 */
function splitsInto(value: MappedText): boolean {
  const trimmed = value.text.trim();
  if (!/\s/.test(trimmed)) return false;
  // Two words are found in the first few hundred characters of any argument list; a long value is not parsed whole.
  const head = asFields({ text: trimmed.slice(0, 2048), at: [] }).text;
  return parseShell(head).commands.reduce((n, c) => n + c.words.length + c.envPrefix.length, 0) > 1;
}

/**
 * The text of an assignment's value as the shell will see it when the variable is used: the inside of its quotes
 * (`"…"`, `'…'`), or of an array's parentheses, or the word itself.
 */
function valueContent(text: string, a: Assignment): MappedText & { quote: '"' | "'" | '(' | '' } {
  const { start, end } = a.value;
  const raw = text.slice(start, end);
  const first = raw[0];
  if ((first === '"' || first === "'") && raw.length >= 2 && raw[raw.length - 1] === first) return { ...mapped(raw.slice(1, -1), start + 1), quote: first };
  if (first === '(' && raw.endsWith(')')) return { ...mapped(raw.slice(1, -1), start + 1), quote: '(' };
  return { ...mapped(raw, start), quote: '' };
}

/** `NAME`, `NAME[@]`, `NAME[*]`, `NAME:-default` → the variable, when a reference is one of these simple forms. */
function referenceName(inner: string): { name: string; whole: boolean } | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[@*]\])?$/.exec(inner);
  return m ? { name: m[1], whole: true } : undefined;
}

/**
 * Copies `source[from, to)` of the document into a mapped text, putting the text of variables that `inline`
 * gives in place of `$NAME` / `${NAME}` / `${NAME[@]}`. Single-quoted text (outside double quotes) is never
 * expanded; a backslash keeps the next character.
 */
function inlineVariables(text: string, from: number, to: number, inline: (name: string) => MappedText | undefined, startsInDoubleQuotes = false): MappedText {
  const out: MappedText = { text: '', at: [] };
  let p = from;
  let dq = startsInDoubleQuotes;
  const copy = (a: number, b: number) => {
    const n = Math.min(b, to, a + maxExpandedLength - out.text.length) - a;
    if (n <= 0) return;
    out.text += text.slice(a, a + n);
    for (let i = 0; i < n; i++) out.at.push(a + i);
  };
  while (p < to && out.text.length < maxExpandedLength) {
    const c = text[p];
    if (c === '\\') {
      copy(p, Math.min(p + 2, to));
      p += 2;
      continue;
    }
    if (c === "'" && !dq) {
      const close = text.indexOf("'", p + 1);
      const end = close < 0 || close >= to ? to : close + 1;
      copy(p, end);
      p = end;
      continue;
    }
    if (c === '"') dq = !dq;
    if (c === '$') {
      let ref: { name: string; end: number; elements: boolean } | undefined;
      if (text[p + 1] === '{') {
        const close = text.indexOf('}', p + 2);
        const inner = close >= 0 && close < to ? text.slice(p + 2, close) : '';
        const r = referenceName(inner);
        if (r) ref = { name: r.name, end: close + 1, elements: inner.endsWith('[@]') };
      } else {
        const m = namePattern.exec(text.slice(p + 1, Math.min(to, p + 257)));
        if (m) ref = { name: m[0], end: p + 1 + m[0].length, elements: false };
      }
      const value = ref ? inline(ref.name) : undefined;
      if (ref && value) {
        // "${ARR[@]}" is one word per element: close the quotes around the elements, reopen after them.
        const requote = dq && ref.elements;
        // The quotes join the first and last element: no blank may separate them. They map onto the elements'
        // first and last characters, so a word's span stays inside the text it came from.
        const elements = requote ? trimmed(value) : value;
        if (requote) append(out, { text: '"', at: [elements.at[0] ?? p] });
        append(out, elements);
        p = ref.end;
        // `"${ARR[@]}"`: the quote that closes the word would only reopen and close an empty string; leave both out.
        if (requote && text[p] === '"') {
          p++;
          dq = false;
        } else if (requote) append(out, { text: '"', at: [elements.at[elements.at.length - 1] ?? ref.end - 1] });
        continue;
      }
    }
    copy(p, p + 1);
    p++;
  }
  return out;
}

/** The expanded text of every variable, assignment by assignment in script order. */
export class ScriptExpansions {
  /**
   * Each variable's texts in script order, with the command that assigned each. A command sees the last text
   * assigned by an earlier command: looked up per name, not copied per command (a script of thousands of
   * commands and variables would copy every variable once per command).
   */
  private readonly history = new Map<string, { commandIndex: number[]; values: MappedText[]; fromAssignment: boolean[] }>();
  /** Each assignment's text, for the assignment variables.ts says a command sees (if/case branches). */
  private readonly byAssignment = new Map<Assignment, MappedText>();
  /** Whether a variable's text splits, asked once per text (this instance's: the core keeps no module state). */
  private readonly splitCache = new WeakMap<MappedText, boolean>();
  private readonly splits = (value: MappedText): boolean => {
    let known = this.splitCache.get(value);
    if (known === undefined) this.splitCache.set(value, (known = splitsInto(value)));
    return known;
  };

  constructor(private readonly script: ShellScript) {
    const splits = this.splits;
    const values = new Map<string, MappedText>();
    const { text } = script;
    const reads = heredocReads(script);
    let nextRead = 0;
    const record = (name: string, commandIndex: number, assignment?: Assignment) => {
      let versions = this.history.get(name);
      if (!versions) this.history.set(name, (versions = { commandIndex: [], values: [], fromAssignment: [] }));
      versions.commandIndex.push(commandIndex);
      versions.values.push(values.get(name)!);
      versions.fromAssignment.push(assignment !== undefined);
      if (assignment) this.byAssignment.set(assignment, values.get(name)!);
    };
    const readsUpTo = (commandIndex: number) => {
      for (; nextRead < reads.length && reads[nextRead].commandIndex <= commandIndex; nextRead++) {
        const r = reads[nextRead];
        // An unquoted delimiter expands the body's variables (as inside double quotes); a quoted one keeps it as written.
        values.set(r.name, r.expands ? inlineVariables(text, r.start, r.end, (name) => values.get(name), true) : mapped(text.slice(r.start, r.end), r.start));
        record(r.name, r.commandIndex);
      }
    };
    for (const a of script.assignments) {
      readsUpTo(a.commandIndex - 1);
      // A prefix (`A=1 cmd`) is the command's own environment: it never becomes a shell variable.
      if (a.kind === 'prefix') continue;
      const content = valueContent(text, a);
      const inlined =
        content.quote === "'"
          ? { text: content.text, at: content.at }
          : inlineVariables(text, content.at[0] ?? a.value.start, (content.at[content.at.length - 1] ?? a.value.start - 1) + 1, (name) => {
              const v = values.get(name);
              // Inside a value, a variable is put in when it holds several words (an argument list); a path or a
              // number stays `$NAME`, which the launch's environment resolves with the command's span.
              return v && (content.quote === '(' || splits(v) || name === a.name) ? v : undefined;
            }, content.quote === '"');
      const appended = text[a.start + a.name.length] === '+';
      const previous = values.get(a.name);
      if (appended && previous) {
        const joined: MappedText = { text: previous.text, at: [...previous.at] };
        append(joined, { text: ' ', at: [inlined.at[0] ?? a.start] });
        append(joined, inlined);
        values.set(a.name, joined);
      } else values.set(a.name, inlined);
      record(a.name, a.commandIndex, a);
    }
    readsUpTo(Infinity);
  }

  /** The variables' texts as a command sees them: every assignment of an earlier command. */
  valuesAt(command: Command): Variables {
    const env = environmentFor(this.script, command);
    return {
      get: (name) => {
        const versions = this.history.get(name);
        const before = versions ? countBelow(versions.commandIndex, command.index) : 0;
        if (before === 0) return undefined;
        // After an if/case whose branch the script decides, that branch's assignment (variables.ts); an undecided
        // one keeps the last written (an array appended to in a branch still runs), and a heredoc read after it
        // (read -d '' X <<EOF) stays the latest.
        if (versions!.fromAssignment[before - 1]) {
          const binding = env.wordBinding(name);
          const taken = binding && !binding.branches ? this.byAssignment.get(binding.assignment) : undefined;
          if (taken) return taken;
        }
        return versions!.values[before - 1];
      },
    };
  }

  /**
   * The commands a written command runs, with words from variables put in: `eval …` and `bash -c "…"` run the
   * text of their arguments; an unquoted `$VAR` that holds several words (or `"${ARR[@]}"`) becomes those
   * words. The command itself when nothing is expanded.
   */
  commandsOf(command: Command): Command[] {
    const words = command.words;
    if (words.length === 0) return [command];
    const values = this.valuesAt(command);
    const text = this.script.text;
    // `srun … eval …`, `srun … bash -c '…'`: what the job step runs.
    const lead = programIndex(words);
    const first = words[lead]?.value;
    // eval ARGS: the arguments, one level of quotes removed, joined and parsed again (the parse expands the
    // variables, also those written in single quotes). bash -c 'TEXT': likewise, by another shell.
    const shell = first === 'bash' || first === 'sh' || first === 'zsh';
    const evalFrom = first === 'eval' ? lead + 1 : shell && words[lead + 1]?.value === '-c' && words.length >= lead + 3 ? lead + 2 : undefined;
    if (evalFrom !== undefined) {
      const joined: MappedText = { text: '', at: [] };
      for (const w of words.slice(evalFrom, first === 'eval' ? undefined : evalFrom + 1)) {
        if (joined.text) append(joined, { text: ' ', at: [w.start] });
        const raw = text.slice(w.start, w.end);
        const quoted = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw[raw.length - 1] === raw[0];
        const inlined = inlineVariables(text, quoted ? w.start + 1 : w.start, quoted ? w.end - 1 : w.end, (name) => values.get(name), quoted);
        // `eval $cmd` splits the text into words first (newlines are blanks then); `eval "$cmd"` keeps its lines.
        append(joined, quoted && raw[0] === '"' ? inlined : asFields(inlined));
      }
      const inner = reparse(joined, command);
      return inner.length ? inner : [command];
    }
    // Words holding a variable that splits into several words.
    const splits = this.splits;
    const expands = (w: Word) => w.parts.some((p) => p.kind === 'var' && isListReference(p, values, splits, inDoubleQuotes(text, w.start, p.start)));
    if (!words.some(expands)) return [command];
    const joined: MappedText = { text: '', at: [] };
    for (const w of words) {
      if (joined.text) append(joined, { text: ' ', at: [w.start] });
      if (!expands(w)) {
        append(joined, mapped(text.slice(w.start, w.end), w.start));
        continue;
      }
      append(
        joined,
        inlineVariables(text, w.start, w.end, (name) => {
          const v = values.get(name);
          return v && splits(v) ? asFields(v) : undefined;
        }),
      );
    }
    const inner = reparse(joined, command);
    return inner.length ? [inner[0]] : [command];
  }
}

/**
 * `read [-r] -d '' NAME <<EOF … EOF`: the here-document's body becomes NAME (OpenRLHF's examples/scripts hold their
 * whole training command so, and run `deepspeed --module $training_commands`). Ordered by command.
 */
function heredocReads(script: ShellScript): { name: string; commandIndex: number; start: number; end: number; expands: boolean }[] {
  const out: { name: string; commandIndex: number; start: number; end: number; expands: boolean }[] = [];
  for (const h of script.heredocs) {
    const words = script.commands[h.commandIndex]?.words ?? [];
    const last = words[words.length - 1];
    if (words[0]?.value !== 'read' || words.length < 2 || !last || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(last.value) || last.hasExpansion) continue;
    out.push({ name: last.value, commandIndex: h.commandIndex, start: h.start, end: h.bodyEnd, expands: h.expands });
  }
  return out.sort((a, b) => a.commandIndex - b.commandIndex);
}

/** The variables' texts a command sees, by name. */
export interface Variables {
  get(name: string): MappedText | undefined;
}

/** Job launchers that run the command after their own options: `srun -N 2 --jobid $ID python …`, `mpirun -np 8 …`. */
export const jobLaunchers = new Set(['srun', 'mpirun', 'mpiexec', 'orterun', 'salloc']);

/** Programs a job launcher may run that ZeRO Lens reads (the launchers and trainers), or a shell / eval. */
const programs = /^(deepspeed|torchrun|accelerate|accelerate-launch|swift|megatron|llamafactory-cli|lmf|python(\d+(\.\d+)?)?|bash|sh|zsh|eval|axolotl)$/;

/**
 * Where the real command starts: after `srun`/`mpirun` and their options (which take values in many forms), the
 * first word that is a program ZeRO Lens reads; 0 when the command does not start with a job launcher.
 */
export function programIndex(words: Word[]): number {
  const base = (v: string) => v.split(/[\\/]/).pop() ?? v;
  if (!words.length || !jobLaunchers.has(base(words[0].value))) return 0;
  for (let i = 1; i < words.length; i++) if (programs.test(base(words[i].value))) return i;
  return 0;
}

/** `$X` / `${X}` / `${X[@]}` of a variable whose text holds several words. */
function isListReference(part: WordPart & { kind: 'var' }, values: Variables, splits: (value: MappedText) => boolean, quoted: boolean): boolean {
  const value = values.get(part.name);
  if (!value || !splits(value)) return false;
  // "$X" is one word whatever X holds; "${ARR[@]}" is one word per element.
  if (quoted) return part.raw.endsWith('[@]}');
  return part.raw === '$' + part.name || referenceName(part.raw.slice(2, -1)) !== undefined;
}

function trimmed(value: MappedText): MappedText {
  const start = value.text.length - value.text.trimStart().length;
  const end = value.text.trimEnd().length;
  return { text: value.text.slice(start, end), at: value.at.slice(start, end) };
}

/** Whether `offset` of a word lies inside double quotes (single-quoted text and escapes skipped). */
function inDoubleQuotes(text: string, from: number, offset: number): boolean {
  let dq = false;
  for (let p = from; p < offset; p++) {
    const c = text[p];
    if (c === '\\') p++;
    else if (c === "'" && !dq) {
      const close = text.indexOf("'", p + 1);
      p = close < 0 ? offset : close;
    } else if (c === '"') dq = !dq;
  }
  return dq;
}

/** Parses mapped text as shell; the commands' words, parts and spans in document offsets, as `original` runs them. */
function reparse(source: MappedText, original: Command): Command[] {
  if (!source.text.trim()) return [];
  const parsed = parseShell(source.text);
  const last = source.at.length ? source.at[source.at.length - 1] + 1 : original.start;
  const at = (i: number) => (i < source.at.length ? source.at[i] : last);
  const endAt = (start: number, end: number) => (end > start ? at(end - 1) + 1 : at(start));
  // A character put in (the quote that closes around "${ARR[@]}") may map before the text it joins: start at the
  // first character that does not lie after the end.
  const startAt = (start: number, end: number) => {
    const last = endAt(start, end);
    let i = start;
    while (i < end - 1 && at(i) >= last) i++;
    return Math.min(at(i), last);
  };
  const word = (w: Word): Word => ({
    ...w,
    start: startAt(w.start, w.end),
    end: endAt(w.start, w.end),
    parts: w.parts.map((p) => ({ ...p, start: startAt(p.start, p.end), end: endAt(p.start, p.end) })),
  });
  return parsed.commands
    .filter((c) => c.words.length > 0)
    .map((c) => ({
      ...original,
      // The written command's own prefix and place; the words as they run.
      words: c.words.map(word),
      envPrefix: [...original.envPrefix, ...c.envPrefix.map((a) => ({ ...a, start: at(a.start), end: endAt(a.start, a.end), value: word(a.value) }))],
    }));
}
