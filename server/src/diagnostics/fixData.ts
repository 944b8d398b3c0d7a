import type { JSONPath } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FixKind } from './fixKinds';

/**
 * A quick fix described as data, carried in `Diagnostic.data.fixes` so the code-action side stays
 * stateless. Ops say what to change, not where the text was: JSON ops find their path in the current text
 * through jsonc-parser; text ops carry the text they replace, so a fix made on an older version is moved
 * to where that text is now, or dropped (`relocate.ts`).
 */
export type JsonOp =
  /**
   * Set (or insert) the value at a path. `placeholder`: the value (a string) is only an example the user must
   * replace; the fix is then offered as a snippet whose tab stop selects it, and only to editors that apply
   * snippet edits (its title says to fill it in).
   */
  | { op: 'set'; path: JSONPath; value: unknown; placeholder?: true }
  /**
   * Remove the property at a path (the first one when a key repeats, so the ignored duplicate can go; with
   * `all`, every one); `withLineComment` takes a comment on the key's own line with it.
   */
  | { op: 'remove'; path: JSONPath; withLineComment?: boolean; all?: boolean }
  /** Rename the key at a path, keeping its value, comments and position. */
  | { op: 'rename'; path: JSONPath; newKey: string };

export type TextOp =
  /** Replace [start, end), which read `expect` when the fix was made, by `newText`. */
  | { op: 'replaceText'; start: number; end: number; expect: string; newText: string }
  /** Delete `length` characters at `offset` that read `expect` (a BOM, a trailing comma in JSON). */
  | { op: 'deleteText'; offset: number; length: number; expect: string };

export type FixOp = JsonOp | TextOp;

export interface FixSpec {
  /** What the fix does, stable across wording and translation: code recognises fixes by this, never by title. */
  id: FixKind;
  title: string;
  /** The fix to apply without asking (also used by source.fixAll.zeroLens). */
  preferred?: boolean;
  ops: FixOp[];
}

/** When the fixes were made: text ops made on another version are re-located before use. */
export interface FixOrigin {
  /** The document version the diagnostic was made for. */
  version: number;
  /** The document's length then: text can only have moved by as much as the document grew or shrank. */
  textLength: number;
}

/** What every zero-lens diagnostic carries in `data`: its origin, its fixes (maybe none) and its details. */
export interface DiagnosticData extends FixOrigin {
  fixes: FixSpec[];
  [detail: string]: unknown;
}

/** What a check hands over: its fixes and details; the origin is added from the document. */
export interface DiagnosticDetails {
  fixes?: FixSpec[];
  [detail: string]: unknown;
}

export function originOf(document: TextDocument): FixOrigin {
  return { version: document.version, textLength: document.getText().length };
}

/** The data of a diagnostic made on `document`. */
export function diagnosticData(document: TextDocument, details: DiagnosticDetails = {}): DiagnosticData {
  return { ...details, ...originOf(document), fixes: details.fixes ?? [] };
}

export function isTextOp(op: FixOp): op is TextOp {
  return op.op === 'replaceText' || op.op === 'deleteText';
}
