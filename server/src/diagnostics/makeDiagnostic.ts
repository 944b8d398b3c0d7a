import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver-types';
import type { DiagnosticData } from './fixData';
import { diagnosticRegistry, type CodeInfo, type DiagnosticCode } from './registry';
import { upstreamLink } from './upstream';

/** What a check may choose per case instead of the code's registered severity and link. */
export interface DiagnosticChoice {
  severity?: DiagnosticSeverity;
  href?: string;
  /** The line that raises in this case, where the code's own citation names another of its sites. */
  raises?: string;
}

/** Every zero-lens diagnostic of every domain is made here: a registered code, its link, and checked data. */
export function makeDiagnostic(code: DiagnosticCode, range: Range, message: string, data: DiagnosticData, choice: DiagnosticChoice = {}): Diagnostic {
  const info: CodeInfo = diagnosticRegistry[code];
  const severity = choice.severity ?? info.severity;
  // An error links to the upstream line that raises it; anything weaker to the docs.
  const raises = choice.raises ?? info.raises;
  const href = severity === DiagnosticSeverity.Error && raises ? upstreamLink(raises) : (choice.href ?? info.href);
  return {
    range,
    severity,
    code,
    codeDescription: { href },
    source: 'zero-lens',
    message,
    data,
  };
}
