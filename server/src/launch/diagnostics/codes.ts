import type { Diagnostic, TextEdit } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import { makeDiagnostic } from '../../diagnostics/makeDiagnostic';
import type { DiagnosticCode } from '../../diagnostics/registry';

/** A quick fix carried in the diagnostic's data, so code actions need no state. */
export interface LaunchFix {
  title: string;
  edits: TextEdit[];
  preferred?: boolean;
}

export interface LaunchDiagnosticData {
  fixes?: LaunchFix[];
  [key: string]: unknown;
}

/** A diagnostic on [start, end) of the launch script or YAML, with the registered severity and link. */
export function launchDiagnostic(ctx: SourceContext, code: DiagnosticCode, start: number, end: number, message: string, data: LaunchDiagnosticData = {}): Diagnostic {
  return makeDiagnostic(code, ctx.span(start, end).range, message, data);
}
