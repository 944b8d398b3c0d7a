import { CodeActionKind, type CodeAction, type CodeActionContext, type Diagnostic, type Range } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { LaunchFacts } from '../facts';
import type { LaunchEstimator } from '../estimates';
import type { LaunchDiagnosticData, LaunchFix } from '../diagnostics/codes';
import { presetSwitchFixes } from './memoryActions';

function overlaps(a: Range, b: Range): boolean {
  const before = (p: { line: number; character: number }, q: { line: number; character: number }) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function actionOf(uri: string, fix: LaunchFix, diagnostic?: Diagnostic): CodeAction {
  return {
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: diagnostic ? [diagnostic] : undefined,
    isPreferred: fix.preferred || undefined,
    edit: { changes: { [uri]: fix.edits } },
  };
}

/** Quick fixes carried by our diagnostics, plus preset switches on a `--deepspeed` value. */
export async function launchCodeActions(
  uri: string,
  all: LaunchFacts[],
  range: Range,
  context: CodeActionContext,
  estimator: LaunchEstimator,
  settings: ZeroLensSettings,
): Promise<CodeAction[]> {
  const actions: CodeAction[] = [];
  for (const diagnostic of context.diagnostics) {
    if (diagnostic.source !== 'zero-lens') continue;
    const fixes = (diagnostic.data as LaunchDiagnosticData | undefined)?.fixes;
    if (!Array.isArray(fixes)) continue;
    for (const fix of fixes) actions.push(actionOf(uri, fix, diagnostic));
  }
  const titles = new Set(actions.map((a) => a.title));
  for (const facts of all) {
    if (!facts.deepspeed || !overlaps(range, facts.deepspeed.span.range)) continue;
    for (const fix of await presetSwitchFixes(facts, estimator, settings)) {
      if (!titles.has(fix.title)) actions.push(actionOf(uri, fix));
    }
  }
  return actions;
}
