import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionKind, type CodeAction, type CodeActionContext, type Range } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import { minimalEdit } from '../../util/jsonEdits';
import { dataFixActions } from '../../diagnostics/fixActions';
import { fixAllText } from './fixAll';
import { isOwnDiagnostic } from './ownDiagnostics';
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
export async function codeActions(document: TextDocument, _range: Range, context: CodeActionContext, settings: ZeroLensSettings): Promise<CodeAction[]> {
  const text = document.getText();
  const actions = wants(context, CodeActionKind.QuickFix, true) ? dataFixActions(document, context.diagnostics.filter(isOwnDiagnostic)) : [];
  if (wants(context, fixAllKind, false)) {
    const after = fixAllText(document, settings);
    if (after !== text) {
      const t = translator(settings.locale);
      actions.push({ title: t('Fix all auto-fixable ZeRO Lens problems'), kind: fixAllKind, edit: { changes: { [document.uri]: [minimalEdit(document, text, after)] } } });
    }
  }
  return actions;
}
