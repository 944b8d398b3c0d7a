import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionKind, type CodeAction, type CodeActionContext, type Range } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { Node } from 'jsonc-parser';
import type { Diagnostic, TextEdit } from 'vscode-languageserver-types';
import { minimalEdit } from '../../util/jsonEdits';
import { fixEdits } from '../../diagnostics/applyFix';
import { readDiagnosticData } from '../../diagnostics/readDiagnosticData';
import { dataFixActions, placeholderOf } from '../../diagnostics/fixActions';
import { fixAllText } from './fixAll';
import type { WorldSize } from '../validation/worldSize';
import { isOwnDiagnostic } from './ownDiagnostics';
import type { ConfigParses } from '../parse';
import { unlimited, type Budget } from '../../util/budget';
import { translator } from '../../l10n';

export const fixAllKind = 'source.fixAll.zeroLens';

/** Whether the client asked for `kind` (an `only` entry matches its own kind and every sub-kind). */
function wants(context: CodeActionContext, kind: string, whenUnspecified: boolean): boolean {
  if (!context.only || context.only.length === 0) return whenUnspecified;
  return context.only.some((requested) => requested === '' || kind === requested || kind.startsWith(requested + '.'));
}

/**
 * Quick fixes built only from each diagnostic's data (stateless), plus `source.fixAll.zeroLens`.
 * Every edit is computed with jsonc-parser on the current text, so comments and formatting survive.
 */
export async function codeActions(
  document: TextDocument,
  _range: Range,
  context: CodeActionContext,
  settings: ZeroLensSettings,
  budget: Budget = unlimited,
  parses?: ConfigParses,
  snippetEdits = false,
  /** The run's world size as the diagnostics had it (the training context's); else "Fix all" takes the settings'. */
  worldOf?: () => Promise<WorldSize | undefined>,
): Promise<CodeAction[]> {
  const text = document.getText();
  const actions: CodeAction[] = [];
  if (wants(context, CodeActionKind.QuickFix, true)) {
    // The document's own parse (cached for this version): a fix re-parses only the object it edits.
    const tree = parses?.parse(document).root;
    for (const diagnostic of context.diagnostics.filter(isOwnDiagnostic)) {
      await budget.checkpoint();
      actions.push(...dataFixActions(document, [diagnostic], tree, snippetEdits));
    }
  }
  if (wants(context, fixAllKind, false)) {
    // A large file is fixed in one pass from the diagnostics the editor holds (each carries its fixes):
    // re-validating it after every fix would take seconds per fix.
    const edits =
      text.length >= fixAllInOnePassFrom
        ? fixAllFromDiagnostics(document, context.diagnostics.filter(isOwnDiagnostic), parses?.parse(document).root)
        : await fixAllEdits(document, settings, budget, await worldOf?.());
    const t = translator(settings.locale);
    if (edits.length > 0) actions.push({ title: t('Fix all auto-fixable ZeRO Lens problems'), kind: fixAllKind, edit: { changes: { [document.uri]: edits } } });
  }
  return actions;
}

/** From this size "Fix all" applies the editor's diagnostics' preferred fixes in one pass. */
const fixAllInOnePassFrom = 256 * 1024;

async function fixAllEdits(document: TextDocument, settings: ZeroLensSettings, budget: Budget, world: WorldSize | undefined): Promise<TextEdit[]> {
  const text = document.getText();
  const after = await fixAllText(document, settings, budget, world);
  return after === text ? [] : [minimalEdit(document, text, after)];
}

/**
 * The preferred fix of each diagnostic made on this version, as edits of the document; a fix whose edits
 * overlap one already taken waits for the next "Fix all". Each fix edits only the object it names.
 */
function fixAllFromDiagnostics(document: TextDocument, diagnostics: Diagnostic[], tree: Node | undefined): TextEdit[] {
  const taken: { start: number; end: number; edit: TextEdit }[] = [];
  for (const diagnostic of diagnostics) {
    const data = readDiagnosticData(diagnostic.data);
    const preferred = data?.fixes.find((f) => f.preferred);
    if (!data || !preferred || data.version !== document.version || placeholderOf(preferred) !== undefined) continue;
    const edits = fixEdits(document, preferred, data, tree);
    if (!edits) continue;
    const spans = edits.map((edit) => ({ start: document.offsetAt(edit.range.start), end: document.offsetAt(edit.range.end), edit }));
    const overlaps = spans.some((s) => taken.some((t) => s.start <= t.end && t.start <= s.end));
    if (!overlaps) taken.push(...spans);
  }
  return taken.sort((a, b) => a.start - b.start).map((t) => t.edit);
}
