import type { FormattingOptions, Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-types';
import { findValue } from '../util/jsonTree';
import { formattingOf, minimalEdit, minimalSpan, parseForEdit, removeProperty, renameKey, setValue } from '../util/jsonEdits';
import { isTextOp, type FixOrigin, type FixSpec, type JsonOp, type TextOp } from './fixData';
import { locateTextOp, type TextSpan } from './relocate';

function applyJsonOp(text: string, op: JsonOp, format: FormattingOptions, root: Node | undefined): string | undefined {
  switch (op.op) {
    case 'set':
      return setValue(text, op.path, op.value, format, root);
    case 'remove': {
      let after = removeProperty(text, op.path, { withLineComment: op.withLineComment === true }, root);
      // Every duplicate of the key: each removal leaves the next first one.
      for (let next = after; op.all && next !== undefined; ) {
        after = next;
        next = removeProperty(after, op.path, { withLineComment: op.withLineComment === true });
      }
      return after;
    }
    case 'rename':
      return renameKey(text, op.path, op.newKey, root);
  }
}

/**
 * JSON ops in order, each on the text the one before left; undefined when one no longer applies. `root`, when
 * given, is the tree of `text` (the document's cached parse), so the first op parses nothing.
 */
export function applyJsonOps(text: string, ops: JsonOp[], root?: Node, format: FormattingOptions = formattingOf(text)): string | undefined {
  let current = text;
  let tree = root;
  for (const op of ops) {
    let next: string | undefined;
    try {
      next = applyJsonOp(current, op, format, tree ?? parseForEdit(current));
    } catch {
      // A text the tree no longer describes (a concurrent edit): the fix simply does not apply.
      return undefined;
    }
    if (next === undefined) return undefined;
    current = next;
    tree = undefined;
  }
  return current;
}

/** The longest path every op's parent object shares. */
function sharedParent(ops: JsonOp[]): (string | number)[] {
  const parents = ops.map((op) => op.path.slice(0, -1));
  const shared: (string | number)[] = [];
  for (let i = 0; parents.every((p) => i < p.length && p[i] === parents[0][i]); i++) shared.push(parents[0][i]);
  return shared;
}

/**
 * JSON ops applied to the innermost object that holds every path they touch, as one replaced span of `text`.
 * Only that object's text is parsed again between ops, so a fix in a 4 MB config costs what its own few lines
 * cost. The object's text is edited on its own, behind its line's indentation, so inserted keys are indented
 * as in the file. Undefined when an op does not apply.
 */
export function applyJsonOpsScoped(text: string, ops: JsonOp[], root: Node | undefined = parseForEdit(text)): { start: number; end: number; newText: string } | undefined {
  if (!root || ops.length === 0) return undefined;
  const format = formattingOf(text);
  // Descend through objects as far as every op's parent path goes (the object DeepSpeed reads: last duplicate).
  let container = root;
  let depth = 0;
  const shared = sharedParent(ops);
  while (depth < shared.length && typeof shared[depth] === 'string') {
    const inner = findValue(container, [shared[depth]]);
    if (inner?.type !== 'object') break;
    container = inner;
    depth++;
  }
  if (depth === 0) {
    const after = applyJsonOps(text, ops, root, format);
    return after === undefined ? undefined : minimalSpan(text, after);
  }
  const lineStart = text.lastIndexOf('\n', container.offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, container.offset))![0];
  const before = indent + text.slice(container.offset, container.offset + container.length);
  const after = applyJsonOps(before, ops.map((op) => ({ ...op, path: op.path.slice(depth) })), undefined, format);
  if (after === undefined) return undefined;
  const span = minimalSpan(before, after);
  // The ops edit inside the object's braces; the indentation stands in for the rest of its line.
  if (span.start < indent.length) return undefined;
  return { start: container.offset + span.start - indent.length, end: container.offset + span.end - indent.length, newText: span.newText };
}

/** A fix's text ops located in `text`, first to last; undefined when one no longer applies or two overlap. */
function locateTextOps(text: string, ops: TextOp[], madeOn: FixOrigin | undefined): TextSpan[] | undefined {
  const spans: TextSpan[] = [];
  for (const op of ops) {
    const span = locateTextOp(text, op, madeOn);
    if (!span) return undefined;
    spans.push(span);
  }
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  return spans.every((s, i) => i === 0 || spans[i - 1].end <= s.start) ? spans : undefined;
}

function replaceSpans(text: string, spans: TextSpan[]): string {
  let out = text;
  for (const span of [...spans].reverse()) out = out.slice(0, span.start) + span.newText + out.slice(span.end);
  return out;
}

interface Outcome {
  /** Where the text ops apply now. */
  spans: TextSpan[];
  after: string;
}

/**
 * What a fix does to `text`, or undefined when an op no longer applies or nothing would change. Text ops
 * all refer to the text as it was, so they apply together; JSON ops then apply in order.
 */
function outcomeOf(text: string, fix: FixSpec, madeOn: FixOrigin | undefined): Outcome | undefined {
  const spans = locateTextOps(text, fix.ops.filter(isTextOp), madeOn);
  if (!spans) return undefined;
  const after = applyJsonOps(replaceSpans(text, spans), fix.ops.filter((op): op is JsonOp => !isTextOp(op)));
  return after === undefined || after === text ? undefined : { spans, after };
}

/** A fix of JSON ops only, as the one span it replaces, from the tree of `text` (undefined: parse it). */
function jsonOnlySpan(text: string, fix: FixSpec, root: Node | undefined): { start: number; end: number; newText: string } | undefined {
  const span = applyJsonOpsScoped(text, fix.ops as JsonOp[], root ?? parseForEdit(text));
  return span && (span.start !== span.end || span.newText !== '') && text.slice(span.start, span.end) !== span.newText ? span : undefined;
}

/**
 * The text after a whole fix, or undefined when it no longer applies or changes nothing. `madeOn` is where
 * the fix came from when that was another version of the text (undefined: this very text).
 */
export function applyFix(text: string, fix: FixSpec, madeOn: FixOrigin | undefined, root?: Node): string | undefined {
  if (fix.ops.length > 0 && !fix.ops.some(isTextOp)) {
    const span = jsonOnlySpan(text, fix, root);
    return span && text.slice(0, span.start) + span.newText + text.slice(span.end);
  }
  return outcomeOf(text, fix, madeOn)?.after;
}

/**
 * A fix as edits of the document now, or undefined when it no longer applies. A fix of text ops only
 * becomes those edits as made (an editor shows exactly the change the check meant); one with JSON ops,
 * the one minimal edit between the text and its result (jsonc-parser rewrites around the path).
 */
export function fixEdits(document: TextDocument, fix: FixSpec, origin: FixOrigin, root?: Node): TextEdit[] | undefined {
  const text = document.getText();
  if (fix.ops.length > 0 && !fix.ops.some(isTextOp)) {
    // JSON ops find their keys by path on the text as it is now: no re-locating, and only the object they edit is re-parsed.
    const span = jsonOnlySpan(text, fix, root);
    return span && [{ range: { start: document.positionAt(span.start), end: document.positionAt(span.end) }, newText: span.newText }];
  }
  const outcome = outcomeOf(text, fix, document.version === origin.version ? undefined : origin);
  if (!outcome) return undefined;
  if (!fix.ops.every(isTextOp)) return [minimalEdit(document, text, outcome.after)];
  return outcome.spans.map((s) => ({ range: { start: document.positionAt(s.start), end: document.positionAt(s.end) }, newText: s.newText }));
}
