import { CodeActionKind, type CodeAction, type Diagnostic, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ParsedConfig } from '../dsconfig/parse';
import { english, formatGiB, joinList, normalizeOption, optionLabel, sameOption, type Translate, type ZeroOption } from '../protocol';
import { extractConfigFacts } from '../memory/configFacts';
import { hasNumbers, type ConfigAnalysis } from '../training/analysis';
import { currentOption } from '../training/analyze';
import { offeredTargets, smallestChangeThatFits, type OfferKind } from './offers';
import { isFitDiagnostic } from './fitDiagnostic';
import { stageSwitchOps, type SwitchScope } from './stageSwitch';
import { applyJsonOpsScoped } from '../diagnostics/applyFix';
import { setTrainingContextCommandFor } from './setContextCommand';
import { switchTitle } from './present';
import { originOf, type FixSpec } from '../diagnostics/fixData';
import { quickFixActions } from '../diagnostics/fixActions';

/** The fix kind of each offered move; the smallest change that fits may combine a stage with offload. */
type StageFixKind = 'switch-stage' | 'offload-optimizer' | 'offload-param' | 'switch-option';

const fixKindOf: Record<OfferKind, StageFixKind> = { switch: 'switch-stage', 'offload-optimizer': 'offload-optimizer', 'offload-param': 'offload-param' };

/** One offered move, before it becomes a fix. */
interface Offer {
  kind: StageFixKind;
  target: ZeroOption;
  title: string;
}

/** Never rewrite a file jsonc-parser could not read completely: the edit could land in the wrong place. */
function editable(config: ParsedConfig): boolean {
  return !!config.root && config.syntaxErrors.length === 0 && config.limits.length === 0;
}

/** The edit that moves the document to `target`, or null when it already is there (or cannot be edited safely). */
export function stageSwitchEdit(document: TextDocument, config: ParsedConfig, target: ZeroOption): { edit: WorkspaceEdit; dropped: string[] } | null {
  if (!editable(config)) return null;
  const { ops, dropped } = stageSwitchOps(config.value, target, 'option');
  const span = ops.length ? applyJsonOpsScoped(config.text, ops, config.root) : undefined;
  if (!span || config.text.slice(span.start, span.end) === span.newText) return null;
  const range = { start: document.positionAt(span.start), end: document.positionAt(span.end) };
  return { edit: { changes: { [document.uri]: [{ range, newText: span.newText }] } }, dropped };
}

/** The stage and offload quick fixes for a config, with estimates in their titles when known. */
export function stageCodeActions(
  document: TextDocument,
  config: ParsedConfig,
  analysis: ConfigAnalysis | undefined,
  diagnostics: Diagnostic[],
  t: Translate = english,
): CodeAction[] {
  const current = analysis?.current ?? currentOption(config.value);
  const numbers = analysis && hasNumbers(analysis) ? analysis : undefined;
  const estimateText = (target: ZeroOption): string => {
    const result = numbers?.estimate(target);
    return result ? t('≈ {0}/GPU', formatGiB(result.perGpu.total)) : '';
  };
  // A stage switch keeps the offload the file writes, so its target is the new stage with those devices.
  const facts = extractConfigFacts(config.value);
  const kept = (stage: ZeroOption['stage']): ZeroOption =>
    normalizeOption({ stage, offloadOptimizer: facts.offloadOptimizer?.value ?? 'none', offloadParam: facts.offloadParam?.value ?? 'none' });
  const offers: Offer[] = offeredTargets(current).map(({ kind, target }) => {
    const moved = kind === 'switch' ? kept(target.stage) : target;
    return { kind: fixKindOf[kind], target: moved, title: offerTitle(kind, moved, estimateText(moved), t) };
  });

  const fit = diagnostics.filter(isFitDiagnostic);
  const suggestion = numbers ? smallestChangeThatFits(numbers) : (fit[0]?.data.suggestion ?? undefined);
  // The smallest fitting change may combine a stage switch with offload: offer it as one move.
  if (suggestion && !offers.some((o) => sameOption(o.target, suggestion))) {
    const estimate = estimateText(suggestion);
    offers.push({ kind: 'switch-option', target: suggestion, title: switchTitle(optionLabel(suggestion, t), estimate, t) });
  }
  const preferred = preferredTarget(offers, numbers, suggestion);
  const fixes = editable(config) ? offers.map((offer) => stageFix(config, offer, !!preferred && sameOption(preferred, offer.target), t)) : [];
  // The document's own parse: each fix re-parses only the object it edits, not the whole file.
  const actions = quickFixActions(document, { origin: originOf(document), fixes, diagnostics: fit, tree: config.root });
  if (analysis && !hasNumbers(analysis) && (analysis.missing.includes('model') || analysis.missing.includes('gpusPerNode') || analysis.modelProblem)) {
    const command = setTrainingContextCommandFor(document.uri, analysis.missing, t);
    actions.push({ title: command.title, kind: CodeActionKind.QuickFix, command });
  }
  return actions;
}

/** An offer as a fix: the JSON ops of the move, and in the title every ZeRO-3-only setting it removes, by name. */
function stageFix(config: ParsedConfig, offer: Offer, preferred: boolean, t: Translate): FixSpec {
  const scope: SwitchScope = offer.kind === 'switch-stage' ? 'stage' : 'option';
  const { ops, dropped } = stageSwitchOps(config.value, offer.target, scope);
  // What the move turns off that the file turns on: said in the title, so no offload choice goes unnamed.
  const turnsOff = (block: string, legacy: string): boolean =>
    ops.some((op) => op.op === 'set' && ((op.path[1] === block && op.path[2] === 'device' && op.value === 'none') || (op.path[1] === legacy && op.value === false)));
  const off = [
    ...(turnsOff('offload_optimizer', 'cpu_offload') ? [t('optimizer offload off')] : []),
    ...(turnsOff('offload_param', 'cpu_offload_param') ? [t('parameter offload off')] : []),
  ];
  const removing = dropped.length ? [t('removing {0} (read only by ZeRO-3)', joinList(t, dropped.map((d) => d.split('.').pop() ?? d)))] : [];
  const title = [offer.title, ...off, ...removing].join(t({ message: ', ', comment: 'between the parts of a quick-fix title' }));
  return preferred ? { id: offer.kind, title, ops, preferred } : { id: offer.kind, title, ops };
}

function offerTitle(kind: OfferKind, target: ZeroOption, estimate: string, t: Translate): string {
  switch (kind) {
    case 'switch':
      return switchTitle(`ZeRO-${target.stage}`, estimate, t);
    case 'offload-optimizer':
      return estimate ? t('Offload optimizer states to CPU ({0})', estimate) : t('Offload optimizer states to CPU');
    case 'offload-param':
      return estimate ? t('Offload parameters to CPU (ZeRO-3, {0})', estimate) : t('Offload parameters to CPU (ZeRO-3)');
  }
}

/**
 * The preferred fix. When the current option does not fit: the smallest change that fits. When it fits: a
 * *lower* stage that also fits (lower stages are faster), never a higher one.
 */
function preferredTarget(offers: Offer[], analysis: ConfigAnalysis | undefined, suggestion: ZeroOption | undefined): ZeroOption | undefined {
  const currentFits = analysis?.estimate(analysis.current)?.fits;
  if (analysis && currentFits === true) {
    const lower = offers.filter((o) => o.kind === 'switch-stage' && o.target.stage < analysis.current.stage);
    return lower.sort((a, b) => a.target.stage - b.target.stage).find((o) => analysis.estimate(o.target)?.fits === true)?.target;
  }
  return suggestion;
}
