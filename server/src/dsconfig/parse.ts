import {
  createScanner,
  parseTree,
  type JSONPath,
  type JSONScanner,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { VersionedCache } from '../util/documentCache';
import { PendingJobs, type SteppedJob } from '../util/pendingJobs';
import type { Budget } from '../util/budget';
import { yieldToEventLoop } from '../util/pacer';
import { compactTree, nodeValue } from '../util/jsonTree';
import { ParseErrorCode, Token } from '../util/jsoncTokens';
import { LiteralEditCopy, patchLiteralEdit } from './literalEdit';
import { english, type Translate } from '../l10n';

/**
 * A parser message in English (`message`, for logs and tests) and in the reader's language (`say(t)`): one parse
 * serves every reader, so the text is put into words when a diagnostic is made.
 */
export interface ParseMessage {
  message: string;
  say: (t: Translate) => string;
}

function parseMessage(say: (t: Translate) => string): ParseMessage {
  return { message: say(english), say };
}

/** One parse of a ds_config document, shared by every feature for that document version. */
export interface ParsedConfig {
  text: string;
  /** jsonc-parser tree (comments and trailing commas allowed); undefined when the text was too big or too deep to parse. */
  root: Node | undefined;
  /** The tree's value (`nodeValue`, as jsonc-parser's getNodeValue); for duplicate keys the LAST wins, like Python dicts. */
  value: unknown;
  syntaxErrors: (ParseMessage & { offset: number; length: number })[];
  /**
   * `shadowed`: the key sits in an object that is itself an ignored earlier duplicate (or inside one), so its path
   * reaches another object, the one DeepSpeed reads.
   */
  duplicateKeys: { path: JSONPath; keyNode: Node; firstKeyNode: Node; shadowed: boolean }[];
  comments: { offset: number; length: number }[];
  trailingCommas: { offset: number }[];
  hasBom: boolean;
  /** Why parsing was skipped or cut short (file too large, nesting too deep); empty for normal files. */
  limits: (ParseMessage & { kind: 'too-large' | 'too-deep'; offset: number; length: number })[];
  /**
   * The bare tokens `NaN`, `Infinity` and `-Infinity`: not JSON, but Python's json module (the HF Trainer,
   * accelerate) reads them as float('nan') / float('inf'), so they are values here (NaN / ±Infinity in the tree),
   * which DeepSpeed's validation then judges, not syntax errors.
   */
  pythonNumbers: { offset: number; length: number; text: string }[];
}

/** Real configs are a few KB; beyond this the file is not a hand-written config and parsing it would stall the editor. */
export const maxParsedLength = 4 * 1024 * 1024;
/** jsonc-parser's parseTree (and every tree walk after it) recurses once per level; stay far below the stack limit. */
import { maxNestingDepth } from '../util/nesting';
export { maxNestingDepth };


/**
 * The parses of open ds_config documents, one per version, owned by one language service instance (no module
 * state): every feature of that service reuses the tree. A keystroke inside one value patches the previous
 * version's tree (literalEdit.ts); huge files are parsed in slices that yield to the event loop.
 */
export class ConfigParses {
  /** Parses in progress for `parseAsync`, by document URI; a synchronous caller finishes them instead of starting over. */
  private readonly pending = new PendingJobs<ParseJob>();
  /**
   * The last parse of each open document. Editors update one TextDocument object in place from version to
   * version, so the previous parse of the same object is what a keystroke changed.
   */
  private readonly previousParse = new WeakMap<TextDocument, ParsedConfig>();
  private readonly cache = new VersionedCache<ParsedConfig>((document) => this.compute(document));

  /** `releaseMemory`: asked once a huge config's tree is compacted, while the parser's first arrays are garbage. */
  constructor(private readonly releaseMemory?: () => void) {}

  private compute(document: TextDocument): ParsedConfig {
    const text = document.getText();
    const previous = this.previousParse.get(document);
    const parsed = this.pending.take(document)?.finish() ?? sameText(previous, text) ?? afterLiteralEdit(previous, text) ?? new ParseJob(text, this.releaseMemory).finish();
    this.previousParse.set(document, parsed);
    return parsed;
  }

  parse(document: TextDocument): ParsedConfig {
    return this.cache.get(document);
  }

  /**
   * The same parse as `parse`, for the server's validation of huge files: it runs in slices and yields to the
   * event loop (`pause`) between them, so requests are answered meanwhile. Resolves undefined when the
   * document changed before the parse finished (the work is stale). Shares the per-version cache.
   */
  parseAsync(document: TextDocument, pause: () => Promise<void>): Promise<ParsedConfig | undefined> {
    // Not an async function where the parse is made in one go (every keystroke of a usual config): no frame on the heap.
    return this.inOneGo(document) ? Promise.resolve(this.parse(document)) : this.parseInSlices(document, pause);
  }

  /** Whether `parse` makes this version at once: a document under the stepwise size, or one parsed already. */
  private inOneGo(document: TextDocument): boolean {
    const text = document.getText();
    return text.length < stepwiseFromLength || this.cache.has(document) || !!sameText(this.previousParse.get(document), text);
  }

  private async parseInSlices(document: TextDocument, pause: () => Promise<void>): Promise<ParsedConfig | undefined> {
    const start = () => ParseJob.afterLiteralEdit(this.previousParse.get(document), document.getText()) ?? new ParseJob(document.getText(), this.releaseMemory);
    return (await this.pending.runInSlices(document, start, pause)) ? this.parse(document) : undefined;
  }

  /**
   * `parseAsync` for a validator: between slices the event loop runs and the budget's checkpoint stops the work
   * once it is stale (throws `Cancelled`). Every validator of a config starts with it, whichever runs first, so
   * a huge config is never parsed in one block.
   */
  parseForValidation(document: TextDocument, budget: Budget): Promise<ParsedConfig | undefined> {
    if (this.inOneGo(document)) return Promise.resolve(this.parse(document));
    return this.parseInSlices(document, async () => {
      await yieldToEventLoop();
      await budget.checkpoint();
    });
  }

  /** A document closed: its parse is no longer needed. */
  forget(uri: string): void {
    this.cache.forget(uri);
    this.pending.forget(uri);
  }
}

/**
 * The previous parse, when an edit left the text as it was (a digit typed over itself, a replace with the same
 * text): the tree is the same. Parsed again, a 1 MB config blocked the server for 60–80 ms in one step.
 */
function sameText(previous: ParsedConfig | undefined, text: string): ParsedConfig | undefined {
  return previous?.text === text ? previous : undefined;
}

/**
 * The previous parse with one literal value changed, when that is all the edit did (see literalEdit.ts). Small
 * documents patch the previous tree in place; huge ones, parsed in slices between which other requests run,
 * get a copy so a parse in progress never sees its tree change.
 */
function afterLiteralEdit(previous: ParsedConfig | undefined, text: string): ParsedConfig | undefined {
  if (text.length >= stepwiseFromLength) return ParseJob.afterLiteralEdit(previous, text)?.finish();
  if (!literalEditable(previous, text)) return undefined;
  const patched = patchLiteralEdit(previous, text);
  if (!patched) return undefined;
  return {
    text,
    root: patched.root,
    value: patched.value(previous.value),
    syntaxErrors: [],
    // Same key nodes (patched in place) and same paths: only a value changed.
    duplicateKeys: previous.duplicateKeys,
    comments: patched.comments,
    trailingCommas: patched.trailingCommas,
    hasBom: false,
    limits: [],
    pythonNumbers: [],
  };
}

/** What must hold for an edit to patch the previous parse instead of parsing again. */
function literalEditable(previous: ParsedConfig | undefined, text: string): previous is ParsedConfig & { root: Node } {
  return !!previous?.root && previous.syntaxErrors.length === 0 && previous.pythonNumbers.length === 0 && previous.limits.length === 0 && !previous.hasBom && text.length <= maxParsedLength && text.charCodeAt(0) !== 0xfeff;
}

/** Below this size a parse takes well under a millisecond or two: done in one go, never split. */
const stepwiseFromLength = 256 * 1024;
/** From this length the garbage of a config's parse is tens of MB. */
const hugeConfigLength = 1024 * 1024;

/** Parses text without a document (CLI, tests). Never throws. */
export function parseConfigText(text: string): ParsedConfig {
  return new ParseJob(text).finish();
}

/**
 * One parse as a sequence of steps (size check, trivia scan, tree, value and duplicates) that can stop at a
 * deadline between steps, and inside the scan, and continue later. Run to the end it is a plain parse.
 */
class ParseJob implements SteppedJob {
  readonly result: ParsedConfig;
  private readonly source: string;
  private readonly steps: ((deadline: number) => boolean)[];
  private next = 0;
  private trivia: TriviaScan | undefined;
  private errors: ParseError[] = [];

  constructor(
    text: string,
    private readonly releaseMemory?: () => void,
  ) {
    const hasBom = text.charCodeAt(0) === 0xfeff;
    this.result = {
      text,
      root: undefined,
      value: undefined,
      syntaxErrors: [],
      duplicateKeys: [],
      comments: [],
      trailingCommas: [],
      hasBom,
      limits: [],
      pythonNumbers: [],
    };
    // The BOM is not JSON whitespace for jsonc-parser; replace it by a space so offsets stay the same.
    this.source = hasBom ? ' ' + text.slice(1) : text;
    this.steps = [(deadline) => this.scan(deadline), () => this.tree(), () => this.compact(), () => this.values(), () => this.duplicates()];
    if (text.length > maxParsedLength) {
      const mb = (text.length / (1024 * 1024)).toFixed(1);
      this.result.limits.push({
        kind: 'too-large',
        ...parseMessage((t) => t('This file has {0} MB of text; ZeRO Lens checks configs up to {1} MB and skipped it. A DeepSpeed config is normally a few KB.', mb, maxParsedLength / (1024 * 1024))),
        offset: 0,
        length: 0,
      });
      this.next = this.steps.length;
    }
  }

  /**
   * A job that copies the previous tree with one literal value changed (literalEdit.ts) instead of parsing,
   * when that is all that changed; undefined otherwise.
   */
  static afterLiteralEdit(previous: ParsedConfig | undefined, text: string): ParseJob | undefined {
    if (!literalEditable(previous, text)) return undefined;
    const copy = LiteralEditCopy.plan(previous, text);
    if (!copy) return undefined;
    const job = new ParseJob(text);
    // The copy replaces the scan, the tree, its compaction and the value.
    job.steps.splice(0, 4, (deadline) => {
      if (!copy.run(deadline)) return false;
      const edited = copy.result();
      job.result.root = edited.root;
      job.result.comments = edited.comments;
      job.result.trailingCommas = edited.trailingCommas;
      job.result.value = copy.editedValue(previous.value);
      return true;
    });
    return job;
  }

  get done(): boolean {
    return this.next >= this.steps.length;
  }

  /** Runs steps until all are done or the deadline (a performance.now() time) has passed. */
  runUntil(deadline: number): void {
    while (!this.done && performance.now() < deadline) {
      if (this.steps[this.next](deadline)) this.next++;
    }
  }

  finish(): ParsedConfig {
    this.runUntil(Infinity);
    return this.result;
  }

  /** Comments, trailing commas and nesting depth; a file nested too deep is not parsed further. */
  private scan(deadline: number): boolean {
    this.trivia ??= new TriviaScan(this.source, this.result);
    const deepAt = this.trivia.run(deadline);
    if (!this.trivia.done) return false;
    if (deepAt !== undefined) {
      this.result.limits.push({
        kind: 'too-deep',
        ...parseMessage((t) => t('Nesting deeper than {0} levels; ZeRO Lens does not parse this file further. A DeepSpeed config nests only a few levels.', maxNestingDepth)),
        offset: deepAt,
        length: 1,
      });
      this.next = this.steps.length - 1; // the steps after it are skipped too
    }
    return true;
  }

  private tree(): boolean {
    const tokens = pythonNumberTokens(this.source);
    this.result.pythonNumbers = tokens;
    // Each token is replaced by a number of the same length (offsets stay), NaN's node is then given NaN.
    const source = tokens.length ? withNumberStandIns(this.source, tokens) : this.source;
    this.result.root = parseTree(source, this.errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
    if (this.result.root) for (const t of tokens) if (t.text === 'NaN') markNaN(this.result.root, t.offset);
    return true;
  }

  /** A step of its own: for a 4 MB config it takes a quarter of the tree's time, and other requests may run between. */
  private compact(): boolean {
    if (this.result.root) compactTree(this.result.root);
    // jsonc-parser's own child arrays (about 30 MB for a 4 MB config) are garbage now; collected before the value
    // is built, they are not in memory beside it.
    if (this.result.text.length >= hugeConfigLength) this.releaseMemory?.();
    return true;
  }

  private values(): boolean {
    const { result, source } = this;
    result.value = result.root ? nodeValue(result.root) : undefined;
    result.syntaxErrors = source.trim()
      ? this.errors.map((e) => ({ ...parseMessage((t) => syntaxMessage(e, source, t)), offset: e.offset, length: e.length }))
      : [{ ...parseMessage((t) => t('The file is empty. A DeepSpeed config is one JSON object: { ... }.')), offset: 0, length: 0 }];
    return true;
  }

  private duplicates(): boolean {
    if (this.result.root) collectDuplicates(this.result.root, [], this.result.duplicateKeys);
    return true;
  }
}

const Unknown = 16;

/** `NaN`, `Infinity` and `-Infinity` written as bare words, the three Python's json.loads reads as floats. */
function pythonNumberTokens(text: string): ParsedConfig['pythonNumbers'] {
  if (!text.includes('NaN') && !text.includes('Infinity')) return []; // l10n-ignore: JSON tokens, not words
  const found: ParsedConfig['pythonNumbers'] = [];
  const scanner = createScanner(text, false);
  let minusAt: number | undefined;
  for (;;) {
    const token: number = scanner.scan();
    if (token === Token.EOF) break;
    const offset = scanner.getTokenOffset();
    const value = scanner.getTokenValue();
    const afterMinus = minusAt !== undefined && minusAt + 1 === offset;
    // json.loads reads -Infinity, not -NaN.
    if (token === Unknown && (value === 'Infinity' || (value === 'NaN' && !afterMinus))) {
      const signed = afterMinus;
      const start = signed ? minusAt! : offset;
      found.push({ offset: start, length: offset + value.length - start, text: text.slice(start, offset + value.length) });
    }
    minusAt = token === Unknown && value === '-' ? offset : undefined;
  }
  return found;
}

/** Same-length numbers for the tokens: 1e999999 is Infinity in JavaScript, 0e0 is marked NaN afterwards. */
function withNumberStandIns(text: string, tokens: ParsedConfig['pythonNumbers']): string {
  let out = '';
  let at = 0;
  for (const t of tokens) {
    const standIn = t.text === 'NaN' ? '0e0' : t.text === 'Infinity' ? '1e999999' : '-1e999999';
    out += text.slice(at, t.offset) + standIn;
    at = t.offset + t.length;
  }
  return out + text.slice(at);
}

/** Gives the number node at `offset` the value NaN (iterative: any depth). */
function markNaN(root: Node, offset: number): void {
  let node: Node | undefined = root;
  while (node) {
    if (node.offset === offset && node.type === 'number') {
      (node as { value: unknown }).value = NaN;
      return;
    }
    node = node.children?.find((c) => c.offset <= offset && offset < c.offset + c.length);
  }
}

/**
 * One iterative scanner pass (no recursion, so any depth is safe): comments, trailing commas, and the
 * offset where nesting first exceeds the limit. Resumable: `run` stops at a deadline and continues later.
 */
class TriviaScan {
  private readonly scanner: JSONScanner;
  private depth = 0;
  private pendingComma: number | undefined;
  done = false;

  constructor(
    text: string,
    private readonly out: ParsedConfig,
  ) {
    this.scanner = createScanner(text, false);
  }

  /** Scans until the end, the deadline, or too deep a nesting (whose offset it returns). */
  run(deadline: number): number | undefined {
    const { scanner, out } = this;
    for (let count = 1; ; count++) {
      const token: number = scanner.scan();
      if (token === Token.EOF) break;
      switch (token) {
        case Token.LineComment:
        case Token.BlockComment:
          out.comments.push({ offset: scanner.getTokenOffset(), length: scanner.getTokenLength() });
          continue;
        case Token.Trivia:
        case Token.LineBreak:
          continue;
        case Token.OpenBrace:
        case Token.OpenBracket:
          this.depth++;
          if (this.depth > maxNestingDepth) {
            this.done = true;
            return scanner.getTokenOffset();
          }
          break;
        case Token.CloseBrace:
        case Token.CloseBracket:
          if (this.pendingComma !== undefined) out.trailingCommas.push({ offset: this.pendingComma });
          this.depth = Math.max(0, this.depth - 1);
          break;
      }
      this.pendingComma = token === Token.Comma ? scanner.getTokenOffset() : undefined;
      // Checking the clock every 4096 tokens keeps its cost out of the loop.
      if ((count & 4095) === 0 && performance.now() >= deadline) return undefined;
    }
    this.done = true;
    return undefined;
  }
}

/**
 * Whether an object is (or is inside) the value of a key that repeats later in its object: a path then reaches the
 * later one, as DeepSpeed reads it. Asked only for a repeated key, so documents without any pay nothing.
 */
function inShadowedObject(object: Node): boolean {
  for (let node: Node = object; node.parent; node = node.parent) {
    const property = node.parent;
    if (property.type !== 'property') continue;
    const key = property.children?.[0]?.value;
    const siblings = property.parent?.children ?? [];
    for (let i = siblings.indexOf(property) + 1; i < siblings.length; i++) if (siblings[i].children?.[0]?.value === key) return true;
  }
  return false;
}

/**
 * Walks the (depth-limited) tree; records every repeated key with the first occurrence it repeats. `path` is
 * one array pushed and popped on the way, copied only for a duplicate (most documents have none).
 */
function collectDuplicates(node: Node, path: JSONPath, out: ParsedConfig['duplicateKeys']): void {
  if (node.type === 'object') {
    const children = node.children ?? [];
    // A single key cannot repeat.
    const seen = children.length > 1 ? new Map<string, Node>() : undefined;
    for (const property of children) {
      const keyNode = property.children?.[0];
      const valueNode = property.children?.[1];
      if (!keyNode || typeof keyNode.value !== 'string') continue;
      const key: string = keyNode.value;
      const first = seen?.get(key);
      if (first) out.push({ path: [...path, key], keyNode, firstKeyNode: first, shadowed: inShadowedObject(node) });
      else seen?.set(key, keyNode);
      if (valueNode && (valueNode.type === 'object' || valueNode.type === 'array')) {
        path.push(key);
        collectDuplicates(valueNode, path, out);
        path.pop();
      }
    }
  } else if (node.type === 'array') {
    const children = node.children ?? [];
    for (let index = 0; index < children.length; index++) {
      const child = children[index];
      if (child.type !== 'object' && child.type !== 'array') continue;
      path.push(index);
      collectDuplicates(child, path, out);
      path.pop();
    }
  }
}

function syntaxMessage(error: ParseError, text: string, t: Translate): string {
  const found = text.substr(error.offset, Math.min(error.length, 20));
  switch (error.error as number) {
    case ParseErrorCode.InvalidSymbol:
      return found.trim()
        ? t('Unexpected \'{0}\'. JSON needs a value here: a number, "string", true, false, null, { } or [ ].', found)
        : t('Unexpected character. JSON needs a value here.');
    case ParseErrorCode.InvalidNumberFormat:
      return t("'{0}' is not a valid JSON number (write 0.5 not .5, 5 not 5., and no leading +).", found);
    case ParseErrorCode.PropertyNameExpected:
      return t('Expected a key in double quotes, like "train_batch_size".');
    case ParseErrorCode.ValueExpected:
      return t('Expected a value: a number, "string", true, false, null, { } or [ ].');
    case ParseErrorCode.ColonExpected:
      return t("Expected ':' between the key and its value.");
    case ParseErrorCode.CommaExpected:
      return t("Expected ',' between two entries.");
    case ParseErrorCode.CloseBraceExpected:
      return t("Expected '}' to close the object.");
    case ParseErrorCode.CloseBracketExpected:
      return t("Expected ']' to close the list.");
    case ParseErrorCode.EndOfFileExpected:
      return t('Unexpected text after the end of the JSON value. A config is a single { } object.');
    case ParseErrorCode.InvalidCommentToken:
      return t('Comments are not allowed here.');
    case ParseErrorCode.UnexpectedEndOfComment:
      return t("Unterminated comment: a '/*' comment needs a closing '*/'.");
    case ParseErrorCode.UnexpectedEndOfString:
      return t('Unterminated string: add the closing double quote.');
    case ParseErrorCode.UnexpectedEndOfNumber:
      return t('The number ends too early (for example "5e" needs digits after the e).');
    case ParseErrorCode.InvalidUnicode:
      return t('Invalid \\u escape: it needs four hex digits, like \\u00e9.');
    case ParseErrorCode.InvalidEscapeCharacter:
      return t('Invalid escape in a string: use \\\\, \\", \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX.');
    case ParseErrorCode.InvalidCharacter:
      return t('Invalid character in a string: control characters such as tabs and line breaks must be escaped.');
    default:
      return t('Invalid JSON.');
  }
}

// The tree lookups DeepSpeed's last-wins reading needs; they live with the other jsonc helpers.
export { findProperty, findValue } from '../util/jsonTree';
