import type { Node } from 'jsonc-parser';

/**
 * The innermost node whose span holds `offset` (its end excluded), as jsonc-parser's findNodeAtOffset finds
 * it, but by binary search over each node's children, which are ordered and do not overlap. The linear scan
 * visits every earlier sibling: in a config with hundreds of groups or long arrays, each hover touched them all.
 */
export function nodeAtOffset(root: Node, offset: number): Node | undefined {
  if (!contains(root, offset)) return undefined;
  let node = root;
  for (;;) {
    const children = node.children;
    if (!children || children.length === 0) return node;
    // The last child starting at or before the offset is the only one that can hold it.
    let low = 0;
    let high = children.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (children[middle].offset <= offset) low = middle;
      else high = middle - 1;
    }
    const child = children[low];
    if (child.offset > offset || !contains(child, offset)) return node;
    node = child;
  }
}

function contains(node: Node, offset: number): boolean {
  return offset >= node.offset && offset < node.offset + node.length;
}
