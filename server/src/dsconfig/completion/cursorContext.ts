import { createScanner, type Node } from 'jsonc-parser';
import { closesContainer, isLiteral, isTrivia, opensContainer, ScanError, Token } from '../../util/jsoncTokens';
import type { SchemaPath } from '../schemaIndex';

/**
 * Where the cursor is in a possibly half-typed config, found with one token scan (no tree), so that
 * `{"zero_optimization": {"sta`, unquoted hjson keys and missing commas still give a useful answer.
 */
export type CursorContext =
  | { kind: 'none' }
  /** Before the first `{` of an empty or blank file. */
  | { kind: 'document'; replace: Span }
  | KeyContext
  | ValueContext;

export interface Span {
  start: number;
  end: number;
}

/** The token under the cursor that a completion replaces. */
export interface PartialToken extends Span {
  /** Typed text of the token, e.g. `"sta` or `sta`. */
  text: string;
  quoted: boolean;
}

export interface KeyContext {
  kind: 'key';
  /** Path of the object the key goes into. */
  objectPath: SchemaPath;
  replace: Span;
  partial?: PartialToken;
  /** Keys already in that object, before and after the cursor, except the one being typed. */
  presentKeys: Set<string>;
  /** The key being edited already has a `:` after it: insert the name only. */
  keyHasValue: boolean;
  /** A value precedes the cursor without a comma (`"a": 1 |`): the offset just after it, where `,` goes. */
  leadingCommaAt?: number;
  /** Another entry follows on later text without a comma in between. */
  needsTrailingComma: boolean;
}

export interface ValueContext {
  kind: 'value';
  /** Path of the value (the key it belongs to is the last segment). */
  path: SchemaPath;
  replace: Span;
  partial?: PartialToken;
  needsTrailingComma: boolean;
}

type ObjectFrame = { type: 'object'; key?: string; state: 'key' | 'colon' | 'value' | 'after'; keys: Set<string>; valueEnd?: number };
type ArrayFrame = { type: 'array'; index: number; state: 'value' | 'after' };
type Frame = ObjectFrame | ArrayFrame;

/** A literal or a bare word (an unquoted key being typed). */
const isWordToken = (t: number): boolean => isLiteral(t) || t === Token.Unknown;

/**
 * `tree` is the parse of `rawText` when it has no syntax errors: the scan then starts at the innermost object
 * or list around the cursor instead of the top of the file (the frames above it come from the tree), so a
 * long file costs no more than a short one. Without it, the whole text before the cursor is scanned.
 */
export function cursorContext(rawText: string, offset: number, tree?: Node): CursorContext {
  // A BOM is not whitespace to jsonc-parser's scanner; a space keeps the offsets.
  const text = rawText.charCodeAt(0) === 0xfeff ? ' ' + rawText.slice(1) : rawText;
  const scanner = createScanner(text, false);
  const stack: Frame[] = [];
  let rootSeen = false;
  let partial: PartialToken | undefined;
  const start = tree ? treeStart(tree, offset) : undefined;
  if (start) {
    stack.push(...start.frames);
    scanner.setPosition(start.offset);
  }

  for (let token: number = scanner.scan(); token !== Token.EOF; token = scanner.scan()) {
    const start = scanner.getTokenOffset();
    const end = start + scanner.getTokenLength();
    if (start >= offset) break;
    if (token === Token.LineComment && end >= offset) return { kind: 'none' };
    if (token === Token.BlockComment && end > offset) return { kind: 'none' };
    if (isWordToken(token) && end >= offset) {
      const open = token === Token.String && scanner.getTokenError() === ScanError.UnexpectedEndOfString;
      // An unterminated string runs to the end of the line; replace only up to the cursor then.
      const stop = open ? offset : end;
      partial = { start, end: stop, text: text.slice(start, offset), quoted: token === Token.String };
      break;
    }
    const top = stack[stack.length - 1];
    switch (token) {
      case Token.OpenBrace:
        if (!top && rootSeen) return { kind: 'none' };
        rootSeen = true;
        stack.push({ type: 'object', state: 'key', keys: new Set() });
        break;
      case Token.OpenBracket:
        rootSeen = true;
        stack.push({ type: 'array', index: 0, state: 'value' });
        break;
      case Token.CloseBrace:
      case Token.CloseBracket:
        if (top && top.type === (token === Token.CloseBrace ? 'object' : 'array')) {
          stack.pop();
          valueDone(stack[stack.length - 1], end);
        }
        break;
      case Token.Colon:
        if (top?.type === 'object' && top.state === 'colon') top.state = 'value';
        break;
      case Token.Comma:
        if (top?.type === 'object') {
          top.state = 'key';
          top.key = undefined;
        } else if (top?.type === 'array') {
          top.index++;
          top.state = 'value';
        }
        break;
      default:
        if (isTrivia(token)) break;
        if (!top) {
          rootSeen = true;
          break;
        }
        if (top.type === 'object' && (top.state === 'key' || top.state === 'after') && (token === Token.String || token === Token.Unknown)) {
          top.key = token === Token.String ? scanner.getTokenValue() : text.slice(start, end);
          top.keys.add(top.key);
          top.state = 'colon';
        } else {
          valueDone(top, end);
        }
    }
  }

  const replace: Span = partial ? { start: partial.start, end: partial.end } : { start: offset, end: offset };
  const top = stack[stack.length - 1];
  if (!top) {
    // Only a blank file (or blank up to a half-typed word) gets whole-config snippets, never text before a `{`.
    const blank = !rootSeen && scanAfter(text, replace.end, false).next === undefined;
    return blank ? { kind: 'document', replace } : { kind: 'none' };
  }

  const after = scanAfter(text, partial ? partial.end : offset, top.type === 'object', start?.container);
  const framesPath = stack.slice(0, -1).map((f) => (f.type === 'object' ? (f.key ?? '') : f.index));
  if (top.type === 'array') {
    if (top.state !== 'value') return { kind: 'none' };
    return { kind: 'value', path: [...framesPath, top.index], replace, partial, needsTrailingComma: after.nextStartsEntry };
  }
  if (top.state === 'value' && top.key !== undefined) {
    return { kind: 'value', path: [...framesPath, top.key], replace, partial, needsTrailingComma: after.nextStartsEntry };
  }
  if (top.state === 'key' || top.state === 'after') {
    const presentKeys = new Set([...top.keys, ...after.keys]);
    return {
      kind: 'key',
      objectPath: framesPath,
      replace,
      partial,
      presentKeys,
      keyHasValue: after.nextIsColon,
      leadingCommaAt: top.state === 'after' ? top.valueEnd : undefined,
      needsTrailingComma: !after.nextIsColon && after.nextStartsEntry,
    };
  }
  return { kind: 'none' };
}

/**
 * Where the token scan can start when the tree is known: at the last entry that begins before the cursor,
 * inside the object or list that most closely encloses it (strictly inside its brackets), with the frames
 * the scan from the top would have built by then. Keys of earlier entries come from the tree.
 */
function treeStart(root: Node, offset: number): { offset: number; frames: Frame[]; container: Node } | undefined {
  const inside = (node: Node | undefined): node is Node =>
    !!node && (node.type === 'object' || node.type === 'array') && node.offset < offset && offset < node.offset + node.length;
  if (!inside(root)) return undefined;
  const frames: Frame[] = [];
  let node = root;
  for (;;) {
    const children = node.children ?? [];
    const index = childAt(children, offset);
    const child = index === undefined ? undefined : children[index];
    const value = node.type === 'object' ? child?.children?.[1] : child;
    if (index === undefined || !child || !inside(value)) break;
    frames.push(
      node.type === 'object'
        ? { type: 'object', key: String(child.children?.[0]?.value ?? ''), state: 'value', keys: new Set() }
        : { type: 'array', index, state: 'value' },
    );
    node = value;
  }
  const children = node.children ?? [];
  const last = lastStartingBefore(children, offset);
  if (last < 0) return { offset: node.offset, frames, container: node };
  // Just before entry `last`: after `{`/`[` or after the comma that precedes it.
  frames.push(
    node.type === 'object'
      ? { type: 'object', state: 'key', keys: new Set(children.slice(0, last).map((p) => String(p.children?.[0]?.value ?? ''))) }
      : { type: 'array', index: last, state: 'value' },
  );
  return { offset: children[last].offset, frames, container: node };
}

/** Index of the last child that starts before `offset`, or -1. */
function lastStartingBefore(children: Node[], offset: number): number {
  let low = 0;
  let high = children.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (children[mid].offset < offset) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** Binary search: the child whose span holds `offset` (children are in text order). */
function childAt(children: Node[], offset: number): number | undefined {
  let low = 0;
  let high = children.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const child = children[mid];
    if (offset < child.offset) high = mid - 1;
    else if (offset >= child.offset + child.length) low = mid + 1;
    else return mid;
  }
  return undefined;
}

function valueDone(frame: Frame | undefined, end: number): void {
  if (!frame) return;
  frame.state = 'after';
  if (frame.type === 'object') frame.valueEnd = end;
}

/**
 * Looks past the cursor inside the same container: which keys it still holds, whether the next token is a
 * `:` (the key under the cursor already has a value) and whether another entry follows without a comma.
 */
function scanAfter(
  text: string,
  from: number,
  inObject: boolean,
  container?: Node,
): { keys: Set<string>; next: number | undefined; nextIsColon: boolean; nextStartsEntry: boolean } {
  const scanner = createScanner(text, false);
  scanner.setPosition(from);
  const keys = new Set<string>();
  let first: number | undefined;
  if (container) {
    // From the tree: the keys of the entries after `from`, and only the next token from the text.
    if (inObject) for (const property of container.children ?? []) if (property.offset >= from) keys.add(String(property.children?.[0]?.value ?? ''));
    for (let token: number = scanner.scan(); token !== Token.EOF && first === undefined; token = scanner.scan()) if (!isTrivia(token)) first = token;
    return nextInfo(keys, first);
  }
  let depth = 0;
  let pendingKey: string | undefined;
  for (let token: number = scanner.scan(); token !== Token.EOF; token = scanner.scan()) {
    if (isTrivia(token)) continue;
    first ??= token;
    if (opensContainer(token)) depth++;
    else if (closesContainer(token)) {
      if (--depth < 0) break;
    } else if (depth === 0 && inObject) {
      if (token === Token.String || token === Token.Unknown) pendingKey = scanner.getTokenValue();
      else if (token === Token.Colon && pendingKey !== undefined) keys.add(pendingKey);
      if (token !== Token.String && token !== Token.Unknown) pendingKey = undefined;
    }
  }
  return nextInfo(keys, first);
}

function nextInfo(keys: Set<string>, first: number | undefined): { keys: Set<string>; next: number | undefined; nextIsColon: boolean; nextStartsEntry: boolean } {
  return {
    keys,
    next: first,
    nextIsColon: first === Token.Colon,
    nextStartsEntry: first !== undefined && (isWordToken(first) || opensContainer(first)),
  };
}
