import type { Diagnostic } from 'vscode-languageserver-types';
import { isCodeOf } from '../../diagnostics/registry';

/** A ds_config diagnostic of ours (other domains also use source "zero-lens" and fix their own). */
export function isOwnDiagnostic(diagnostic: Diagnostic): boolean {
  return diagnostic.source === 'zero-lens' && isCodeOf(diagnostic.code, 'ds-config');
}
