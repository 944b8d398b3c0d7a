import { CodeActionKind, type CodeAction, type Diagnostic, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ParsedConfig } from '../dsconfig/parse';
import { formatGiB, optionLabel, sameOption, type ZeroOption } from '../protocol';
import { hasNumbers, type ConfigAnalysis } from '../training/analysis';
import { currentOption } from '../training/analyze';
import { offeredTargets, smallestChangeThatFits, type OfferKind } from './offers';
import { isFitDiagnostic } from './fitDiagnostic';
import { applyStageSwitch } from './stageSwitch';
import { setTrainingContextCommandFor } from './setContextCommand';
import { minimalEdit } from '../util/jsonEdits';

/** One offered move, before it becomes a CodeAction. */
interface Offer {
  target: ZeroOption;
  title: string;
}

/** The edit that moves the document to `target`, or null when it already is there (or cannot be edited safely). */
export function stageSwitchEdit(document: TextDocument, config: ParsedConfig, target: ZeroOption): { edit: WorkspaceEdit; dropped: string[] } | null {
  // Never rewrite a file jsonc-parser could not read completely: the edit could land in the wrong place.
  if (!config.root || config.syntaxErrors.length > 0 || config.limits.length > 0) return null;
  const switched = applyStageSwitch(config.text, config.value, target);
  if (!switched || switched.text === config.text) return null;
  return { edit: { changes: { [document.uri]: [minimalEdit(document, config.text, switched.text)] } }, dropped: switched.dropped };
}

/** The stage and offload quick fixes for a config, with estimates in their titles when known. */
export function stageCodeActions(
  document: TextDocument,
  config: ParsedConfig,
  analysis: ConfigAnalysis | undefined,
  diagnostics: Diagnostic[],
): CodeAction[] {
  const current = analysis?.current ?? currentOption(config.value);
  const numbers = analysis && hasNumbers(analysis) ? analysis : undefined;
  const estimateText = (target: ZeroOption): string => {
    const result = numbers?.estimate(target);
    return result ? `≈ ${formatGiB(result.perGpu.total)}/GPU` : '';
  };
  const offers: Offer[] = offeredTargets(current).map(({ kind, target }) => ({ target, title: offerTitle(kind, target, estimateText(target)) }));

  const fit = diagnostics.filter(isFitDiagnostic);
  const suggestion = numbers ? smallestChangeThatFits(numbers) : (fit[0]?.data.suggestion ?? undefined);
  // The smallest fitting change may combine a stage switch with offload: offer it as one move.
  if (suggestion && !offers.some((o) => sameOption(o.target, suggestion))) {
    const estimate = estimateText(suggestion);
    offers.push({ target: suggestion, title: `Switch to ${optionLabel(suggestion)}${estimate ? ` (${estimate})` : ''}` });
  }
  const preferred = preferredTarget(offers, numbers, suggestion);
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

function offerTitle(kind: OfferKind, target: ZeroOption, estimate: string): string {
  switch (kind) {
    case 'switch':
      return `Switch to ZeRO-${target.stage}${estimate ? ` (${estimate})` : ''}`;
    case 'offload-optimizer':
      return `Offload optimizer states to CPU${estimate ? ` (${estimate})` : ''}`;
    case 'offload-param':
      return `Offload parameters to CPU (ZeRO-3${estimate ? `, ${estimate}` : ''})`;
  }
}

/**
 * The preferred fix. When the current option does not fit: the smallest change that fits. When it fits: a
 * *lower* stage that also fits (lower stages are faster), never a higher one.
 */
function preferredTarget(offers: Offer[], analysis: ConfigAnalysis | undefined, suggestion: ZeroOption | undefined): ZeroOption | undefined {
  const currentFits = analysis?.estimate(analysis.current)?.fits;
  if (analysis && currentFits === true) {
    const lower = offers.filter((o) => o.target.stage < analysis.current.stage && o.title.startsWith('Switch to ZeRO-'));
    return lower.sort((a, b) => a.target.stage - b.target.stage).find((o) => analysis.estimate(o.target)?.fits === true)?.target;
  }
  return suggestion;
}
