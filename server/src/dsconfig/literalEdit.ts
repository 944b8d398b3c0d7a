import { createScanner, type Node } from 'jsonc-parser';
import { ScanError, Token } from '../util/jsoncTokens';
import { exactArray } from '../util/exactArrays';
import { commonEnds } from '../util/commonLength';

/**
 * The commonest keystroke changes one value in place (`2000` → `2001`, `"cpu"` → `"nvme"`). When the text
 * differs from the previous version only inside one literal value, and the new text there is still one valid
 * literal, the previous tree is still right except for that node and the offsets after it: this builds that
 * tree without scanning the whole text again. Anything else (keys, brackets, commas, comments, broken text)
 * answers undefined and the caller parses from scratch.
 */

/** The previous version's tree, with what must hold for an in-place edit to be safe. */
export interface PreviousParse {
  text: string;
  root: Node;
  comments: { offset: number; length: number }[];
  trailingCommas: { offset: number }[];
}

export interface EditedTree {
  root: Node;
  comments: { offset: number; length: number }[];
  trailingCommas: { offset: number }[];
}

/**
 * Copies the previous tree with the edit applied. The copy is iterative and resumable (`run` stops at a
 * deadline), so copying the tree of a huge file never holds the event loop for long.
 */
export class LiteralEditCopy {
  private readonly root: MutableNode;
  /** Containers whose children are still to be copied, with the copy they go into. */
  private readonly stack: { children: Node[]; next: number; copy: MutableNode }[] = [];

  private constructor(
    private readonly previous: PreviousParse,
    private readonly edited: Node,
    private readonly value: unknown,
    private readonly oldEnd: number,
    private readonly delta: number,
  ) {
    this.root = this.copyOf(previous.root, undefined);
    delete this.root.parent; // as parseTree leaves its root
    if (previous.root.children) this.stack.push({ children: previous.root.children, next: 0, copy: this.root });
  }

  /** The copy to make when the text differs from the previous version only inside one literal value. */
  static plan(previous: PreviousParse, text: string): LiteralEditCopy | undefined {
    const edit = planLiteralEdit(previous, text);
    return edit ? new LiteralEditCopy(previous, edit.edited, edit.value, edit.oldEnd, edit.delta) : undefined;
  }

  /** Copies until done (true) or until the deadline, a performance.now() time, has passed (false). */
  run(deadline: number): boolean {
    for (let count = 1; this.stack.length > 0; count++) {
      const frame = this.stack[this.stack.length - 1];
      if (frame.next >= frame.children.length) {
        // Complete: an exact-size list, as parseConfigText's tree has (util/exactArrays.ts).
        frame.copy.children = exactArray(frame.copy.children!);
        this.stack.pop();
        continue;
      }
      const child = frame.children[frame.next++];
      const copy = this.copyOf(child, frame.copy);
      frame.copy.children!.push(copy);
      if (child.children && child !== this.edited) this.stack.push({ children: child.children, next: 0, copy });
      // Reading the clock every 4096 nodes keeps its cost out of the loop.
      if ((count & 4095) === 0 && performance.now() >= deadline) return false;
    }
    return true;
  }

  /** The previous version's parsed value with the edited literal replaced (see valueAfterEdit). */
  editedValue(previousValue: unknown): unknown {
    return valueAfterEdit(previousValue, this.edited, this.value);
  }

  result(): EditedTree {
    return { root: this.root, ...shiftedTrivia(this.previous, this.oldEnd, this.delta) };
  }

  /** One node moved for the edit, without its children (containers get an empty list to fill). */
  private copyOf(node: Node, parent: Node | undefined): MutableNode {
    const { oldEnd, delta } = this;
    // Built with parseTree's property order, so copies share its object shapes.
    const offset = movedOffset(node, this.edited, oldEnd, delta);
    const length = shiftedLength(node, this.edited, oldEnd, delta);
    if (node === this.edited) return { type: typeOf(this.value), offset, length, parent, value: this.value };
    if (!node.children) {
      // A property name is built as { type, value, … } by parseTree, values as { …, value }.
      return parent?.type === 'property' && parent.children?.length === 0
        ? { type: node.type, value: node.value, offset, length, parent }
        : { type: node.type, offset, length, parent, value: node.value };
    }
    const copy: MutableNode = { type: node.type, offset, length, parent, children: [] };
    if (node.colonOffset !== undefined) copy.colonOffset = shiftedOffset(node.colonOffset, oldEnd, delta);
    return copy;
  }
}

type MutableNode = { -readonly [K in keyof Node]: Node[K] };

/** One in-place literal edit: the node that holds it, its new value, and how the text after it moved. */
interface LiteralEdit {
  edited: Node;
  value: unknown;
  /** End of the changed span in the old text, and how far the text after it moved. */
  oldEnd: number;
  delta: number;
}

/** The edit, when the text differs from the previous version only inside one literal value. */
function planLiteralEdit(previous: PreviousParse, text: string): LiteralEdit | undefined {
  const old = previous.text;
  if (old === text) return undefined;
  // The changed span: [start, oldEnd) in the old text became [start, newEnd) in the new one.
  const { start, tail } = commonEnds(old, text);
  const oldEnd = old.length - tail;
  const delta = text.length - old.length;
  const edited = literalAround(previous.root, start, oldEnd);
  if (!edited) return undefined;
  const literal = scanLiteral(text, edited.offset, edited.offset + edited.length + delta);
  return literal ? { edited, value: literal.value, oldEnd, delta } : undefined;
}

function shiftedOffset(offset: number, oldEnd: number, delta: number): number {
  return offset >= oldEnd ? offset + delta : offset;
}

/**
 * Where a node starts after the edit. The edited literal holds the edit, so its start never moves: text put
 * right before its first character (`0` → `10`) belongs to it, though that offset is the edit's end.
 */
function movedOffset(node: Node, edited: Node, oldEnd: number, delta: number): number {
  return node === edited ? node.offset : shiftedOffset(node.offset, oldEnd, delta);
}

/** The previous version's comments and trailing commas, moved with the text after the edit. */
function shiftedTrivia(previous: PreviousParse, oldEnd: number, delta: number): Pick<EditedTree, 'comments' | 'trailingCommas'> {
  return {
    comments: previous.comments.map((c) => ({ offset: shiftedOffset(c.offset, oldEnd, delta), length: c.length })),
    trailingCommas: previous.trailingCommas.map((c) => ({ offset: shiftedOffset(c.offset, oldEnd, delta) })),
  };
}

/** The edited node and every node around the edit grow or shrink with it. */
function shiftedLength(node: Node, edited: Node, oldEnd: number, delta: number): number {
  const end = node.offset + node.length;
  return node === edited || (end >= oldEnd && node.offset < oldEnd) ? node.length + delta : node.length;
}

/**
 * The same edit applied to the previous tree itself, for documents small enough to be parsed and checked in
 * one go: no new tree per keystroke (a copy of a long file's tree is garbage one keystroke later, and the
 * collector pays for it while requests wait). The previous version's ParsedConfig shares the tree and is
 * stale afterwards; every reader of a small document finishes before the next edit is applied. Subtrees that
 * end before the edit are not visited.
 */
export function patchLiteralEdit(previous: PreviousParse, text: string): (EditedTree & { value: (previousValue: unknown) => unknown }) | undefined {
  const edit = planLiteralEdit(previous, text);
  if (!edit) return undefined;
  const { edited, oldEnd, delta } = edit;
  if (delta !== 0) {
    const pending: Node[] = [previous.root];
    for (let node = pending.pop(); node; node = pending.pop()) {
      if (node.offset + node.length < oldEnd) continue; // ends before the edit: unchanged, and so are its children
      const mutable = node as MutableNode;
      mutable.length = shiftedLength(node, edited, oldEnd, delta);
      mutable.offset = movedOffset(node, edited, oldEnd, delta);
      if (node.colonOffset !== undefined) mutable.colonOffset = shiftedOffset(node.colonOffset, oldEnd, delta);
      if (node.children && node !== edited) pending.push(...node.children);
    }
  }
  const literal = edited as MutableNode;
  literal.type = typeOf(edit.value);
  literal.value = edit.value;
  return {
    root: previous.root,
    ...shiftedTrivia(previous, oldEnd, delta),
    value: (previousValue) => valueAfterEdit(previousValue, edited, edit.value),
  };
}

/**
 * The previous version's parsed value with the edited literal replaced, sharing every untouched object and
 * array with it (a keystroke must not rebuild the value of a whole file). When a later duplicate key shadows
 * the edited one, the value is the previous one unchanged.
 */
function valueAfterEdit(previousValue: unknown, edited: Node, value: unknown): unknown {
  const path: (string | number)[] = [];
  let child: Node = edited;
  for (let parent = child.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'array') path.unshift(parent.children!.indexOf(child));
    else if (parent.type === 'object') {
      const key = child.children?.[0]?.value as string;
      const siblings = parent.children!;
      for (let i = siblings.length - 1; siblings[i] !== child; i--) {
        if (siblings[i].children?.[0]?.value === key) return previousValue;
      }
      path.unshift(key);
    }
  }
  return replaceAt(previousValue, path, value);
}

/** A copy of `container` with the value at `path` replaced; only the containers along the path are new. */
function replaceAt(container: unknown, path: (string | number)[], value: unknown, at = 0): unknown {
  if (at === path.length) return value;
  const segment = path[at];
  if (Array.isArray(container)) {
    const copy = container.slice();
    copy[segment as number] = replaceAt(container[segment as number], path, value, at + 1);
    return copy;
  }
  const record = container as Record<string, unknown>;
  // Without a prototype, as nodeValue makes every object: `value.constructor` is undefined in both.
  return Object.setPrototypeOf({ ...record, [segment]: replaceAt(record[segment], path, value, at + 1) }, null);
}

/** The literal value node (not a key) whose text holds the whole span [start, end). */
function literalAround(root: Node, start: number, end: number): Node | undefined {
  let node: Node | undefined = root;
  while (node && (node.type === 'object' || node.type === 'array' || node.type === 'property')) {
    const children: Node[] = node.children ?? [];
    node = children.find((child) => child.offset <= start && end <= child.offset + child.length);
  }
  if (!node) return undefined;
  const parent = node.parent;
  const isValue = parent?.type === 'array' || (parent?.type === 'property' && parent.children?.[1] === node);
  return isValue ? node : undefined;
}

/** One literal token spanning exactly [from, to) with no scan error, and its value; else undefined. */
function scanLiteral(text: string, from: number, to: number): { value: unknown } | undefined {
  if (to <= from) return undefined;
  const whole = wholeNumber(text, from, to);
  if (whole !== undefined) return { value: whole };
  const scanner = createScanner(text, false);
  scanner.setPosition(from);
  const token: number = scanner.scan();
  if (scanner.getTokenOffset() !== from || scanner.getTokenOffset() + scanner.getTokenLength() !== to || scanner.getTokenError() !== ScanError.None) return undefined;
  switch (token) {
    case Token.String:
      return { value: scanner.getTokenValue() };
    case Token.Number: {
      const value = Number(scanner.getTokenValue());
      return Number.isNaN(value) ? undefined : { value };
    }
    case Token.True:
      return { value: true };
    case Token.False:
      return { value: false };
    case Token.Null:
      return { value: null };
    default:
      return undefined;
  }
}

/**
 * The value of an integer written as JSON writes it (no leading zero, up to 15 digits: exact as a double), read
 * without a scanner: most keystrokes in a config type a digit, and a scanner is made of dozens of closures.
 */
function wholeNumber(text: string, from: number, to: number): number | undefined {
  const negative = text.charCodeAt(from) === 45; // "-"
  const first = negative ? from + 1 : from;
  if (to - first < 1 || to - first > 15 || (text.charCodeAt(first) === 48 && to - first > 1)) return undefined;
  let value = 0;
  for (let i = first; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

function typeOf(value: unknown): Node['type'] {
  return value === null ? 'null' : (typeof value as 'string' | 'number' | 'boolean');
}

