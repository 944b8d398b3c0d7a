import type { JSONPath, Node } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { originOf } from '../../diagnostics/fixData';
import { sameItems } from '../../util/sameItems';
import type { SchemaNode } from '../schemaIndex';
import type { ConfigView } from './configView';

/**
 * What the schema walk found in one object of a config, kept for the next version of the document: a keystroke
 * inside one value (literalEdit.ts) shares every untouched object's parsed value with the previous version, so
 * the walk can take those objects' problems over instead of checking each key again (on a 2,000-line config the
 * walk was 0.34 ms of a 0.7 ms keystroke). An entry is taken over only when all it depended on is the same:
 * - the object's value (the same object: nothing inside changed), its schema and whether it sits under an
 *   ignored key;
 * - where it is: the same path, offset and length (so every range in it is the same: a literal edit never adds or
 *   removes a line, and one that changes the length of text before the object moves its offset);
 * - the reader's language and the DeepSpeed release the checks were judged under;
 * - every value its checks read outside it (the stage, autotp_size), recorded through `ConfigView.get` while it
 *   was walked and read again now (what it holds is the same when the object is).
 * Kept per parsed value (a WeakMap): an entry goes when the version that owns it is gone.
 */
export class WalkMemo {
  private readonly entries = new WeakMap<object, WalkEntry>();
  /** How many objects had their findings taken over and how many were walked, since this memo was made (tests, profiling). */
  readonly counts = { takenOver: 0, walked: 0 };

  /** One walk of one version: reads its checks make are recorded into the objects being walked. */
  session(config: ConfigView): WalkSession {
    return new WalkSession(this.entries, config, this.counts);
  }
}

interface WalkEntry {
  path: JSONPath;
  offset: number;
  length: number;
  schema: SchemaNode;
  underIgnored: boolean;
  judgedUnder: string;
  reads: Read[];
  diagnostics: Diagnostic[];
  handled: string[];
}

/** A value a check read at `path` and what it was (objects by identity: the same object has the same contents). */
type Read = [path: JSONPath, value: unknown];

/** An object being walked: where its problems start in the walk's list, and what it read so far. */
export interface WalkFrame {
  path: JSONPath;
  diagnosticsFrom: number;
  reads: Read[];
  handled: string[];
}

export class WalkSession {
  private readonly frames: WalkFrame[] = [];
  private readonly judgedUnder: string;

  constructor(
    private readonly entries: WeakMap<object, WalkEntry>,
    private readonly config: ConfigView,
    private readonly counts: WalkMemo['counts'],
  ) {
    this.judgedUnder = `${config.locale}|${config.release?.version ?? ''}`;
  }

  /** The walk is over: the view no longer records reads. */
  close(): void {
    this.config.readLog = undefined;
  }

  /**
   * The problems of the object at `path` as the previous version's walk found them, re-dated to this version, when
   * nothing they depended on changed; undefined otherwise (walk it).
   */
  takeOver(value: unknown, node: Node, path: JSONPath, schema: SchemaNode, underIgnored: boolean): { diagnostics: Diagnostic[]; handled: string[] } | undefined {
    if (!value || typeof value !== 'object') return undefined;
    const entry = this.entries.get(value);
    if (!entry || entry.offset !== node.offset || entry.length !== node.length || entry.schema !== schema || entry.underIgnored !== underIgnored || entry.judgedUnder !== this.judgedUnder) return undefined;
    // Read again through the view, these reads are recorded for every object around this one (see `begin`).
    if (!sameItems(entry.path, path)) return undefined;
    for (const [at, was] of entry.reads) if (this.config.get(at) !== was) return undefined;
    for (const frame of this.frames) for (const pointer of entry.handled) frame.handled.push(pointer);
    this.counts.takenOver++;
    if (entry.diagnostics.length === 0) return entry;
    // The fixes' data say which version they were made on (code actions check it); nothing else changed.
    const origin = originOf(this.config.document);
    const diagnostics = entry.diagnostics.map((d) => (d.data && typeof d.data === 'object' ? { ...d, data: { ...d.data, ...origin } } : d));
    return { diagnostics, handled: entry.handled };
  }

  begin(path: JSONPath, diagnosticsFrom: number): WalkFrame {
    const frame: WalkFrame = { path, diagnosticsFrom, reads: [], handled: [] };
    this.frames.push(frame);
    // The root holds every value, so it records none: reads are followed only inside an object below it (a
    // keystroke's walk is mostly the root's own keys, whose reads then cost nothing).
    if (path.length > 0) this.config.readLog = this.noteRead;
    return frame;
  }

  /**
   * A value read, recorded for each object being walked that does not hold it: what an object holds is the same
   * whenever the object is (so the root, which holds everything, records nothing).
   */
  private readonly noteRead = (path: JSONPath, value: unknown): void => {
    let read: Read | undefined;
    for (const frame of this.frames) if (!within(path, frame.path)) frame.reads.push((read ??= [path, value]));
  };

  /** A pointer whose value problem the walk reported: part of every object around it. */
  noteHandled(pointer: string): void {
    for (const frame of this.frames) frame.handled.push(pointer);
  }

  /** The object is walked: its problems are kept for the next version, unless the walk hit its cap meanwhile. */
  end(frame: WalkFrame, value: unknown, node: Node, path: JSONPath, schema: SchemaNode, underIgnored: boolean, diagnostics: Diagnostic[], capped: boolean): void {
    this.frames.pop();
    if (this.frames.length <= 1) this.config.readLog = undefined;
    this.counts.walked++;
    // The root is new in every version that changed anything: nothing would take it over.
    if (capped || path.length === 0 || !value || typeof value !== 'object') return;
    this.entries.set(value, {
      path,
      offset: node.offset,
      length: node.length,
      schema,
      underIgnored,
      judgedUnder: this.judgedUnder,
      reads: frame.reads,
      diagnostics: diagnostics.slice(frame.diagnosticsFrom),
      handled: frame.handled,
    });
  }
}

/** Whether `path` is `object`'s path or a path inside it. */
function within(path: JSONPath, object: JSONPath): boolean {
  return path.length >= object.length && object.every((segment, i) => segment === path[i]);
}
