/**
 * Which textual `--deepspeed` / `--deepspeed_config` / `deepspeed_config_file` uses of a launch script ZeRO Lens
 * recognises, and why a use is missed: shared by scripts/corpus/survey.ts (SURVEY.md) and the corpus test.
 */
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { classifyDocument } from '../../server/src/classify';
import { launchFactsOfText } from '../../server/src/launch/references';
import type { DeepSpeedReference, LaunchFacts } from '../../server/src/launch/facts';
import { defaultSettings } from '../../server/src/settings';

export interface Entry {
  file: string;
  repo: string;
  path: string;
  commit: string;
  url: string;
  licence: string;
  kind: string;
  split: 'tune' | 'holdout';
}

export const corpus = path.resolve(__dirname, '../../test/corpus');

/** test/corpus/files/<owner>__<repo>: the stand-in for the repository's checkout. */
export function repoFolder(entry: Entry): string {
  return path.join(corpus, entry.file.split('/').slice(0, 2).join('/'));
}

// ---------------------------------------------------------------- --deepspeed recognition

/** Textual uses: the flags that name a DeepSpeed config, not --deepspeed_mpi, --deepspeed-activation-…, etc. */
const usePattern = /--deepspeed_config(?![\w-])|--deepspeed(?![\w-])|deepspeed_config_file(?![\w-])/g;

export interface Use {
  offset: number;
  line: number;
  flag: string;
  recognised: boolean;
  resolved: boolean;
  reason?: string;
  lineText: string;
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

export function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Lines (0-based) inside here-document bodies. */
function heredocLines(lines: string[]): Set<number> {
  const inside = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const m = /<<-?\s*(['"]?)([A-Za-z_][\w]*)\1/.exec(lines[i]);
    if (!m || /^\s*#/.test(lines[i])) continue;
    const terminator = m[2];
    let j = i + 1;
    for (; j < lines.length && lines[j].trim() !== terminator; j++) inside.add(j);
    i = j;
  }
  return inside;
}

/** The first line of the logical (backslash-continued) line that holds `line`. */
function logicalStart(lines: string[], line: number): number {
  let start = line;
  while (start > 0 && /\\\s*$/.test(lines[start - 1])) start--;
  return start;
}

function referencesOf(facts: LaunchFacts[]): { ref: DeepSpeedReference; facts: LaunchFacts }[] {
  const refs: { ref: DeepSpeedReference; facts: LaunchFacts }[] = [];
  for (const f of facts) {
    if (f.deepspeed) refs.push({ ref: f.deepspeed, facts: f });
    if (f.teacherDeepspeed) refs.push({ ref: f.teacherDeepspeed, facts: f });
  }
  return refs;
}

/** Why a use was not recognised, in a few words (a heuristic reading of the script around it). */
function missReason(text: string, lines: string[], heredoc: Set<number>, use: { offset: number; line: number }, facts: LaunchFacts[]): string {
  const line = lines[use.line];
  const column = use.offset - lineStarts(text)[use.line];
  const before = line.slice(0, column);
  if (/^\s*#/.test(line) || /(^|\s)#/.test(before.replace(/(["'])(?:\\.|(?!\1).)*\1/g, ''))) return 'comment';
  if (heredoc.has(use.line)) return 'here-document body (read -d "" / cat <<EOF), run later from a variable';
  const start = logicalStart(lines, use.line);
  const head = lines[start];
  // Inside a multi-line quoted string that began on an earlier line.
  const quoted = (s: string) => (s.replace(/\\./g, '').match(/"/g) ?? []).length % 2 === 1;
  let openQuoteAt = -1;
  for (let k = use.line; k >= Math.max(0, use.line - 80); k--) {
    const prefix = k === use.line ? before : lines[k];
    if (/^\s*[A-Za-z_]\w*\+?="/.test(lines[k]) || /^\s*(export\s+)?[A-Za-z_]\w*="/.test(lines[k])) {
      const between = lines.slice(k, use.line).join('\n') + '\n' + before;
      if (quoted(between)) openQuoteAt = k;
      break;
    }
    if (k !== use.line && !/\\\s*$/.test(prefix) && !quoted(lines.slice(k, use.line).join('\n') + '\n' + before)) break;
  }
  if (openQuoteAt >= 0) {
    const name = /^\s*(?:export\s+)?([A-Za-z_]\w*)/.exec(lines[openQuoteAt])?.[1] ?? '?';
    const evaluated = new RegExp(`\\beval\\b[^\\n]*\\$\\{?${name}\\b`).test(text);
    const expanded = new RegExp(`\\$\\{?${name}\\b`).test(text);
    return `inside the quoted variable ${name}=… ${evaluated ? '(later run with eval)' : expanded ? '(later expanded into a command)' : '(never expanded)'}`;
  }
  if (/^\s*[A-Za-z_]\w*(\+)?=\(/.test(head) || /^\s*[A-Za-z_]\w*\+=\(/.test(line)) return 'inside a bash array (CMD=(…) / CMD+=(…)) run as "${CMD[@]}"';
  const word = /^\s*(?:[A-Za-z_]\w*=\S*\s+)*(\S+)/.exec(head)?.[1] ?? '';
  if (word === 'echo') return 'argument of echo (printed, not run)';
  if (['mpirun', 'srun', 'sbatch', 'nohup', 'eval'].includes(word)) return `command launched through ${word}`;
  if (/^python\d*$/.test(word) && /-m\s+torch\.distributed\.launch/.test(head)) return 'python -m torch.distributed.launch (legacy launcher)';
  const covering = facts.find((f) => f.span.start <= use.offset && use.offset <= f.span.end);
  if (covering) {
    const after = text.slice(use.offset).replace(/^--deepspeed\b/, '');
    if (/^\s*(\\\s*\n)?\s*--/.test(after) || /^\s*(\\\s*\n)?\s*$/.test(after.split('\n')[0]) || /^\s*\\\s*\n\s*--/.test(after))
      return `boolean --deepspeed in a ${covering.chain.join('>')} command with no config value (config built in Python, e.g. from --zero_stage)`;
    return `recognised ${covering.chain.join('>')} command, but the flag was not read as its config`;
  }
  return `not in a recognised launch command (first word "${word}")`;
}

export function surveyUses(entry: Entry, text: string): Use[] {
  const absolute = path.join(corpus, entry.file);
  let facts: LaunchFacts[] = [];
  try {
    facts = launchFactsOfText(absolute, text, [repoFolder(entry)]);
  } catch {
    facts = [];
  }
  const refs = referencesOf(facts);
  const starts = lineStarts(text);
  const lines = text.split('\n');
  const heredoc = heredocLines(lines);
  const uses: Use[] = [];
  // Analysed as a script when the editor and the CLI classify it as one (by name and content: .slurm too).
  const analysedAsScript = classifyDocument(TextDocument.create(URI.file(absolute).toString(), 'plaintext', 0, text), defaultSettings) === 'launch-script';
  for (const m of text.matchAll(usePattern)) {
    const offset = m.index ?? 0;
    const end = offset + m[0].length;
    const line = lineOf(starts, offset);
    // The reference this use produced: its value follows the flag directly, or the use sits in a command
    // that has a DeepSpeed reference (boolean --deepspeed next to --deepspeed_config, YAML keys).
    const direct = refs.find(({ ref }) => ref.span.start >= end && /^[\s=\\"']*$/.test(text.slice(end, ref.span.start)));
    const inCommand = refs.find(({ facts: f }) => (f.span.start <= offset && offset <= f.span.end) || (f.wordsFrom ?? []).some((r) => r.start <= offset && offset < r.end));
    // A boolean --deepspeed written right before a --deepspeed_config whose value was read (deepspeed.add_config_arguments):
    // the pair names one config, also where the command's words came from a variable.
    const pair = m[0] === '--deepspeed' ? /^[\s\\"']*--deepspeed_config(?![\w-])[\s=\\"']*/.exec(text.slice(end)) : null;
    const paired = pair ? refs.find(({ ref }) => ref.span.start === end + pair[0].length) : undefined;
    const found = direct ?? inCommand ?? paired;
    const use: Use = {
      offset,
      line: line + 1,
      flag: m[0],
      recognised: found !== undefined && analysedAsScript,
      resolved: found !== undefined && analysedAsScript && found.ref.kind !== 'unresolved' && found.ref.kind !== 'unknown',
      lineText: lines[line].trim().slice(0, 140),
    };
    if (!analysedAsScript) {
      // The CLI checks an explicitly named file that is not .sh/.bash/.zsh/.yaml as a ds_config (json-syntax
      // errors), and the extension only activates on the shellscript language, so the launch analysis never runs.
      use.reason = `${path.extname(entry.file)} file: the CLI checks it as ds_config JSON and VS Code does not open it as a shell script, so the launch analysis never runs (the core analysis alone ${found ? 'would recognise' : 'would not recognise'} this use)`;
    } else if (!found) use.reason = missReason(text, lines, heredoc, { offset, line }, facts);
    uses.push(use);
  }
  return uses;
}

