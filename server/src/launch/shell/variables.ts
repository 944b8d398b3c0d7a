import type { Assignment, Command, ShellScript, Word } from './types';

/** A variable's value as the script sets it, with where it was set. */
export interface VariableBinding {
  value: string | undefined;
  assignment: Assignment;
  exported: boolean;
}

/**
 * Variables visible to one command: script assignments before it (in order), then its own env prefix.
 * Values are resolved when simple (`$x`, `${x}`, `$(expr a / b)`, `$((a / b))`), else undefined.
 */
export class CommandEnvironment {
  constructor(
    readonly shell: Map<string, VariableBinding>,
    readonly prefix: Map<string, VariableBinding>,
  ) {}

  /** Value a variable has inside the command (prefix wins), or undefined when unknown. */
  value(name: string): string | undefined {
    return (this.prefix.get(name) ?? this.shell.get(name))?.value;
  }

  /** Binding of an environment variable the launched process sees (prefix, or exported script variable). */
  envBinding(name: string): VariableBinding | undefined {
    const prefix = this.prefix.get(name);
    if (prefix) return prefix;
    const shell = this.shell.get(name);
    return shell?.exported ? shell : undefined;
  }

  resolve(word: Word): string | undefined {
    return resolveWord(word, (n) => this.value(n));
  }
}

export function environmentFor(script: ShellScript, command: Command): CommandEnvironment {
  const shell = new Map<string, VariableBinding>();
  const exportedNames = new Set<string>();
  for (const other of script.commands) {
    if (other.index >= command.index) break;
    const first = other.words[0]?.value;
    if (first === 'export') {
      for (const w of other.words.slice(1)) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value)) exportedNames.add(w.value);
    }
    if (first === 'unset') for (const w of other.words.slice(1)) shell.delete(w.value);
  }
  for (const a of script.assignments) {
    if (a.commandIndex >= command.index) break;
    if (a.kind === 'prefix') continue;
    const value = resolveWord(a.value, (n) => shell.get(n)?.value);
    const exported = a.kind === 'export' || exportedNames.has(a.name) || shell.get(a.name)?.exported === true;
    shell.set(a.name, { value, assignment: a, exported });
  }
  // `export NAME` after `NAME=…` exports the earlier value.
  for (const name of exportedNames) {
    const b = shell.get(name);
    if (b) b.exported = true;
  }
  const prefix = new Map<string, VariableBinding>();
  for (const a of command.envPrefix) {
    const value = resolveWord(a.value, (n) => prefix.get(n)?.value ?? shell.get(n)?.value);
    prefix.set(a.name, { value, assignment: a, exported: true });
  }
  return new CommandEnvironment(shell, prefix);
}

/** Concatenates a word's parts, resolving simple expansions; undefined when any part is unknown. */
export function resolveWord(word: Word, lookup: (name: string) => string | undefined): string | undefined {
  let out = '';
  for (const part of word.parts) {
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
  return out;
}

function resolveBraced(raw: string, name: string, lookup: (name: string) => string | undefined): string | undefined {
  const value = lookup(name);
  if (!raw.startsWith('${') || raw === '${' + name + '}') return value;
  // ${X:-default} / ${X-default}: the default when X is unset (or empty for :-).
  const fallback = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:?)-([^}$`]*)\}$/.exec(raw);
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
