import type { JSONPath, Node } from 'jsonc-parser';
import { exactArray } from './exactArrays';

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

/**
 * jsonc-parser's getNodeValue, the same value (objects without a prototype, the last of repeated keys wins,
 * in the place of the first), but each object is built as a plain literal and given its null prototype at the
 * end: `Object.create(null)` objects are V8 dictionaries, about 190 bytes for three keys against 70, which
 * for a 4 MB config is several MB held as long as the document is open.
 */
export function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'array':
      return (node.children ?? []).map(nodeValue);
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const valueNode = property.children?.[1];
        if (!valueNode) continue;
        const key = String(property.children![0].value);
        // Assigning `__proto__` would set the prototype; it is an ordinary key in JSON.
        if (key === '__proto__') Object.defineProperty(object, key, { value: nodeValue(valueNode), writable: true, enumerable: true, configurable: true });
        else object[key] = nodeValue(valueNode);
      }
      return Object.setPrototypeOf(object, null);
    }
    case 'null':
    case 'string':
    case 'number':
    case 'boolean':
      return node.value;
    default:
      return undefined;
  }
}

/**
 * Gives every `children` list of a jsonc tree an exact-size copy (see exactArrays.ts), and makes repeated short strings (keys, and
 * values such as "layer") one string: the scanner makes a new one per token, and a large config repeats a few
 * keys tens of thousands of times. Iterative: any depth.
 */
export function compactTree(root: Node): void {
  const strings = new Map<string, string>();
  const pending: Node[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const children = node.children;
    if (!children) {
      if (typeof node.value === 'string' && node.value.length <= maxSharedLength) {
        const shared = strings.get(node.value);
        if (shared === undefined) strings.set(node.value, node.value);
        else (node as { value: string }).value = shared;
      }
      continue;
    }
    (node as { children: Node[] }).children = exactArray(children);
    for (const child of children) pending.push(child);
  }
}

/** Longer strings are rarely repeated; past this, comparing them costs more than sharing saves. */
const maxSharedLength = 64;
