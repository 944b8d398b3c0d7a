import { looksLikeDeepSpeedConfig } from '../classify';
import { environmentFor } from './shell/variables';
import type { Heredoc, ShellScript, Word } from './shell/types';
import type { LaunchCommand } from './command/launchCommand';

/**
 * DeepSpeed configs a script writes itself: `cat <<EOT > $config_json` with a JSON body (Megatron-DeepSpeed,
 * the bigscience Slurm scripts, DeepSpeedExamples). The body is expanded as the shell expands it (variables the
 * script sets put in, each character remembering its offset in the script), so the config can be checked inside
 * the script with positions mapped back, and the launch that names `$config_json` reads this text.
 */
export interface HeredocConfig {
  heredoc: Heredoc;
  /** The file it is written to, resolved with the script's variables; undefined when that depends on the environment. */
  target?: string;
  targetWord: Word;
  /** The body as written to the file. */
  text: string;
  /** The script offset of each character of `text`. */
  at: number[];
  /** Stretches of `text` that stand for an expansion the script cannot resolve (`$1`, `$(…)`, an unset variable). */
  unresolved: { start: number; end: number }[];
}

/** The file a `cat <<EOT > FILE` / `cat > FILE <<EOT` / `tee FILE <<EOT` command writes. */
function targetOf(script: ShellScript, heredoc: Heredoc): Word | undefined {
  const command = script.commands[heredoc.commandIndex];
  if (!command) return undefined;
  const program = command.words[0]?.value;
  if (program === 'cat') return command.redirects.find((r) => (r.op === '>' || r.op === '>>' || r.op === '>|') && r.target)?.target;
  if (program === 'tee') return command.words.slice(1).find((w) => !w.value.startsWith('-'));
  return undefined;
}

export function heredocConfigs(script: ShellScript): HeredocConfig[] {
  const out: HeredocConfig[] = [];
  for (const heredoc of script.heredocs) {
    const targetWord = targetOf(script, heredoc);
    if (!targetWord) continue;
    const body = script.text.slice(heredoc.start, heredoc.bodyEnd);
    if (!looksLikeDeepSpeedConfig(body)) continue;
    const command = script.commands[heredoc.commandIndex];
    const env = environmentFor(script, command);
    const expanded = heredoc.expands ? expandBody(script.text, heredoc.start, heredoc.bodyEnd, (name) => env.value(name)) : identity(body, heredoc.start);
    out.push({ heredoc, targetWord, target: env.resolve(targetWord), ...expanded });
  }
  return out;
}

function identity(text: string, start: number): Pick<HeredocConfig, 'text' | 'at' | 'unresolved'> {
  return { text, at: Array.from({ length: text.length }, (_, i) => start + i), unresolved: [] };
}

/**
 * A here-document body as an unquoted delimiter makes the shell write it: `$NAME`, `${NAME}`, `${NAME:-x}` put in,
 * `\$`, `` \` `` and `\\` unescaped. An expansion it cannot resolve is quoted outside a JSON string (so the rest
 * still parses and reads it as unknown) and stays as written inside one; either way it is recorded in `unresolved`.
 */
function expandBody(source: string, from: number, to: number, lookup: (name: string) => string | undefined): Pick<HeredocConfig, 'text' | 'at' | 'unresolved'> {
  let text = '';
  const at: number[] = [];
  const unresolved: { start: number; end: number }[] = [];
  let inString = false;
  const put = (s: string, offset: number, span = 0) => {
    for (let i = 0; i < s.length; i++) at.push(span ? offset + Math.min(i, span - 1) : offset + i);
    text += s;
  };
  let p = from;
  while (p < to) {
    const c = source[p];
    if (c === '\\' && (source[p + 1] === '$' || source[p + 1] === '`' || source[p + 1] === '\\')) {
      put(source[p + 1], p + 1);
      p += 2;
      continue;
    }
    if (c === '"' && source[p - 1] !== '\\') inString = !inString;
    let ref: { name?: string; fallback?: string; end: number } | undefined;
    if (c === '$' && source[p + 1] === '{') {
      const close = source.indexOf('}', p + 2);
      if (close > 0 && close < to) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::?-(.*))?$/.exec(source.slice(p + 2, close));
        ref = { name: m?.[1], fallback: m?.[2], end: close + 1 };
      }
    } else if (c === '$' && source[p + 1] === '(') {
      let depth = 0;
      let q = p + 1;
      for (; q < to; q++) {
        if (source[q] === '(') depth++;
        else if (source[q] === ')' && --depth === 0) break;
      }
      ref = { end: Math.min(q + 1, to) };
    } else if (c === '$') {
      const m = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(source.slice(p + 1, p + 257));
      if (m) ref = { name: /^[A-Za-z_]/.test(m[0]) ? m[0] : undefined, end: p + 1 + m[0].length };
    }
    if (!ref) {
      put(c, p);
      p++;
      continue;
    }
    const value = ref.name ? (lookup(ref.name) ?? ref.fallback) : undefined;
    const start = text.length;
    if (value !== undefined) put(value, p, ref.end - p);
    else if (inString) put(source.slice(p, ref.end), p);
    else {
      // A string stands in for the unknown value: the checks read it as not a number, not as a value (0, null)
      // that would trigger rules the real value may not.
      put('"', p);
      put(source.slice(p, ref.end).replace(/["\\]/g, '_'), p);
      put('"', ref.end - 1);
    }
    if (value === undefined) unresolved.push({ start, end: text.length });
    p = ref.end;
  }
  return { text, at, unresolved };
}

/** `./x.json` and `x.json` name the same file. */
function samePathText(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/^\.\//, '').replace(/\/+/g, '/');
  return norm(a) === norm(b);
}

/** `$config_json`, `${config_json}`, `"$config_json"` → config_json: a word that is one variable. */
function variableOf(text: string): string | undefined {
  return /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?$/.exec(text.trim())?.[1];
}

/**
 * Gives each launch whose `--deepspeed` file is written by a here-document before it the text written: the file
 * need not exist beforehand, and that text is the config it runs with. The two name the same file when their
 * paths resolve to the same text, or when both are the same variable (`> $config_json` … `--deepspeed_config
 * ${config_json}`), also one the environment sets (`./ds_config.$SLURM_JOBID.json`).
 */
export function attachWrittenConfigs(configs: HeredocConfig[], launches: LaunchCommand[]): void {
  for (const launch of launches) {
    const ref = launch.facts.deepspeed;
    if (ref?.kind !== 'file' && ref?.kind !== 'unresolved') continue;
    const refVariable = variableOf(ref.text);
    const writer = [...configs].reverse().find((c) => {
      if (c.heredoc.commandIndex >= launch.command.index) return false;
      if (refVariable && refVariable === variableOf(c.targetWord.raw)) return true;
      return ref.kind === 'file' && c.target !== undefined && samePathText(c.target, ref.path);
    });
    if (!writer) continue;
    const written = { text: writer.text, start: writer.heredoc.start, end: writer.heredoc.bodyEnd };
    launch.facts.deepspeed = ref.kind === 'file' ? { ...ref, written } : { kind: 'file', path: writer.target ?? ref.text, candidates: [], written, text: ref.text, span: ref.span, via: ref.via };
  }
}
