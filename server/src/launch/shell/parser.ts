import { exactArray } from '../../util/exactArrays';
import type { Assignment, Command, Heredoc, Redirect, Separator, ShellIssue, ShellScript, Word, WordPart } from './types';

/**
 * A small bash tokenizer/parser, sized for launch scripts: words with exact offsets, quotes, expansions
 * kept opaque, continuations, env prefixes, operators, comments and heredocs. It never throws and
 * always advances, so any text (half-typed, binary, huge) gets an answer.
 *
 * One deliberate difference from bash: a continuation broken by a blank or comment line, or by a
 * trailing space after `\`, is joined (what the author meant) and reported as an issue instead.
 */
export function parseShell(text: string): ShellScript {
  const parse = new ShellParse(text);
  parse.runUntil(Infinity);
  return parse.result();
}

/**
 * A script's parse made in steps that stop at a deadline and resume (`runUntil`), so a huge script's
 * validation can yield to the event loop between them; `parseShell` makes it in one go.
 */
export class ShellParse {
  private readonly parser: Parser;
  private failed = false;
  private finished = false;

  constructor(private readonly text: string) {
    this.parser = new Parser(text);
  }

  get done(): boolean {
    return this.finished;
  }

  /** Parses until done or `deadline` (performance.now()) has passed. */
  runUntil(deadline: number): void {
    if (this.finished) return;
    try {
      this.finished = this.parser.runUntil(deadline);
    } catch {
      // Defensive: a bug here must not take the language server down. Answer "nothing found".
      this.failed = this.finished = true;
    }
  }

  result(): ShellScript {
    const { text } = this;
    return this.failed ? { text, commands: [], assignments: [], issues: [], comments: [], heredocs: [], lineStarts: computeLineStarts(text) } : this.parser.result();
  }
}

export function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function lineOf(lineStarts: number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const assignmentPattern = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;
/** Reserved words that introduce the real command; dropped when they stand first. */
const leadingKeywords = new Set(['then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', '{', 'time']);
const declarationBuiltins = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const wordBreak = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const redirectPattern = /^(\d*|&)(>>|>&|>\||<<<|<<-|<<|<&|<>|>|<)/;

interface Builder {
  prefix: Assignment[];
  words: Word[];
  redirects: Redirect[];
  start: number;
  end: number;
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
  commandIndex: number;
}

class Parser {
  private pos = 0;
  private readonly commands: Command[] = [];
  private readonly assignments: Assignment[] = [];
  private readonly issues: ShellIssue[] = [];
  private readonly issueKeys = new Set<string>();
  private readonly comments: { start: number; end: number }[] = [];
  private readonly heredocs: Heredoc[] = [];
  private pendingHeredocs: PendingHeredoc[] = [];
  private builder: Builder | undefined;
  private readonly lineStarts: number[];

  constructor(private readonly text: string) {
    this.lineStarts = computeLineStarts(text);
  }

  /** Steps until the end of the text (true) or until `deadline` has passed (false; call again to go on). */
  runUntil(deadline: number): boolean {
    const { text } = this;
    for (let steps = 1; this.pos < text.length; steps++) {
      const before = this.pos;
      this.step();
      if (this.pos <= before) this.pos = before + 1; // always advance
      // The clock is read every 1,024 steps: a step is a character or a word.
      if ((steps & 1023) === 0 && performance.now() > deadline) return false;
    }
    this.finish('eof');
    return true;
  }

  result(): ShellScript {
    const { text } = this;
    return {
      text,
      commands: this.commands,
      assignments: this.assignments,
      issues: this.issues,
      comments: this.comments,
      heredocs: this.heredocs,
      lineStarts: this.lineStarts,
    };
  }

  private step(): void {
    const { text } = this;
    const c = text[this.pos];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      this.pos++;
      return;
    }
    if (c === '\\' && this.continuationAt(this.pos)) return;
    if (c === '\n') {
      this.finish('newline');
      this.pos++;
      this.readHeredocBodies();
      return;
    }
    if (c === '#') {
      const end = this.lineEnd(this.pos);
      this.comments.push({ start: this.pos, end });
      this.pos = end;
      return;
    }
    const redirect = redirectPattern.exec(text.slice(this.pos, this.pos + 8));
    if (redirect && (redirect[1] !== '&' || redirect[2].startsWith('>'))) {
      this.readRedirect(redirect[0], redirect[2]);
      return;
    }
    if (c === '(' && text[this.pos + 1] === '(' && this.builder?.words.length === 1 && this.builder.words[0].raw === 'for') {
      // `for ((i=0; i<n; i++))`: one word, not commands and an assignment `i=0`.
      const start = this.pos;
      const raw = text.slice(start, (this.pos = this.balanced(start, '(', ')', text.length)));
      this.addWord({ ...emptyWord(start), value: raw, raw, end: this.pos, parts: [{ kind: 'text', text: raw, start, end: this.pos }] });
      return;
    }
    if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
      this.finish(this.readOperator());
      return;
    }
    const word = this.readWord(this.pos);
    this.pos = word.end;
    this.addWord(word);
  }

  private readOperator(): Separator {
    const two = this.text.slice(this.pos, this.pos + 2);
    if (two === '&&' || two === '||' || two === ';;' || two === '|&') {
      this.pos += 2;
      return two;
    }
    const one = this.text[this.pos] as Separator;
    this.pos++;
    return one;
  }

  /**
   * At a backslash: if it continues the line (possibly with trailing spaces), consume it, record issues,
   * and return true. Otherwise return false (the backslash escapes the next character of a word).
   */
  private continuationAt(at: number): boolean {
    const { text } = this;
    let p = at + 1;
    while (p < text.length && (text[p] === ' ' || text[p] === '\t')) p++;
    if (text[p] === '\r') p++;
    if (p < text.length && text[p] !== '\n') return false;
    if (p >= text.length && p === at + 1) {
      this.pos = p;
      return true;
    }
    const spaceEnd = text[p - 1] === '\r' ? p - 1 : p;
    if (spaceEnd > at + 1) this.addIssue({ kind: 'trailing-space', backslash: at, start: at + 1, end: spaceEnd });
    this.pos = Math.min(p + 1, text.length);
    this.checkGapAfterContinuation(at);
    return true;
  }

  /** After `\`+newline: blank or comment lines end the command in bash. Join them when that was clearly meant. */
  private checkGapAfterContinuation(backslash: number): void {
    const { text } = this;
    const gapStart = this.pos;
    let p = gapStart;
    let reason: 'blank-line' | 'comment-line' | undefined;
    for (;;) {
      let q = p;
      while (q < text.length && (text[q] === ' ' || text[q] === '\t' || text[q] === '\r')) q++;
      if (q < text.length && text[q] === '\n') {
        reason ??= 'blank-line';
        p = q + 1;
      } else if (q < text.length && text[q] === '#') {
        reason ??= 'comment-line';
        p = this.lineEnd(q) + 1;
      } else break;
      if (p >= text.length) break;
    }
    if (!reason) return;
    const gapEnd = Math.min(p, text.length);
    const b = this.builder;
    const nextChar = text[gapEnd] ?? '';
    const nextIndented = nextChar === ' ' || nextChar === '\t' || nextChar === '-';
    const joined = gapEnd < text.length && !!b && (b.words.length === 0 || nextIndented);
    this.addIssue({ kind: 'broken-continuation', reason, backslash, gapStart, gapEnd, joined });
    if (joined) {
      for (let q = gapStart; q < gapEnd; q++) {
        if (text[q] === '#') {
          const end = this.lineEnd(q);
          this.comments.push({ start: q, end });
          q = end;
        }
      }
      this.pos = gapEnd;
    }
  }

  private addIssue(issue: ShellIssue): void {
    const key = `${issue.kind}:${'backslash' in issue ? issue.backslash : issue.start}`;
    if (this.issueKeys.has(key)) return;
    this.issueKeys.add(key);
    this.issues.push(issue);
  }

  private lineEnd(from: number): number {
    const nl = this.text.indexOf('\n', from);
    return nl < 0 ? this.text.length : nl;
  }

  private readRedirect(matched: string, op: string): void {
    const start = this.pos;
    this.pos += matched.length;
    const { text } = this;
    while (this.pos < text.length && (text[this.pos] === ' ' || text[this.pos] === '\t')) this.pos++;
    let target: Word | undefined;
    if (this.pos < text.length && !wordBreak.has(text[this.pos])) {
      target = this.readWord(this.pos);
      this.pos = target.end;
    }
    if ((op === '<<' || op === '<<-') && target) {
      // The command being built gets the next index when it finishes.
      this.pendingHeredocs.push({ delimiter: target.value, stripTabs: op === '<<-', expands: !target.quoted, commandIndex: this.commands.length });
    }
    const b = this.ensureBuilder(start);
    b.redirects.push({ op, target, start, end: this.pos });
    b.end = this.pos;
  }

  /** Skips the bodies of heredocs opened on the line that just ended. */
  private readHeredocBodies(): void {
    const { text } = this;
    for (const heredoc of this.pendingHeredocs) {
      const start = this.pos;
      let found = false;
      let bodyEnd = text.length;
      while (this.pos < text.length) {
        const lineStart = this.pos;
        const end = this.lineEnd(this.pos);
        let line = text.slice(this.pos, end).replace(/\r$/, '');
        if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
        this.pos = Math.min(end + 1, text.length);
        if (line === heredoc.delimiter) {
          found = true;
          bodyEnd = lineStart;
          break;
        }
      }
      if (!found) this.addIssue({ kind: 'unterminated', what: 'heredoc', start });
      this.heredocs.push({ start, end: this.pos, delimiter: heredoc.delimiter, bodyEnd: found ? bodyEnd : this.pos, commandIndex: heredoc.commandIndex, expands: heredoc.expands, stripTabs: heredoc.stripTabs });
    }
    this.pendingHeredocs = [];
  }

  private ensureBuilder(start: number): Builder {
    this.builder ??= { prefix: [], words: [], redirects: [], start, end: start };
    return this.builder;
  }

  private addWord(word: Word): void {
    const b = this.ensureBuilder(word.start);
    b.end = word.end;
    if (b.words.length === 0) {
      const assignment = this.assignmentOf(word, 'prefix');
      if (assignment) {
        b.prefix.push(assignment);
        return;
      }
      // `then swift sft …`: the keyword is not the command.
      if (!word.quoted && leadingKeywords.has(word.value) && b.prefix.length === 0) return;
    }
    b.words.push(word);
  }

  private assignmentOf(word: Word, kind: Assignment['kind']): Assignment | undefined {
    const match = assignmentPattern.exec(word.raw);
    if (!match) return undefined;
    const valueStart = word.start + match[0].length;
    let value = valueStart < word.end ? this.readWord(valueStart, word.end) : emptyWord(valueStart);
    if (this.text[valueStart] === '(') {
      // An array value stays one opaque text word.
      const raw = this.text.slice(valueStart, word.end);
      value = { value: raw, raw, start: valueStart, end: word.end, parts: [{ kind: 'text', text: raw, start: valueStart, end: word.end }], quoted: false, hasExpansion: false };
    }
    return { name: match[1], value, start: word.start, end: word.end, kind, commandIndex: this.commands.length };
  }

  private finish(separator: Separator): void {
    const b = this.builder;
    this.builder = undefined;
    if (!b) return;
    const index = this.commands.length;
    const command: Command = {
      index,
      envPrefix: exactArray(b.prefix),
      words: exactArray(b.words),
      redirects: exactArray(b.redirects),
      start: b.start,
      end: b.end,
      startLine: lineOf(this.lineStarts, b.start),
      endLine: lineOf(this.lineStarts, Math.max(b.start, b.end - 1)),
      separator,
    };
    this.commands.push(command);
    if (b.words.length === 0) {
      for (const a of b.prefix) this.assignments.push({ ...a, kind: 'plain', commandIndex: index });
      return;
    }
    for (const a of b.prefix) this.assignments.push({ ...a, commandIndex: index });
    const name = b.words[0].value;
    if (declarationBuiltins.has(name)) {
      const exported = name === 'export' || b.words.some((w) => /^-\w*x/.test(w.value));
      for (const w of b.words.slice(1)) {
        const a = this.assignmentOf(w, exported ? 'export' : 'plain');
        if (a) this.assignments.push({ ...a, commandIndex: index });
      }
    }
  }

  /**
   * Reads one word starting at `from` (stops at an unquoted break character, or at `limit`).
   * Pure with respect to parser position: the caller moves `pos`.
   */
  private readWord(from: number, limit = this.text.length): Word {
    const { text } = this;
    const parts: WordPart[] = [];
    let p = from;
    let quoted = false;
    let literal = '';
    let literalStart = from;
    const flush = (at: number): void => {
      if (literal) parts.push({ kind: 'text', text: literal, start: literalStart, end: at });
      literal = '';
      literalStart = at;
    };
    const expansion = (part: WordPart): void => {
      flush(part.start);
      parts.push(part);
      literalStart = part.end;
    };

    while (p < limit) {
      const c = text[p];
      if (wordBreak.has(c) || c === '\r') {
        // `X=(a b)` array value: keep the parenthesised list in the word.
        if (c === '(' && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(text.slice(from, p))) {
          const end = this.balanced(p, '(', ')', limit);
          literal += text.slice(p, end);
          p = end;
          continue;
        }
        break;
      }
      if (c === '\\') {
        if (this.isContinuationAt(p)) {
          // A continuation inside a word joins its halves. When the word ends there anyway (trailing
          // spaces, indented next line), stop before the backslash so the caller checks the continuation.
          const after = p + (text[p + 1] === '\r' ? 3 : 2);
          if (text[p + 1] === ' ' || text[p + 1] === '\t' || after >= limit || wordBreak.has(text[after]) || text[after] === '\r') break;
          flush(p);
          p = after;
          literalStart = p;
          continue;
        }
        if (p + 1 < limit) {
          literal += text[p + 1];
          quoted = true;
          p += 2;
        } else p++;
        continue;
      }
      if (c === "'") {
        quoted = true;
        const close = text.indexOf("'", p + 1);
        const end = close < 0 || close >= limit ? limit : close;
        if (close < 0 || close >= limit) this.addIssue({ kind: 'unterminated', what: 'single-quote', start: p });
        literal += text.slice(p + 1, end);
        p = Math.min(end + 1, limit);
        continue;
      }
      if (c === '$' && text[p + 1] === "'") {
        quoted = true;
        const { value, end } = this.ansiC(p + 2, limit);
        literal += value;
        p = end;
        continue;
      }
      if (c === '"' || (c === '$' && text[p + 1] === '"')) {
        quoted = true;
        p = this.doubleQuoted(c === '$' ? p + 2 : p + 1, limit, (s) => (literal += s), expansion, flush);
        continue;
      }
      const afterExpansion = this.takeExpansion(p, limit, expansion);
      if (afterExpansion !== undefined) {
        p = afterExpansion;
        continue;
      }
      literal += c;
      p++;
    }
    flush(p);
    const raw = text.slice(from, p);
    // Most words are one plain text part, written as read: one string serves as raw, value and the part's text
    // (a 1 MB script has 90,000 words, each of which would otherwise hold three copies).
    const plain = parts.length === 1 && parts[0].kind === 'text' && parts[0].text === raw;
    if (plain) (parts[0] as { text: string }).text = raw;
    const value = plain ? raw : parts.map((x) => (x.kind === 'text' ? x.text : x.raw)).join('');
    return {
      value,
      raw,
      start: from,
      end: p,
      parts: exactArray(parts),
      quoted,
      hasExpansion: parts.some((x) => x.kind !== 'text'),
    };
  }

  private isContinuationAt(p: number): boolean {
    const { text } = this;
    let q = p + 1;
    while (q < text.length && (text[q] === ' ' || text[q] === '\t')) q++;
    if (text[q] === '\r') q++;
    return q >= text.length ? q > p + 1 || p + 1 >= text.length : text[q] === '\n';
  }

  /** Reads a double-quoted string body from `p` (after the quote); returns the offset after the closing quote. */
  private doubleQuoted(
    p: number,
    limit: number,
    addLiteral: (s: string) => void,
    expansion: (part: WordPart) => void,
    flush: (at: number) => void,
  ): number {
    const { text } = this;
    const open = p - 1;
    while (p < limit) {
      const c = text[p];
      if (c === '"') return p + 1;
      if (c === '\\') {
        const n = text[p + 1];
        if (n === '\n') {
          flush(p);
          p += 2;
          continue;
        }
        if (n === '$' || n === '`' || n === '"' || n === '\\') {
          addLiteral(n);
          p += 2;
          continue;
        }
        addLiteral('\\');
        p++;
        continue;
      }
      const afterExpansion = this.takeExpansion(p, limit, expansion);
      if (afterExpansion !== undefined) {
        p = afterExpansion;
        continue;
      }
      addLiteral(c);
      p++;
    }
    this.addIssue({ kind: 'unterminated', what: 'double-quote', start: open });
    return limit;
  }

  private ansiC(p: number, limit: number): { value: string; end: number } {
    const { text } = this;
    const open = p - 1;
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v', '0': '\0' };
    let value = '';
    while (p < limit) {
      const c = text[p];
      if (c === "'") return { value, end: p + 1 };
      if (c === '\\' && p + 1 < limit) {
        value += escapes[text[p + 1]] ?? '\\' + text[p + 1];
        p += 2;
        continue;
      }
      value += c;
      p++;
    }
    this.addIssue({ kind: 'unterminated', what: 'single-quote', start: open });
    return { value, end: limit };
  }

  /** Hands an expansion at `p` to `expansion` and returns the offset after it; undefined when none starts there. */
  private takeExpansion(p: number, limit: number, expansion: (part: WordPart) => void): number | undefined {
    const c = this.text[p];
    const part = c === '$' || c === '`' ? this.expansionAt(p, limit) : undefined;
    if (part) expansion(part);
    return part?.end;
  }

  /** An expansion starting at `p` (`$…` or a backtick), or undefined when `$` is a literal dollar. */
  private expansionAt(p: number, limit: number): WordPart | undefined {
    const { text } = this;
    if (text[p] === '`') {
      let q = p + 1;
      while (q < limit && text[q] !== '`') q += text[q] === '\\' ? 2 : 1;
      if (q >= limit) this.addIssue({ kind: 'unterminated', what: 'backtick', start: p });
      const end = Math.min(q + 1, limit);
      return { kind: 'command', inner: text.slice(p + 1, Math.min(q, limit)), raw: text.slice(p, end), start: p, end };
    }
    const n = text[p + 1];
    if (n === '(' && text[p + 2] === '(') {
      const end = this.balanced(p + 1, '(', ')', limit);
      const raw = text.slice(p, end);
      return { kind: 'arith', inner: raw.slice(3, raw.endsWith('))') ? -2 : undefined), raw, start: p, end };
    }
    if (n === '(') {
      const end = this.balanced(p + 1, '(', ')', limit);
      const raw = text.slice(p, end);
      if (!raw.endsWith(')')) this.addIssue({ kind: 'unterminated', what: 'command-substitution', start: p });
      return { kind: 'command', inner: raw.slice(2, raw.endsWith(')') ? -1 : undefined), raw, start: p, end };
    }
    if (n === '{') {
      const close = this.balanced(p + 1, '{', '}', limit);
      const raw = text.slice(p, close);
      if (!raw.endsWith('}')) this.addIssue({ kind: 'unterminated', what: 'brace', start: p });
      const name = /^\$\{#?!?([A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?$!-])/.exec(raw)?.[1] ?? '';
      return { kind: 'var', name, raw, start: p, end: close };
    }
    const simple = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text.slice(p, Math.min(limit, p + 256)));
    if (simple) return { kind: 'var', name: simple[1], raw: simple[0], start: p, end: p + simple[0].length };
    return undefined;
  }

  /** Offset after the bracket that closes the one at `p`, skipping quoted text; `limit` when unclosed. */
  private balanced(p: number, open: string, close: string, limit: number): number {
    const { text } = this;
    let depth = 0;
    let q = p;
    while (q < limit) {
      const c = text[q];
      if (c === '\\') {
        q += 2;
        continue;
      }
      if (c === "'" && open === '(') {
        const e = text.indexOf("'", q + 1);
        q = e < 0 || e >= limit ? limit : e + 1;
        continue;
      }
      if (c === '"') {
        let e = q + 1;
        while (e < limit && text[e] !== '"') e += text[e] === '\\' ? 2 : 1;
        q = Math.min(e + 1, limit);
        continue;
      }
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) return q + 1;
      }
      q++;
    }
    return limit;
  }
}

function emptyWord(at: number): Word {
  return { value: '', raw: '', start: at, end: at, parts: [], quoted: false, hasExpansion: false };
}
