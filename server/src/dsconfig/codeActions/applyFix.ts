import type { FixOp, FixSpec } from '../validation/fixTypes';
import { removeProperty, renameKey, setValue } from '../../util/jsonEdits';

/** One op on the text, or undefined when it no longer applies (the text changed since the diagnostic). */
function applyOp(text: string, op: FixOp): string | undefined {
  switch (op.op) {
    case 'set':
      return setValue(text, op.path, op.value);
    case 'remove':
      return removeProperty(text, op.path);
    case 'rename':
      return renameKey(text, op.path, op.newKey);
    case 'deleteText':
      if (text.substr(op.offset, op.length) !== op.expect) return undefined;
      return text.slice(0, op.offset) + text.slice(op.offset + op.length);
  }
}

/** The text after a whole fix, or undefined when any op no longer applies or nothing would change. */
export function applyFix(text: string, fix: FixSpec): string | undefined {
  let current = text;
  for (const op of fix.ops) {
    let next: string | undefined;
    try {
      next = applyOp(current, op);
    } catch {
      // A text the tree no longer describes (a concurrent edit): the fix simply does not apply.
      return undefined;
    }
    if (next === undefined) return undefined;
    current = next;
  }
  return current === text ? undefined : current;
}
