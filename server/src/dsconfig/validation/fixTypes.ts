import type { JSONPath } from 'jsonc-parser';
import type { DiagnosticDetails } from '../../diagnostics/fixData';

/** ds_config fixes use the shared fix format (`diagnostics/fixData.ts`), mostly its JSON ops. */
export type { FixOp, FixSpec } from '../../diagnostics/fixData';

/** What a ds_config check hands over for a diagnostic's data. */
export interface DsConfigDetails extends DiagnosticDetails {
  /** Path of the key or value the diagnostic is about (empty for the whole file). */
  path: JSONPath;
  /** Did-you-mean candidates, best first. */
  candidates?: string[];
}
