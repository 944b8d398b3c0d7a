import type { JSONPath, Node } from 'jsonc-parser';

/**
 * The property node DeepSpeed would use for a path: the LAST one when a key repeats (Python dicts keep the
 * last value), unlike jsonc-parser's findNodeAtLocation which returns the first.
 */
export function findProperty(root: Node | undefined, path: JSONPath): Node | undefined {
  let node = root;
  let property: Node | undefined;
  for (const segment of path) {
    if (!node) return undefined;
    if (typeof segment === 'string') {
      if (node.type !== 'object') return undefined;
      property = undefined;
      for (const candidate of node.children ?? []) {
        if (candidate.children?.[0]?.value === segment) property = candidate;
      }
      node = property?.children?.[1];
    } else {
      if (node.type !== 'array') return undefined;
      property = undefined;
      node = node.children?.[segment];
    }
  }
  return property;
}

/** The value node at a path, following the same last-wins rule as findProperty. */
export function findValue(root: Node | undefined, path: JSONPath): Node | undefined {
  if (path.length === 0) return root;
  const last = path[path.length - 1];
  if (typeof last === 'number') {
    const parent = findValue(root, path.slice(0, -1));
    return parent?.type === 'array' ? parent.children?.[last] : undefined;
  }
  return findProperty(root, path)?.children?.[1];
}
