import type { Diagnostic } from 'vscode-languageserver-types';
import { isCodeOf } from '../../diagnostics/registry';
import type { DiagnosticData, FixOp, FixSpec } from '../validation/fixTypes';

/** A ds_config diagnostic of ours (other domains also use source "zero-lens" and fix their own). */
export function isOwnDiagnostic(diagnostic: Diagnostic): boolean {
  return diagnostic.source === 'zero-lens' && isCodeOf(diagnostic.code, 'ds-config');
}

function isOp(value: unknown): value is FixOp {
  const op = value as FixOp;
  if (!op || typeof op !== 'object') return false;
  if (op.op === 'deleteText') return typeof op.offset === 'number' && typeof op.length === 'number' && typeof op.expect === 'string';
  if (!Array.isArray(op.path) || !op.path.every((s) => typeof s === 'string' || typeof s === 'number')) return false;
  return op.op === 'set' || op.op === 'remove' || (op.op === 'rename' && typeof op.newKey === 'string');
}

/** The fixes in a diagnostic's data, checked: data comes back from the client and may be anything. */
export function fixesOf(diagnostic: Diagnostic): FixSpec[] {
  const fixes = (diagnostic.data as DiagnosticData | undefined)?.fixes;
  if (!Array.isArray(fixes)) return [];
  return fixes.filter((f): f is FixSpec => !!f && typeof f.title === 'string' && Array.isArray(f.ops) && f.ops.every(isOp));
}
