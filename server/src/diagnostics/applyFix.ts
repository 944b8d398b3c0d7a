import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-types';
import { minimalEdit, removeProperty, renameKey, setValue } from '../util/jsonEdits';
import { isTextOp, type FixOrigin, type FixSpec, type JsonOp, type TextOp } from './fixData';
import { locateTextOp, type TextSpan } from './relocate';

function applyJsonOp(text: string, op: JsonOp): string | undefined {
  switch (op.op) {
    case 'set':
      return setValue(text, op.path, op.value);
    case 'remove':
      return removeProperty(text, op.path, { withLineComment: op.withLineComment === true });
    case 'rename':
      return renameKey(text, op.path, op.newKey);
  }
}

/** JSON ops in order, each on the text the one before left; undefined when one no longer applies. */
export function applyJsonOps(text: string, ops: JsonOp[]): string | undefined {
  let current = text;
  for (const op of ops) {
    let next: string | undefined;
    try {
      next = applyJsonOp(current, op);
    } catch {
      // A text the tree no longer describes (a concurrent edit): the fix simply does not apply.
      return undefined;
    }
    if (next === undefined) return undefined;
    current = next;
  }
  return current;
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

/**
 * The text after a whole fix, or undefined when it no longer applies or changes nothing. `madeOn` is where
 * the fix came from when that was another version of the text (undefined: this very text).
 */
export function applyFix(text: string, fix: FixSpec, madeOn: FixOrigin | undefined): string | undefined {
  return outcomeOf(text, fix, madeOn)?.after;
}

/**
 * A fix as edits of the document now, or undefined when it no longer applies. A fix of text ops only
 * becomes those edits as made (an editor shows exactly the change the check meant); one with JSON ops,
 * the one minimal edit between the text and its result (jsonc-parser rewrites around the path).
 */
export function fixEdits(document: TextDocument, fix: FixSpec, origin: FixOrigin): TextEdit[] | undefined {
  const text = document.getText();
  const outcome = outcomeOf(text, fix, document.version === origin.version ? undefined : origin);
  if (!outcome) return undefined;
  if (!fix.ops.every(isTextOp)) return [minimalEdit(document, text, outcome.after)];
  return outcome.spans.map((s) => ({ range: { start: document.positionAt(s.start), end: document.positionAt(s.end) }, newText: s.newText }));
}
