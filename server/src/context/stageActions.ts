import { CodeActionKind, type CodeAction, type Diagnostic, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ZeroStage } from '../memory/types';
import type { ParsedConfig } from '../dsconfig/parse';
import { hasNumbers, type ConfigAnalysis } from './analysis';
import { isFitDiagnostic } from './fitDiagnostic';
import { minimalTextEdit } from './jsoncEdit';
import { gib } from './present';
import { applyStageSwitch, currentStageOption, sameOption, type StageTarget } from './stageSwitch';
import { setTrainingContextCommandFor } from './setContextCommand';

/** One offered move, before it becomes a CodeAction. */
interface Offer {
  target: StageTarget;
  title: string;
}

/** The edit that moves the document to `target`, or null when it already is there (or cannot be edited safely). */
export function stageSwitchEdit(document: TextDocument, config: ParsedConfig, target: StageTarget): { edit: WorkspaceEdit; dropped: string[] } | null {
  // Never rewrite a file jsonc-parser could not read completely: the edit could land in the wrong place.
  if (!config.root || config.syntaxErrors.length > 0 || config.limits.length > 0) return null;
  const { text, dropped } = applyStageSwitch(config.text, config.value, target);
  const change = minimalTextEdit(document, config.text, text);
  return change ? { edit: { changes: { [document.uri]: [change] } }, dropped } : null;
}

/** The stage and offload quick fixes for a config, with estimates in their titles when known. */
export function stageCodeActions(
  document: TextDocument,
  config: ParsedConfig,
  analysis: ConfigAnalysis | undefined,
  diagnostics: Diagnostic[],
): CodeAction[] {
  const current = analysis?.current ?? currentStageOption(config.value);
  const numbers = analysis && hasNumbers(analysis) ? analysis : undefined;
  const estimateText = (target: StageTarget): string => {
    const result = numbers?.estimate(target);
    return result ? `≈ ${gib(result.perGpu.total)}/GPU` : '';
  };
  const offers: Offer[] = [];
  for (const stage of [0, 1, 2, 3] as ZeroStage[]) {
    if (stage === current.stage) continue;
    const target: StageTarget = {
      stage,
      offloadOptimizer: stage >= 1 ? current.offloadOptimizer : 'none',
      offloadParam: stage === 3 ? current.offloadParam : 'none',
    };
    const estimate = estimateText(target);
    offers.push({ target, title: `Switch to ZeRO-${stage}${estimate ? ` (${estimate})` : ''}` });
  }
  if (current.stage >= 1 && current.offloadOptimizer === 'none') {
    const target = { ...current, offloadOptimizer: 'cpu' as const };
    const estimate = estimateText(target);
    offers.push({ target, title: `Offload optimizer states to CPU${estimate ? ` (${estimate})` : ''}` });
  }
  if (current.offloadParam === 'none') {
    const target: StageTarget = { stage: 3, offloadOptimizer: current.stage === 0 ? 'none' : current.offloadOptimizer, offloadParam: 'cpu' };
    const estimate = estimateText(target);
    offers.push({ target, title: `Offload parameters to CPU (ZeRO-3${estimate ? `, ${estimate}` : ''})` });
  }

  const fit = diagnostics.filter(isFitDiagnostic);
  const preferred = preferredTarget(offers, numbers, fit[0]?.data.suggestion ?? null);
  const actions: CodeAction[] = [];
  for (const offer of offers) {
    const switched = stageSwitchEdit(document, config, offer.target);
    if (!switched) continue;
    const dropped = switched.dropped.length;
    const action: CodeAction = {
      title: dropped ? `${offer.title}, removing ${dropped} ZeRO-3-only setting${dropped === 1 ? '' : 's'}` : offer.title,
      kind: CodeActionKind.QuickFix,
      edit: switched.edit,
    };
    if (fit.length) action.diagnostics = fit;
    if (preferred && sameOption(preferred, offer.target)) action.isPreferred = true;
    actions.push(action);
  }
  if (analysis && !hasNumbers(analysis) && (analysis.missing.includes('model') || analysis.missing.includes('gpusPerNode') || analysis.modelProblem)) {
    actions.push({ title: 'Set model and GPUs for memory estimates…', kind: CodeActionKind.QuickFix, command: setTrainingContextCommandFor(document.uri, analysis.missing) });
  }
  return actions;
}

/**
 * The preferred fix: the lowest stage that fits among the stage switches (lower stages are faster); without
 * such a switch, the smallest change that fits from the warning.
 */
function preferredTarget(offers: Offer[], analysis: ConfigAnalysis | undefined, suggestion: StageTarget | null): StageTarget | undefined {
  if (analysis) {
    const switches = offers.filter((o) => o.title.startsWith('Switch')).sort((a, b) => a.target.stage - b.target.stage);
    const lowest = switches.find((o) => analysis.estimate(o.target)?.fits === true);
    const currentFits = analysis.estimate(analysis.current)?.fits === true;
    // A fitting config is only nudged to a *lower* (faster) stage, never to a higher one.
    if (lowest && (!currentFits || lowest.target.stage < analysis.current.stage)) return lowest.target;
  }
  if (suggestion) return offers.find((o) => sameOption(o.target, suggestion))?.target;
  return undefined;
}
