import type { JSONPath } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { isTextOp, originOf, type DiagnosticData } from '../../diagnostics/fixData';
import type { ConfigView } from './configView';
import type { Rule } from './rules/rule';
import { commonEnds } from '../../util/commonLength';

/**
 * What each cross-key rule found in the previous version of an open config, kept for the next: a keystroke runs
 * about 80 rules, and most never read the value it changed (their garbage set how often the young generation was
 * collected while the editor waited). A rule's findings are taken over only when all they depended on is the same:
 * - every value it read (`ConfigView.get`, objects by identity: an edit makes every object around it new), and
 *   for a node it read (`propertyNode`, `valueNode`: its text, `2.0` or `2`), the object that holds it;
 * - the reader's language, the DeepSpeed release and the world size it was judged under;
 * - where its problems are: the edit changed one line and no line break, and each range ends before the edit on
 *   that line or lies on another line; a fix that replaces text by offset ends before the edit (re-dated to this
 *   version, it is applied where it was made, without relocate.ts moving it).
 * Kept per open document (a WeakMap: an entry goes with the document), for the last version validated.
 */
export class RuleMemo {
  private readonly documents = new WeakMap<TextDocument, RuleRuns>();
  /** How many rules had their findings taken over and how many ran, since this memo was made (tests, profiling). */
  readonly counts = { takenOver: 0, run: 0 };

  /** One run of the rules over one version; undefined for a text too long to compare per keystroke. */
  session(config: ConfigView): RuleSession | undefined {
    const text = config.parsed.text;
    if (text.length > maxComparedLength) return undefined;
    const judgedUnder = `${config.locale}|${config.release?.version ?? ''}|${config.world?.gpus ?? ''}|${config.world?.label ?? ''}`;
    const previous = this.documents.get(config.document);
    const edit = previous && previous.judgedUnder === judgedUnder ? editedLine(config.document, previous.text, text) : undefined;
    const runs: RuleRuns = { text, judgedUnder, byRule: edit && previous ? previous.byRule : new Map() };
    this.documents.set(config.document, runs);
    return new RuleSession(config, runs.byRule, edit, this.counts);
  }
}

/** Past this length the text is not compared with the previous version's (a keystroke must not scan megabytes). */
const maxComparedLength = 256 * 1024;

interface RuleRuns {
  text: string;
  judgedUnder: string;
  byRule: Map<Rule, RuleRun>;
}

interface RuleRun {
  reads: Read[];
  diagnostics: Diagnostic[];
}

type Read = [path: JSONPath, value: unknown];

/**
 * Where the only changed line was changed: positions before `character` on `line`, and on other lines, stay;
 * offsets only before `offset` (an edit on an earlier line moves every offset after it).
 */
interface EditedLine {
  line: number;
  character: number;
  offset: number;
}

export class RuleSession {
  private reads: Read[] = [];

  constructor(
    private readonly config: ConfigView,
    private readonly byRule: Map<Rule, RuleRun>,
    private readonly edit: EditedLine | undefined,
    private readonly counts: RuleMemo['counts'],
  ) {}

  /** The rule's problems as the previous version found them, re-dated to this one; undefined: run it (`run`). */
  takeOver(rule: Rule): Diagnostic[] | undefined {
    const run = this.byRule.get(rule);
    if (!run || !this.edit) return undefined;
    for (const [path, was] of run.reads) if (this.config.get(path) !== was) return undefined;
    for (const d of run.diagnostics) if (!stays(d.range, this.edit) || !offsetsStay(d, this.edit.offset)) return undefined;
    this.counts.takenOver++;
    if (run.diagnostics.length === 0) return run.diagnostics;
    // The fixes' data say which version they were made on (code actions check it); nothing else changed.
    const origin = originOf(this.config.document);
    return run.diagnostics.map((d) => ({ ...d, data: { ...(d.data as object), ...origin } }));
  }

  /** Runs the rule, recording what it reads; a rule that throws is forgotten (and runs again next time). */
  run(rule: Rule): Diagnostic[] {
    this.byRule.delete(rule);
    this.reads = [];
    this.config.readLog = this.noteRead;
    try {
      const diagnostics = rule(this.config);
      this.byRule.set(rule, { reads: this.reads, diagnostics });
      this.counts.run++;
      return diagnostics;
    } finally {
      this.config.readLog = undefined;
    }
  }

  private readonly noteRead = (path: JSONPath, value: unknown): void => {
    this.reads.push([path, value]);
  };
}

/** Whether every text op of the diagnostic's fixes ends before `offset`, where the edit began. */
function offsetsStay(d: Diagnostic, offset: number): boolean {
  for (const fix of (d.data as DiagnosticData | undefined)?.fixes ?? []) {
    for (const op of fix.ops) if (isTextOp(op) && (op.op === 'replaceText' ? op.end : op.offset + op.length) > offset) return false;
  }
  return true;
}

function stays(range: Range, edit: EditedLine): boolean {
  return range.end.line < edit.line || range.start.line > edit.line || (range.end.line === edit.line && range.end.character < edit.character);
}

/**
 * Where `after` first differs from `before` (a position of `document`, whose text `after` is), when the change is
 * within that one line (no line break removed or added); the same text gives a line before every other.
 */
function editedLine(document: TextDocument, before: string, after: string): EditedLine | undefined {
  const shorter = Math.min(before.length, after.length);
  const { start, tail } = commonEnds(before, after);
  if (breaksLine(before, start, before.length - tail) || breaksLine(after, start, after.length - tail)) return undefined;
  return start === shorter && before.length === after.length ? { line: -1, character: 0, offset: Infinity } : { ...document.positionAt(start), offset: start };
}

function breaksLine(text: string, from: number, to: number): boolean {
  // After a "\r" too: the edit may turn it into, or out of, "\r\n".
  if (from > 0 && text.charCodeAt(from - 1) === 13) return true;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
  }
  return false;
}
