import { CodeActionKind, type CodeAction, type CodeActionContext, type Diagnostic } from 'vscode-languageserver-types';
import type { LaunchDiagnosticData, LaunchFix } from '../diagnostics/codes';

function actionOf(uri: string, fix: LaunchFix, diagnostic?: Diagnostic): CodeAction {
  return {
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: diagnostic ? [diagnostic] : undefined,
    isPreferred: fix.preferred || undefined,
    edit: { changes: { [uri]: fix.edits } },
  };
}

/** The quick fixes our diagnostics carry in their data (stateless: everything is in the diagnostic). */
export function launchCodeActions(uri: string, context: CodeActionContext): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of context.diagnostics) {
    if (diagnostic.source !== 'zero-lens') continue;
    const fixes = (diagnostic.data as LaunchDiagnosticData | undefined)?.fixes;
    if (!Array.isArray(fixes)) continue;
    for (const fix of fixes) actions.push(actionOf(uri, fix, diagnostic));
  }
  return actions;
}
