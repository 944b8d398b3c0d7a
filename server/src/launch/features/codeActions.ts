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
  const titles = new Set(actions.map((a) => a.title));
  for (const facts of all) {
    if (!facts.deepspeed || !overlaps(range, facts.deepspeed.span.range)) continue;
    const fixes = (await presetSwitchFixes(facts, text, estimator, settings)).filter((f) => !titles.has(f.title));
    actions.push(...quickFixActions(document, { origin: originOf(document), fixes }));
  }
  return actions;
}
