import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ZeroLensSettings } from '../../settings';
import { applyFix } from '../../diagnostics/applyFix';
import { readDiagnosticData } from '../../diagnostics/readDiagnosticData';
import { placeholderOf } from '../../diagnostics/fixActions';
import { validateConfig } from '../validation/validate';
import type { WorldSize } from '../validation/worldSize';
import { ConfigParses } from '../parse';
import { isOwnDiagnostic } from './ownDiagnostics';
import { unlimited, type Budget } from '../../util/budget';

/** Enough for any real config; bounds the work on pathological files. */
const maxRounds = 200;

/**
 * Applies every preferred fix, one at a time, re-validating the text after each so fixes never overlap or
 * act on stale positions. Returns the final text (unchanged when nothing was fixable).
 */
export async function fixAllText(document: TextDocument, settings: ZeroLensSettings, budget: Budget = unlimited, world?: WorldSize): Promise<string> {
  let text = document.getText();
  const tried = new Set<string>();
  // Parses of their own keep these intermediate versions out of the editor document's parse cache.
  const parses = new ConfigParses();
  const uri = `${document.uri}#zero-lens-fix-all`;
  for (let round = 0; round < maxRounds; round++) {
    // Each round validates the whole text again: between rounds the request may yield, or stop.
    await budget.checkpoint();
    const current = TextDocument.create(uri, document.languageId, round, text);
    let progressed = false;
    for (const diagnostic of validateConfig(parses, current, settings, undefined, undefined, world)) {
      if (!isOwnDiagnostic(diagnostic)) continue;
      const data = readDiagnosticData(diagnostic.data);
      const preferred = data?.fixes.find((f) => f.preferred);
      if (!data || !preferred || placeholderOf(preferred) !== undefined) continue;
      const id = `${String(diagnostic.code)}|${JSON.stringify(data.path)}|${JSON.stringify(preferred.ops)}`;
      if (tried.has(id)) continue;
      tried.add(id);
      // Made on this very text: no re-locating.
      const next = applyFix(text, preferred, undefined, parses.parse(current).root);
      if (next === undefined) continue;
      text = next;
      progressed = true;
      break;
    }
    if (!progressed) break;
  }
  return text;
}
