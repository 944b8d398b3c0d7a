/**
 * Moves a document to a ZeRO option: the server computes the edit (the same one as the quick fix),
 * the client applies it as an ordinary, undoable workspace edit.
 */
import { sendServerRequest } from '../serverRequests';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ApplyOptionRequest, type ApplyOptionParams, type ApplyOptionResult, type ZeroOption } from '../../../server/src/protocol';

export type ApplyOutcome = { applied: true } | { applied: false; reason: string };

export async function applyOption(client: LanguageClient, uri: vscode.Uri, option: ZeroOption): Promise<ApplyOutcome> {
  const params: ApplyOptionParams = { uri: uri.toString(), ...option };
  let result: ApplyOptionResult | null;
  try {
    result = await sendServerRequest(client, ApplyOptionRequest, params);
  } catch (error) {
    return { applied: false, reason: vscode.l10n.t('The language server could not prepare the edit ({0}).', error instanceof Error ? error.message : String(error)) };
  }
  if (!result?.edit) return { applied: false, reason: result?.reason ?? vscode.l10n.t('The language server has no edit for this option.') };
  const edit = await client.protocol2CodeConverter.asWorkspaceEdit(result.edit);
  const applied = await vscode.workspace.applyEdit(edit);
  return applied ? { applied: true } : { applied: false, reason: vscode.l10n.t('VS Code did not apply the edit (the file may have changed meanwhile).') };
}
