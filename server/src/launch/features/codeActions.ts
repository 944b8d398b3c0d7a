import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CodeActionContext, Range } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { LaunchFacts } from '../facts';
import type { LaunchEstimator } from '../estimates';
import { dataFixActions, quickFixActions } from '../../diagnostics/fixActions';
import { originOf } from '../../diagnostics/fixData';
import { presetSwitchFixes } from './memoryActions';

function overlaps(a: Range, b: Range): boolean {
  const before = (p: { line: number; character: number }, q: { line: number; character: number }) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** The same change as an action already offered (a preset switch the memory warning carries too). */
function sameEdit(a: CodeAction, b: CodeAction): boolean {
  return JSON.stringify(a.edit) === JSON.stringify(b.edit);
}

/** Quick fixes carried by our diagnostics, plus preset switches on a `--deepspeed` value. */
export async function launchCodeActions(
  document: TextDocument,
  all: LaunchFacts[],
  range: Range,
  context: CodeActionContext,
  estimator: LaunchEstimator,
  settings: ZeroLensSettings,
): Promise<CodeAction[]> {
  const actions = dataFixActions(document, context.diagnostics.filter((d) => d.source === 'zero-lens'));
  const text = document.getText();
  for (const facts of all) {
    if (!facts.deepspeed || !overlaps(range, facts.deepspeed.span.range)) continue;
    const fixes = (await presetSwitchFixes(facts, text, estimator, settings)).map((s) => s.fix);
    for (const action of quickFixActions(document, { origin: originOf(document), fixes })) {
      if (!actions.some((a) => sameEdit(a, action))) actions.push(action);
    }
  }
  return actions;
}
