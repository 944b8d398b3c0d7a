import type { FixOrigin, TextOp } from './fixData';
import { logicalLineEnd, logicalLineStart } from './logicalLine';

/** A text op's span in the current text. */
export interface TextSpan {
  start: number;
  end: number;
  newText: string;
}

/**
 * Where a text op applies in `text`, or undefined when it no longer does. On the version it was made for
 * (`madeOn` undefined) the text must still read `expect` there. On another version it is re-located:
 * edits elsewhere moved it by at most the change in the document's length, towards the side that change
 * went, so it must be the one occurrence of `expect` that starts in that stretch, and the only one on its
 * logical line; anything less certain drops the fix rather than apply it blind.
 */
export function locateTextOp(text: string, op: TextOp, madeOn: FixOrigin | undefined): TextSpan | undefined {
  const { start, expect, newText } = op.op === 'replaceText' ? op : { start: op.offset, expect: op.expect, newText: '' };
  if (!madeOn) return text.startsWith(expect, start) ? { start, end: start + expect.length, newText } : undefined;
  if (expect === '') return undefined;
  const drift = text.length - madeOn.textLength;
  const found = occurrences(text, expect, start + Math.min(0, drift), start + Math.max(0, drift));
  if (found.length !== 1) return undefined;
  const at = found[0];
  const lineStart = logicalLineStart(text, at);
  const lineEnd = logicalLineEnd(text, at + expect.length);
  if (occurrences(text, expect, lineStart, lineEnd - expect.length).length !== 1) return undefined;
  return { start: at, end: at + expect.length, newText };
}

/** Where `expect` occurs starting anywhere from `from` to `to` (both included), at most two: one is all we accept. */
function occurrences(text: string, expect: string, from: number, to: number): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(expect, Math.max(0, from)); at >= 0 && at <= to && found.length < 2; at = text.indexOf(expect, at + 1)) found.push(at);
  return found;
}
