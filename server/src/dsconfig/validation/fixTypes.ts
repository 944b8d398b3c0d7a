import type { JSONPath } from 'jsonc-parser';

/**
 * A quick fix described as data, stored in `Diagnostic.data.fixes` when the diagnostic is made, so the
 * code-action side stays stateless: it re-locates every path in the current text and edits through jsonc-parser.
 */
export type FixOp =
  /** Set (or insert) the value at a path. */
  | { op: 'set'; path: JSONPath; value: unknown }
  /** Remove the property at a path (the first one when a key repeats, so the ignored duplicate can go). */
  | { op: 'remove'; path: JSONPath }
  /** Rename the key at a path, keeping its value, comments and position. */
  | { op: 'rename'; path: JSONPath; newKey: string }
  /** Delete `length` characters at `offset` when they still read `expect` (BOM, trailing comma). */
  | { op: 'deleteText'; offset: number; length: number; expect: string };

export interface FixSpec {
  title: string;
  ops: FixOp[];
  /** The fix to apply without asking (also used by source.fixAll.zeroLens). */
  preferred?: boolean;
}

/** What every zero-lens diagnostic carries in `data`. */
export interface DiagnosticData {
  /** Path of the key or value the diagnostic is about (empty for the whole file). */
  path: JSONPath;
  fixes?: FixSpec[];
  /** Did-you-mean candidates, best first. */
  candidates?: string[];
  [detail: string]: unknown;
}
