import type { Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver-types';
import type { ParsedConfig } from '../parse';

/** VS Code asks for at most 5000 ranges unless the client says otherwise (foldingRange.rangeLimit). */
export const defaultFoldingRangeLimit = 5000;

/**
 * Folding for a ds_config: every object and array that spans lines (the closing bracket stays visible, as in
 * VS Code's JSON) and every block comment that does. Outer ranges come first, so a limit keeps the useful ones.
 */
export function configFoldingRanges(document: TextDocument, parsed: ParsedConfig, limit = defaultFoldingRangeLimit): FoldingRange[] {
  const out: FoldingRange[] = [];
  const lineOf = (offset: number) => document.positionAt(offset).line;
  for (const comment of parsed.comments) {
    const start = lineOf(comment.offset);
    const end = lineOf(comment.offset + comment.length);
    if (end > start && parsed.text.startsWith('/*', comment.offset)) out.push({ startLine: start, endLine: end, kind: FoldingRangeKind.Comment });
  }
  // Breadth-first: outer containers before the ones inside them.
  let level: Node[] = parsed.root ? [parsed.root] : [];
  while (level.length && out.length < limit) {
    const next: Node[] = [];
    for (const node of level) {
      const container = node.type === 'property' ? node.children?.[1] : node;
      if (!container || (container.type !== 'object' && container.type !== 'array')) continue;
      const start = lineOf(container.offset);
      const end = lineOf(container.offset + container.length - 1) - 1;
      if (end > start) out.push({ startLine: start, endLine: end });
      next.push(...(container.children ?? []));
    }
    level = next;
  }
  return out.slice(0, limit);
}
