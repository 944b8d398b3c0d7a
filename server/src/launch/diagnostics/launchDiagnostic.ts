import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import { diagnosticData, type DiagnosticDetails } from '../../diagnostics/fixData';
import { makeDiagnostic, type DiagnosticChoice } from '../../diagnostics/makeDiagnostic';
import type { DiagnosticCode } from '../../diagnostics/registry';

/** A diagnostic on [start, end) of the launch script or YAML, with the registered severity and link unless the check chooses. */
export function launchDiagnostic(ctx: SourceContext, code: DiagnosticCode, start: number, end: number, message: string, details: DiagnosticDetails = {}, choice: DiagnosticChoice = {}): Diagnostic {
  return makeDiagnostic(code, ctx.span(start, end).range, message, diagnosticData(ctx.document, details), choice);
}
