import { exactArray } from '../../util/exactArrays';
import { countBelow } from '../../util/sortedSearch';
import type { Assignment, Command, ShellScript, Word, WordPart } from './types';
import { branchEvents, decideCondition, emptinessTested, patternMatches, type BranchEvent } from './branches';
import { loopEvents, type LoopEvent } from './loops';
import { namesRead } from './read';

/** A variable's value as the script sets it, with where it was set. */
export interface VariableBinding {
  value: string | undefined;
  assignment: Assignment;
  exported: boolean;
  /**
   * Set (value undefined) after an `if`/`case` whose branches give the name different values and whose branch bash
   * takes the script does not decide: the value of each way through, as written (`$NAME` where it keeps the
   * environment's).
   */
  branches?: string[];
  /**
   * In the body of `for NAME in WORDS` (NAME here) with different words: `branches` are the values of the words; for a
   * name the body assigns from NAME (`MBS=$NAME`), its value in each run, in the order of NAME's.
   */
  loop?: string;
  /** The value with every name the script never sets empty (where `value` is unknown): what decides a branch. */
  bare?: string;
}

/**
 * Variables visible to one command: script assignments before it (in order), then its own env prefix.
 * Values are resolved when simple (`$x`, `${x}`, `$(expr a / b)`, `$((a / b))`), else undefined.
 */
export class CommandEnvironment {
  constructor(
    /** The script variable as it stands before the command (undefined: never set, or unset). */
    private readonly shellBinding: (name: string) => VariableBinding | undefined,
    readonly prefix: Map<string, VariableBinding>,
  ) {}

  /** Value a variable has inside the command (prefix wins), or undefined when unknown. */
  value(name: string): string | undefined {
    return (this.prefix.get(name) ?? this.shellBinding(name))?.value;
  }

  /**
   * The script's assignment a `$name` in the command's words expands from: bash expands the words before the
   * command's own prefix assignments apply. Undefined when the script never sets it (the environment's).
   */
  wordBinding(name: string): VariableBinding | undefined {
    return this.shellBinding(name);
  }

  /** Binding of an environment variable the launched process sees (prefix, or exported script variable). */
  envBinding(name: string): VariableBinding | undefined {
    const prefix = this.prefix.get(name);
    if (prefix) return prefix;
    const shell = this.shellBinding(name);
    return shell?.exported ? shell : undefined;
  }

  resolve(word: Word): string | undefined {
    return resolveWord(word, (n) => this.value(n));
  }

  /**
   * The environment of one run of the `for` loop named `loop`: every name that takes each of its values (`loop` itself,
   * `MBS=$loop` in its body) has that run's (`branches[run]`), the prefix read again.
   */
  inRun(loop: string, run: number): CommandEnvironment {
    return this.fixing((_, binding) => (binding.loop === loop ? binding.branches![run] : undefined));
  }

  /** The environment as one branch the script does not decide leaves it: `name` has `value`, the prefix read again. */
  inBranch(name: string, value: string): CommandEnvironment {
    return this.fixing((n) => (n === name ? value : undefined));
  }

  /** The same script variables, where `fixed` gives a value to a name with several (`branches`), the prefix read again. */
  private fixing(fixed: (name: string, binding: VariableBinding) => string | undefined): CommandEnvironment {
    const shell = (n: string) => {
      const binding = this.shellBinding(n);
      const value = binding?.branches ? fixed(n, binding) : undefined;
      return value !== undefined ? { value, assignment: binding!.assignment, exported: binding!.exported } : binding;
    };
    return new CommandEnvironment(shell, prefixBindings([...this.prefix.values()].map((b) => b.assignment), shell));
  }
}

/** A command's own prefix assignments, each seeing those before it, then the script's variables. */
function prefixBindings(assignments: Assignment[], shell: (name: string) => VariableBinding | undefined): Map<string, VariableBinding> {
  const prefix = new Map<string, VariableBinding>();
  for (const a of assignments) prefix.set(a.name, { value: resolveWord(a.value, (n) => prefix.get(n)?.value ?? shell(n)?.value), assignment: a, exported: true });
  return prefix;
}

/** One name's history through the script: what it is after each event, by where the event stands. */
interface History {
  /** Event positions, ascending (see `position`). */
  at: number[];
  /** The binding after each event (undefined after `unset`). */
  bindings: (VariableBinding | undefined)[];
}

/**
 * Where an event stands: assignments of command i (its own, or bare ones before it) come before what
 * command i itself does (`export NAME`, `unset NAME`); command c sees every event before 2c.
 */
const position = (commandIndex: number, isCommand: boolean): number => commandIndex * 2 + (isCommand ? 1 : 0);

/**
 * Every variable's history in one pass over the script, so the environment of any command is a binary search
 * per name it asks for: the work stays linear in the script's size however many commands and variables it has.
 */
function histories(script: ShellScript): Map<string, History> {
  const byName = new Map<string, History>();
  const current = new Map<string, VariableBinding | undefined>();
  /** Names exported (by `export NAME` or an export assignment) since they were last unset. */
  const exported = new Set<string>();
  const frames: BranchFrame[] = [];
  const loops: LoopFrame[] = [];
  /** The bindings made inside loops, in order (emptied when the outermost closes). */
  const made: VariableBinding[] = [];
  const record = (name: string, at: number, binding: VariableBinding | undefined): void => {
    // Every open if/case keeps the value the name had before it, to restore per branch and merge at its end.
    for (const frame of frames) if (!frame.before.has(name)) frame.before.set(name, current.get(name));
    if (loops.length && binding) made.push(binding);
    current.set(name, binding);
    let history = byName.get(name);
    if (!history) byName.set(name, (history = { at: [], bindings: [] }));
    history.at.push(at);
    history.bindings.push(binding);
  };
  type Event = { at: number; order: number; run: () => void };
  const events: Event[] = [];
  script.assignments.forEach((a, order) => {
    if (a.kind === 'prefix') return;
    events.push({
      at: position(a.commandIndex, false),
      order,
      run: () => {
        const value = resolveWord(a.value, (n) => current.get(n)?.value);
        const bare = value === undefined ? resolveWord(a.value, bareLookup(current)) : undefined;
        if (a.kind === 'export') exported.add(a.name);
        const binding: VariableBinding = { value, assignment: a, exported: exported.has(a.name), ...(bare !== undefined && { bare }) };
        record(a.name, position(a.commandIndex, false), value === undefined ? (eachRun(binding, loops, current) ?? binding) : binding);
      },
    });
  });
  for (const command of script.commands) {
    const first = command.words[0]?.value;
    if (first !== 'export' && first !== 'unset' && first !== 'read') continue;
    for (const w of first === 'read' ? namesRead(command.words) : command.words.slice(1)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value)) continue;
      const name = w.value;
      events.push({
        at: position(command.index, true),
        order: 0,
        run: () => {
          // `while read -r NAME; do`: bash reads the value when the script runs, not what NAME held before.
          if (first === 'read') {
            const value = runTimeWord(w, { kind: 'command', inner: 'read', raw: w.raw, start: w.start, end: w.end });
            record(name, position(command.index, true), { value: undefined, assignment: { name, value, start: w.start, end: w.end, kind: 'plain', commandIndex: command.index }, exported: exported.has(name) });
            return;
          }
          if (first === 'unset') {
            exported.delete(name);
            record(name, position(command.index, true), undefined);
            return;
          }
          // `export NAME` after `NAME=…` exports the value it has; before it, the value it gets.
          exported.add(name);
          const binding = current.get(name);
          if (binding) record(name, position(command.index, true), { ...binding, exported: true });
        },
      });
    }
  }
  for (const [index, list] of branchEvents(script)) {
    for (const event of list) {
      // Before the command's own assignments (`then X=1`); a test's `&& X=1` closes after them.
      const at = position(index, event.kind === 'close' && !!event.after);
      events.push({ at, order: -1, run: () => branchStep(frames, event, at, current, record) });
    }
  }
  for (const [index, event] of loopEvents(script)) {
    // A loop's name is bound after its `for` command, the last word's value bound again at `done`.
    const at = position(index, event.kind === 'open');
    events.push({ at, order: -1, run: () => loopStep(loops, made, event, index, at, current, record, exported) });
  }
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const event of events) event.run();
  for (const history of byName.values()) {
    history.at = exactArray(history.at);
    history.bindings = exactArray(history.bindings);
  }
  return byName;
}

/** One open `if` or `case` while the histories are made. */
interface BranchFrame {
  before: Map<string, VariableBinding | undefined>;
  /** Each finished branch's values of the names in `before`. */
  done: Map<string, VariableBinding | undefined>[];
  open: boolean;
  /** The case subject's value, when the script fixes it. */
  subject?: string;
  /** The branch bash takes: its number, 'none', 'searching' while the tests so far are false, undefined if unknown. */
  taken: number | 'none' | 'searching' | undefined;
  /** An `else` or `*)`: some branch always runs. */
  exhaustive: boolean;
  /**
   * The name an `if [ -z "$NAME" ]` first branch defaults, when the script has not set it: the long form of
   * `${NAME:-value}`, and read the same way (the branch's value unless the environment sets one).
   */
  defaults?: string;
}

/**
 * A name's value as the script runs with no arguments, the reading `${1:-default}` gets (resolveBraced): positional
 * parameters are empty (`$#` is 0). A name the script never sets is the environment's and a value it cannot know
 * (`$(nvidia-smi …)`) is unknown: neither decides a branch.
 */
function bareLookup(current: Map<string, VariableBinding | undefined>): (name: string) => string | undefined {
  return (name) => {
    const binding = current.get(name);
    if (binding) return binding.value ?? binding.bare;
    return name === '#' ? '0' : /^(\d+|[@*])$/.test(name) ? '' : undefined;
  };
}

/** A word's value for deciding a branch (bareLookup). */
function fixedValue(current: Map<string, VariableBinding | undefined>): (word: Word) => string | undefined {
  return (word) => resolveWord(word, bareLookup(current));
}

/** A branch event's effect on the variables: restore at each branch, merge at the end (see BranchFrame). */
function branchStep(
  frames: BranchFrame[],
  event: BranchEvent,
  at: number,
  current: Map<string, VariableBinding | undefined>,
  record: (name: string, at: number, binding: VariableBinding | undefined) => void,
): void {
  if (event.kind === 'open') {
    const subject = event.subject ? fixedValue(current)(event.subject) : undefined;
    frames.push({ before: new Map(), done: [], open: false, subject, taken: event.construct === 'if' || subject !== undefined ? 'searching' : undefined, exhaustive: false });
    return;
  }
  const frame = frames[frames.length - 1];
  if (!frame) return;
  if (frame.open) frame.done.push(new Map([...frame.before.keys()].map((name) => [name, current.get(name)])));
  if (event.kind === 'close') {
    frames.pop();
    // Back to the values before the construct, so outer frames keep those, then the merged values.
    for (const [name, binding] of frame.before) current.set(name, binding);
    for (const [name, before] of frame.before) record(name, at, merged(frame, name, before));
    return;
  }
  for (const [name, binding] of frame.before) if (current.get(name) !== binding) record(name, at, binding);
  frame.open = true;
  const index = frame.done.length;
  const catchAll = event.patterns ? event.patterns.some((p) => !p.quoted && p.value === '*') : !event.test && !event.never;
  frame.exhaustive ||= catchAll;
  if (frame.taken !== 'searching') return;
  if (event.patterns) {
    const values = event.patterns.map((p) => ({ p, value: fixedValue(current)(p) }));
    if (values.some((v) => v.value === undefined)) frame.taken = undefined;
    else if (values.some((v) => patternMatches(v.value!, v.p.quoted, frame.subject!))) frame.taken = index;
    return;
  }
  if (index === 0 && event.test?.length === 1 && !event.test[0].negated) {
    const name = emptinessTested(event.test[0].words);
    if (name !== undefined && current.get(name) === undefined) frame.defaults = name;
  }
  const holds = event.never ? false : event.test ? decideCondition(event.test, fixedValue(current)) : true;
  frame.taken = holds === undefined ? undefined : holds ? index : 'searching';
}

/** A name's value after an if/case: the branch taken's, the same in every way through, or each way's value. */
function merged(frame: BranchFrame, name: string, before: VariableBinding | undefined): VariableBinding | undefined {
  const after = (branch: Map<string, VariableBinding | undefined>) => (branch.has(name) ? branch.get(name) : before);
  if (typeof frame.taken === 'number') return after(frame.done[frame.taken]);
  if (frame.taken === 'none' || frame.taken === 'searching') return before;
  if (frame.defaults === name && frame.done[0]?.get(name)?.value !== undefined) return frame.done[0].get(name);
  const ways = frame.done.map(after);
  if (!frame.exhaustive) ways.push(before);
  const texts = [...new Set(ways.flatMap((b) => b?.branches ?? [b ? (b.value ?? b.assignment.value.raw) : `$${name}`]))];
  const last = [...ways].reverse().find((b) => b !== undefined);
  if (!last) return undefined;
  if (ways.every((b) => b !== undefined && b.value !== undefined && b.value === last.value)) return last;
  return { value: undefined, assignment: last.assignment, exported: ways.some((b) => b?.exported === true), branches: texts };
}

/** One open loop while the histories are made. */
interface LoopFrame {
  /** The name of `for NAME in WORDS` as `done` leaves it: the last word's value. */
  after?: VariableBinding;
  /** The name's values, when the script expands every word and they differ: the runs, in order of first use. */
  values?: string[];
  /** Where the body's bindings start in the list of those made in loops; unset 8 loops deep, so the work stays linear. */
  from?: number;
}

/**
 * A loop event's effect on the variables. Every iteration runs, so in the body a name that takes different words is
 * unknown with each word's value (`VariableBinding.loop`), like a branch the script does not decide: no single value
 * is right for every use (the largest batch size is not the largest model). The facts an estimate sizes by take the
 * costliest iteration (launch/costliestRun.ts); the rest are not read, and the estimate says so. After `done` bash
 * leaves the last iteration's values.
 */
function loopStep(
  loops: LoopFrame[],
  made: VariableBinding[],
  event: LoopEvent,
  commandIndex: number,
  at: number,
  current: Map<string, VariableBinding | undefined>,
  record: (name: string, at: number, binding: VariableBinding | undefined) => void,
  exported: Set<string>,
): void {
  if (event.kind === 'open') {
    const frame: LoopFrame = { from: loops.length < 8 ? made.length : undefined };
    // `for NAME` runs over the script's arguments, which the script does not know.
    const items = event.words ? event.words.flatMap((w) => loopItems(w, (n) => current.get(n)?.value).map((value) => ({ value, text: value ?? w.raw }))) : [{ value: undefined, text: '"$@"' }];
    const last = items[items.length - 1];
    if (event.name && last) {
      const name = event.name.value;
      const lastWord = event.words?.[event.words.length - 1] ?? runTimeWord(event.name, { kind: 'var', name: '@', raw: '"$@"', start: event.name.start, end: event.name.end });
      const assignment: Assignment = { name, value: lastWord, start: event.name.start, end: lastWord.end, kind: 'plain', commandIndex };
      frame.after = { value: last.value, assignment, exported: exported.has(name) };
      const texts = [...new Set(items.map((i) => i.text))];
      if (texts.length > 1 && items.every((i) => i.value !== undefined)) frame.values = texts;
      record(name, at, texts.length === 1 && last.value !== undefined ? frame.after : { ...frame.after, value: undefined, branches: texts, loop: name });
    }
    loops.push(frame);
    return;
  }
  const frame = loops.pop();
  if (frame?.after) {
    // The last run's word, unless the body assigned the name itself (`for BS in 1 2; do BS=5; …`): then what that
    // assignment left in the last run, as below.
    const assigned = current.get(frame.after.assignment.name);
    const assignedInBody = frame.from !== undefined && assigned !== undefined && made.indexOf(assigned, frame.from) >= 0;
    if (!assignedInBody) record(frame.after.assignment.name, at, frame.after);
    const lastRun = frame.values?.indexOf(frame.after.value!) ?? -1;
    // The body ran last with the last word: a name it assigned from the loop's has that run's value, and an assignment
    // it left unknown reads it (`GBS=$((BS * 8))`).
    for (let i = frame.from ?? made.length; i < made.length; i++) {
      const b = made[i];
      if (current.get(b.assignment.name) !== b) continue;
      if (b.loop === frame.after.assignment.name && b.branches && lastRun >= 0) {
        const { branches, loop, ...rest } = b;
        record(b.assignment.name, at, { ...rest, value: branches[lastRun] });
      }
      if (b.value !== undefined || b.branches) continue;
      const value = resolveWord(b.assignment.value, (n) => current.get(n)?.value);
      if (value !== undefined) record(b.assignment.name, at, { ...b, value });
    }
  }
  if (!loops.length) made.length = 0;
}

/**
 * The value of a name the script sets when it runs, written at `at` (`read NAME`, `for NAME` over "$@"): an expansion,
 * so it is never resolved nor edited as a literal.
 */
function runTimeWord(at: Word, part: WordPart): Word {
  return { ...at, parts: [part], hasExpansion: true };
}

/**
 * A binding the script cannot resolve, when its value reads the name of a `for` loop it is in (`MBS=$BS`): its value in
 * each run of the innermost such loop (`VariableBinding.loop`), or the one value every run gives.
 */
function eachRun(binding: VariableBinding, loops: LoopFrame[], current: Map<string, VariableBinding | undefined>): VariableBinding | undefined {
  for (const { after, values } of [...loops].reverse()) {
    if (!after || !values) continue;
    const loop = after.assignment.name;
    const runs = values.map((_, run) => resolveWord(binding.assignment.value, (n) => {
      const b = current.get(n);
      return b?.branches && b.loop === loop ? b.branches[run] : b?.value;
    }));
    if (!runs.every((v) => v !== undefined)) continue;
    return new Set(runs).size === 1 ? { ...binding, value: runs[0] } : { ...binding, branches: runs as string[], loop };
  }
  return undefined;
}

/**
 * The items one word of a `for` list gives: a simple brace list `{a,b}`, an array `"${A[@]}"` written `A=(a b)`, an
 * unquoted value split at blanks; undefined where the script cannot expand it.
 */
function loopItems(word: Word, lookup: (name: string) => string | undefined): (string | undefined)[] {
  const brace = /^([^{}]*)\{([^{}]*,[^{}]*)\}([^{}]*)$/.exec(word.quoted || word.hasExpansion ? '' : word.value);
  if (brace) return brace[2].split(',').map((item) => brace[1] + item + brace[3]);
  const array = /^\$\{(\w+)\[[@*]\]\}$/.exec(word.value);
  const list = array && /^\(([^"'$`\\]*)\)$/.exec(lookup(array[1]) ?? '');
  // A glob or a brace form other than a list (`{1..3}`) is not expanded here.
  const value = list ? list[1] : /[*?[{]/.test(word.value) && !word.quoted ? undefined : resolveWord(word, lookup);
  return value === undefined ? [undefined] : word.quoted && !list ? [value] : value.split(/\s+/).filter(Boolean);
}

/** The last event of a history before `limit`, by binary search. */
function bindingBefore(history: History | undefined, limit: number): VariableBinding | undefined {
  const before = history ? countBelow(history.at, limit) : 0;
  return before === 0 ? undefined : history!.bindings[before - 1];
}

/** The histories of a script, made once per parsed script (scripts are immutable once parsed). */
const historiesOf = new WeakMap<ShellScript, Map<string, History>>();

export function environmentFor(script: ShellScript, command: Command): CommandEnvironment {
  let all = historiesOf.get(script);
  if (!all) historiesOf.set(script, (all = histories(script)));
  const byName = all;
  const limit = position(command.index, false);
  const shell = (name: string): VariableBinding | undefined => bindingBefore(byName.get(name), limit);
  return new CommandEnvironment(shell, prefixBindings(command.envPrefix, shell));
}

/** Longer values are not followed (a variable that doubles itself: `a="$a $a"`), as expand.ts cuts its texts. */
const maxValueLength = 64 * 1024;

/** Concatenates a word's parts, resolving simple expansions; undefined when any part is unknown or too long. */
export function resolveWord(word: Word, lookup: (name: string) => string | undefined): string | undefined {
  let out = '';
  for (const part of word.parts) {
    if (out.length > maxValueLength) return undefined;
    if (part.kind === 'text') out += part.text;
    else if (part.kind === 'var') {
      const value = resolveBraced(part.raw, part.name, lookup);
      if (value === undefined) return undefined;
      out += value;
    } else if (part.kind === 'command') {
      const value = evaluateExpr(part.inner, lookup);
      if (value === undefined) return undefined;
      out += String(value);
    } else {
      const value = evaluateArithmetic(part.inner, lookup);
      if (value === undefined) return undefined;
      out += String(value);
    }
  }
  return out.length > maxValueLength ? undefined : out;
}

function resolveBraced(raw: string, name: string, lookup: (name: string) => string | undefined): string | undefined {
  const value = lookup(name);
  if (!raw.startsWith('${') || raw === '${' + name + '}') return value;
  // ${X:-default} / ${X-default}: the default when X is unset (or empty for :-); ${1:-default} too, the script run
  // without arguments.
  const fallback = /^\$\{(?:[A-Za-z_][A-Za-z0-9_]*|\d+)(:?)-([^}$`]*)\}$/.exec(raw);
  if (fallback) {
    if (value === undefined || (fallback[1] === ':' && value === '')) return fallback[2];
    return value;
  }
  return undefined;
}

/** `expr 16 / $n` (the form ms-swift examples use) → integer, else undefined. */
function evaluateExpr(inner: string, lookup: (name: string) => string | undefined): number | undefined {
  const tokens = inner.trim().split(/\s+/);
  if (tokens[0] !== 'expr' || tokens.length < 2) return undefined;
  const substituted: string[] = [];
  for (const t of tokens.slice(1)) {
    const v = substitute(t.replace(/^\\\*$/, '*').replace(/^['"](.*)['"]$/, '$1'), lookup);
    if (v === undefined) return undefined;
    substituted.push(v);
  }
  return evaluateInfix(substituted);
}

function evaluateArithmetic(inner: string, lookup: (name: string) => string | undefined): number | undefined {
  const tokens = inner.match(/\$?\{?[A-Za-z_][A-Za-z0-9_]*\}?|\d+|[-+*/%()]/g);
  if (!tokens || tokens.join('') !== inner.replace(/\s+/g, '')) return undefined;
  const substituted: string[] = [];
  for (const t of tokens) {
    const v = /^[-+*/%()]$/.test(t) || /^\d+$/.test(t) ? t : substitute(t.startsWith('$') ? t : '$' + t, lookup);
    if (v === undefined) return undefined;
    substituted.push(v);
  }
  if (substituted.includes('(') || substituted.includes(')')) return undefined;
  return evaluateInfix(substituted);
}

function substitute(token: string, lookup: (name: string) => string | undefined): string | undefined {
  const ref = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(token);
  if (!ref) return token;
  const value = lookup(ref[1]);
  return value === undefined ? undefined : value.trim();
}

/** Integer infix with * / % before + -, left to right, as expr and $(( )) do. */
function evaluateInfix(tokens: string[]): number | undefined {
  if (tokens.length % 2 === 0) return undefined;
  const numbers: number[] = [];
  const ops: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (i % 2 === 0) {
      if (!/^-?\d+$/.test(tokens[i])) return undefined;
      numbers.push(Number(tokens[i]));
    } else {
      if (!/^[-+*/%]$/.test(tokens[i])) return undefined;
      ops.push(tokens[i]);
    }
  }
  const terms: number[] = [numbers[0]];
  const signs: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    const n = numbers[i + 1];
    if (op === '*' || op === '/' || op === '%') {
      const last = terms.pop()!;
      if ((op === '/' || op === '%') && n === 0) return undefined;
      terms.push(op === '*' ? last * n : op === '/' ? Math.trunc(last / n) : last % n);
    } else {
      signs.push(op);
      terms.push(n);
    }
  }
  let result = terms[0];
  for (let i = 0; i < signs.length; i++) result = signs[i] === '+' ? result + terms[i + 1] : result - terms[i + 1];
  return Number.isFinite(result) ? result : undefined;
}
