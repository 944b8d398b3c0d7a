import { findNodeAtOffset, type Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, Range, SelectionRange } from 'vscode-languageserver-types';
import type { ParsedConfig } from '../parse';

/**
 * Expand Selection in a ds_config: from a string's contents to the string, its `"key": value` pair, the object
 * around it, that object's pair, and so on up to the whole document.
 */
export function configSelectionRanges(document: TextDocument, parsed: ParsedConfig, positions: Position[]): SelectionRange[] {
  return positions.map((position) => {
    const offset = document.offsetAt(position);
    const node = parsed.root && findNodeAtOffset(parsed.root, offset, true);
    const spans: { offset: number; end: number }[] = [];
    for (let n: Node | undefined = node; n; n = n.parent) {
      // A string's contents first, without its quotes, where the cursor is inside them.
      if (n.type === 'string' && n.length >= 2 && offset > n.offset && offset < n.offset + n.length) spans.push({ offset: n.offset + 1, end: n.offset + n.length - 1 });
      spans.push({ offset: n.offset, end: n.offset + n.length });
    }
    const rangeOf = (s: { offset: number; end: number }): Range => ({ start: document.positionAt(s.offset), end: document.positionAt(s.end) });
    let chain: SelectionRange | undefined;
    // From the outside in, so each range's parent is the one around it; equal neighbours collapse.
    for (let i = spans.length - 1; i >= 0; i--) {
      const span = spans[i];
      if (chain && i < spans.length - 1 && spans[i + 1].offset === span.offset && spans[i + 1].end === span.end) continue;
      chain = { range: rangeOf(span), parent: chain };
    }
    return chain ?? { range: { start: position, end: position } };
  });
}
