/**
 * How deep user-written JSON may nest before ZeRO Lens stops reading it. Parsers and tree walks recurse once
 * per level, so a file nested 5,000 deep would overflow the stack somewhere; a DeepSpeed config nests a few
 * levels. Both checks below are loops, so any depth is safe to check.
 */
export const maxNestingDepth = 256;

/** Whether JSON text opens more than `limit` brackets at once (brackets inside strings do not count). */
export function jsonNestsDeeperThan(text: string, limit = maxNestingDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Whether a parsed value (JSON or YAML) nests objects or arrays more than `limit` levels deep. */
export function valueNestsDeeperThan(value: unknown, limit = maxNestingDepth): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    if (depth >= limit) return true;
    seen.add(node);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
