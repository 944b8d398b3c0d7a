import type { Command, Separator, ShellScript, Word } from './types';

/** An and-or list (`A || B`, `! A`): each command's words, negated by `!`, and the operator joining it to the last. */
export type Condition = { words: Word[]; negated: boolean; op?: Separator }[];

/**
 * Where `if … fi` and `case … esac` open, branch and close, read from the parsed commands: the parser drops `if`,
 * `then`, `elif` and `else` from a command's words but starts the command at the keyword, and keeps `fi`, `esac` and
 * a case pattern (`lora)`, `7b|7B)`: words ended by `|` and `)`) as commands of their own. A test's `&& X=1` or
 * `|| X=1` is an `if` of its own around the assignment, closed after it (`after`); `&& X=1 || Y=2` an if/else.
 */
export type BranchEvent =
  | { kind: 'open'; construct: 'if' | 'case'; subject?: Word }
  /**
   * A branch starts here; `test` is the `if`/`elif` condition, `patterns` a case branch's; `else` has neither.
   * `never`: bash cannot take it (the `|| Y=2` of `X=1 || Y=2`).
   */
  | { kind: 'branch'; test?: Condition; patterns?: Word[]; never?: true }
  | { kind: 'close'; after?: true };

/** Keywords a command starts with: a loop's `do`, a `then`/`else` before an `if` on the same line (`else if [ … ]`). */
const keywords = /^(?:(?:do|then|else)[ \t]+)?(if|then|elif|else)(?=[\s;&|()]|$)/;

/** A command of a condition, as the and-or list joins it. */
function part(script: ShellScript, command: Command, op?: Separator): Condition[number] {
  const first = command.words[0];
  return { words: command.words, negated: !!first && /!\s*$/.test(script.text.slice(command.start, first.start)), op };
}

/** The branch events by command index, in order. */
export function branchEvents(script: ShellScript): Map<number, BranchEvent[]> {
  const events = new Map<number, BranchEvent[]>();
  const add = (index: number, ...added: BranchEvent[]) => events.set(index, [...(events.get(index) ?? []), ...added]);
  const open: ('if' | 'case')[] = [];
  /** The condition of the `if`/`elif` whose `then` comes next. */
  let condition: Condition | undefined;
  /** The and-or list of tests the command continues (`[ … ] && X=1`). */
  let tests: Condition = [];
  let previous: Command | undefined;
  /** The previous command may fail or not, as the script cannot tell (`echo`, `python …`): not a test, not only assignments. */
  let fallible = false;
  let patterns: { first: number; words: Word[] } | undefined;
  /** Whether the and-or list so far may end with a failure: false after `X=1` or `X=1 || …`, which cannot fail. */
  let listMayFail = false;
  for (const command of script.commands) {
    const text = script.text.slice(command.start, command.start + 24);
    const [lead, inner] = [keywords.exec(text)?.[1], /^(?:then|else)[ \t]+if(?=[\s;&|()]|$)/.test(text)];
    const first = command.words[0];
    const word = first && !first.quoted ? first.value : undefined;
    const joined = previous?.separator === '&&' || previous?.separator === '||' ? previous.separator : undefined;
    /** The tests this command continues: after `[ … ] &&` or `[ … ] ||`. */
    const chain = joined ? tests : [];
    const afterFallible = joined === '||' && fallible;
    /** `X=1 || Y=2`, `X=1 && Z=3 || Y=2`: assignments never fail, so what follows the `||` never runs. */
    const unreachable: boolean = joined === '||' && !listMayFail;
    // A list's status is its last command's that ran: `A || B` fails only where B runs and fails.
    const mayFail = !assignsOnly(command);
    listMayFail = joined === '&&' ? listMayFail || mayFail : joined === '||' ? !unreachable && mayFail : mayFail;
    tests = [];
    fallible = false;
    previous = command;
    if (inner && open[open.length - 1] === 'if') add(command.index, text.startsWith('then') ? { kind: 'branch', test: condition ?? [] } : { kind: 'branch' });
    if (lead === 'if' || lead === 'elif') {
      if (lead === 'if') {
        open.push('if');
        add(command.index, { kind: 'open', construct: 'if' });
      }
      condition = [part(script, command)];
      // `if [ … ]; then X=1; fi` on one line: the `then` is its own command, read next.
      continue;
    }
    if (open[open.length - 1] === 'if' && (lead === 'then' || lead === 'else')) {
      add(command.index, lead === 'then' ? { kind: 'branch', test: condition ?? [] } : { kind: 'branch' });
      condition = undefined;
      continue;
    }
    if (condition && word !== 'fi' && word !== 'esac') {
      // `if A || B; then`: the list decides; `if A; B; then`: the last command does.
      if (joined) condition.push(part(script, command, joined));
      else condition = [part(script, command)];
      continue;
    }
    if (word === 'case' && command.words[2]?.value === 'in') {
      open.push('case');
      add(command.index, { kind: 'open', construct: 'case', subject: command.words[1] });
      continue;
    }
    if ((word === 'fi' && open[open.length - 1] === 'if') || (word === 'esac' && open[open.length - 1] === 'case')) {
      open.pop();
      patterns = condition = undefined;
      add(command.index, { kind: 'close' });
      continue;
    }
    if (open[open.length - 1] === 'case' && isPatternPart(command)) {
      patterns ??= { first: command.index, words: [] };
      patterns.words.push(command.words[0]);
      if (command.separator === ')') {
        add(patterns.first, { kind: 'branch', patterns: patterns.words });
        patterns = undefined;
      }
      continue;
    }
    patterns = undefined;
    if (testOperands(command.words)) {
      chain.push(part(script, command, chain.length ? joined : undefined));
      tests = chain;
    } else if (chain.length) {
      // After tests only, as `if TESTS; then X=1; fi` (`&&`) or `if TESTS; then :; else X=1; fi` (`||`). An assignment
      // never fails, so the `|| Y=2` of `TESTS && X=1 || Y=2` runs exactly when the tests fail: the else branch.
      const next = script.commands[command.index + 1];
      const orElse = joined === '&&' && command.separator === '||' && assignsOnly(command) && next && assignsOnly(next);
      add(command.index, { kind: 'open', construct: 'if' }, { kind: 'branch', test: chain }, ...(joined === '||' ? [{ kind: 'branch' } as const] : []), ...(orElse ? [] : [{ kind: 'close', after: true } as const]));
      if (orElse) add(next.index, { kind: 'branch' }, { kind: 'close', after: true });
      fallible = !assignsOnly(command);
    } else {
      // `CMD || Y=2`, `[ … ] && CMD || Y=2`: Y=2 runs when CMD fails, which only running it tells.
      if (afterFallible) add(command.index, { kind: 'open', construct: 'if' }, { kind: 'branch', test: [] }, { kind: 'close', after: true });
      else if (unreachable) add(command.index, { kind: 'open', construct: 'if' }, { kind: 'branch', never: true }, { kind: 'close', after: true });
      fallible = !assignsOnly(command);
    }
  }
  return events;
}

/** `X=1` or `export X=1`: a command that cannot fail (one with `$(…)` has the status of the last one it runs). */
function assignsOnly(command: Command): boolean {
  const words = [...command.words, ...command.envPrefix.map((a) => a.value)];
  const assigns = command.words.length === 0 ? command.envPrefix.length > 0 : command.words[0].value === 'export' && command.words.length > 1;
  return assigns && !words.some((w) => w.parts.some((p) => p.kind === 'command'));
}

/** One word ended by `|` or `)`, as a case pattern is (`--model)`, `*)`, `"7b"|7B)`). */
function isPatternPart(command: Command): boolean {
  return command.words.length === 1 && command.envPrefix.length === 0 && (command.separator === ')' || command.separator === '|');
}

/** A case pattern as bash matches it: `*`, `?` and `[…]` unquoted, the rest literal. */
export function patternMatches(pattern: string, quoted: boolean, subject: string): boolean {
  if (quoted) return pattern === subject;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') source += '[\\s\\S]*';
    else if (c === '?') source += '[\\s\\S]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) source += '\\[';
      else {
        source += '[' + pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
        i = close;
      }
    } else source += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`).test(subject);
  } catch {
    return false;
  }
}

/** The operands of a test command (`[ … ]`, `[[ … ]]`, `test …`), undefined for any other command. */
function testOperands(words: Word[]): Word[] | undefined {
  const head = words[0]?.value;
  const last = words[words.length - 1]?.value;
  if ((head === '[' && last === ']') || (head === '[[' && last === ']]')) return words.slice(1, -1);
  return head === 'test' ? words.slice(1) : undefined;
}

/** `NAME` of `[ -z "$NAME" ]`, `[[ -z ${NAME} ]]` or `test -z "$NAME"`: a test for a default to fill in. */
export function emptinessTested(words: Word[]): string | undefined {
  const inner = testOperands(words);
  if (inner?.length !== 2 || inner[0].quoted || inner[0].value !== '-z') return undefined;
  const [part, ...rest] = inner[1].parts;
  return part?.kind === 'var' && rest.length === 0 && (part.raw === `$${part.name}` || part.raw === `\${${part.name}}`) ? part.name : undefined;
}

/** An and-or list as bash runs it, each side as `decideTest`: left to right, `&&` and `||` of equal precedence. */
export function decideCondition(condition: Condition, resolve: (word: Word) => string | undefined): boolean | undefined {
  let result: boolean | undefined;
  condition.forEach(({ words, negated, op }, i) => {
    const held = decideTest(words, resolve);
    const next = held === undefined || !negated ? held : !held;
    if (i === 0 || (op !== '&&' && op !== '||')) result = next;
    // What one side decides alone: false && …, true || ….
    else if (op === '&&') result = result === false || next === false ? false : result && next;
    else result = result === true || next === true ? true : result === false && next === false ? false : undefined;
  });
  return result;
}

/**
 * A test as bash decides it, when its operands are known: `[ A = B ]`, `[[ A == B ]]`, `test A != B`, `-z A`, `-n A`.
 * Undefined when the form is another or an operand is unknown.
 */
export function decideTest(words: Word[], resolve: (word: Word) => string | undefined): boolean | undefined {
  const inner = testOperands(words);
  if (!inner) return undefined;
  const head = words[0].value;
  const ops = inner.map((w) => (w.quoted ? undefined : w.value));
  if (inner.length === 2 && (ops[0] === '-z' || ops[0] === '-n')) {
    const value = resolve(inner[1]);
    return value === undefined ? undefined : (value === '') === (ops[0] === '-z');
  }
  if (inner.length === 3 && (ops[1] === '=' || ops[1] === '==' || ops[1] === '!=')) {
    const a = resolve(inner[0]);
    const b = resolve(inner[2]);
    if (a === undefined || b === undefined) return undefined;
    // `[[ A == pattern ]]` matches a glob; `[ A = B ]` compares strings.
    const equal = head === '[[' ? patternMatches(b, inner[2].quoted, a) : a === b;
    return ops[1] === '!=' ? !equal : equal;
  }
  return undefined;
}
