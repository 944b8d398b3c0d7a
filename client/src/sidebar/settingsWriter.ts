/**
 * Writes the sidebar's inputs to settings, where the inline hints read them too, and tells the
 * server to re-read them at once.
 */
import { sendServerNotification } from '../serverRequests';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ConfigurationChangedNotification } from '../../../server/src/protocol';
import { SETTING_KEYS, type SettingKey, type SettingValue } from './messages';

/** Where the value was written, for the sidebar's confirmation line. */
export type WriteTarget = 'workspace' | 'workspace folder' | 'user';

export async function writeSetting(client: LanguageClient, scope: vscode.Uri | undefined, key: SettingKey, value: SettingValue | null): Promise<WriteTarget> {
  const config = vscode.workspace.getConfiguration('zeroLens', scope);
  const inspected = config.inspect(key);
  // In a multi-root workspace a folder-level value would hide a workspace-level write, so write where it wins.
  let target: vscode.ConfigurationTarget;
  let where: WriteTarget;
  const multiRoot = vscode.workspace.workspaceFile !== undefined;
  if (multiRoot && inspected?.workspaceFolderValue !== undefined && scope && vscode.workspace.getWorkspaceFolder(scope)) {
    target = vscode.ConfigurationTarget.WorkspaceFolder;
    where = 'workspace folder'; // l10n-ignore: a WriteTarget, worded by the sidebar
  } else if (vscode.workspace.workspaceFolders?.length) {
    target = vscode.ConfigurationTarget.Workspace;
    where = 'workspace';
  } else {
    // No folder open: there are no workspace settings to write, so the user's settings are the only place.
    target = vscode.ConfigurationTarget.Global;
    where = 'user';
  }
  await config.update(key, value ?? undefined, target);
  if (client.isRunning()) await sendServerNotification(client, ConfigurationChangedNotification);
  return where;
}

/** The zeroLens.* values someone set for a document, for inputs shown without a server answer. */
export function readSettings(scope: vscode.Uri | undefined): Partial<Record<SettingKey, SettingValue>> {
  const config = vscode.workspace.getConfiguration('zeroLens', scope);
  const values: Partial<Record<SettingKey, SettingValue>> = {};
  for (const key of SETTING_KEYS) {
    // Not `get`: for an unset setting without a default it returns the type's zero (0, false, ''), which would
    // show as a value the user never chose. Only what someone actually set counts.
    const inspected = config.inspect<unknown>(key);
    const value = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') values[key] = value;
  }
  return values;
}
