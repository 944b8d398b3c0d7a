import type { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver-types';
import type { DiagnosticData } from './fixData';
import { diagnosticRegistry, type DiagnosticCode } from './registry';

/** What a check may choose per case instead of the code's registered severity and link. */
export interface DiagnosticChoice {
  severity?: DiagnosticSeverity;
  href?: string;
}

/** Every zero-lens diagnostic of every domain is made here: a registered code, its link, and checked data. */
export function makeDiagnostic(code: DiagnosticCode, range: Range, message: string, data: DiagnosticData, choice: DiagnosticChoice = {}): Diagnostic {
  const info = diagnosticRegistry[code];
  return {
    range,
    severity: choice.severity ?? info.severity,
    code,
    codeDescription: { href: choice.href ?? info.href },
    source: 'zero-lens',
    message,
    data,
  };
}
