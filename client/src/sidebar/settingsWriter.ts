/**
 * Writes the sidebar's inputs to settings, where the inline hints read them too, and tells the
 * server to re-read them at once.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ConfigurationChangedNotification, SettingsEditRequest } from '../../../server/src/protocol';
import { sendServerNotification, sendServerRequest } from '../serverRequests';
import { SETTING_KEYS, type SettingKey, type SettingValue } from './messages';
import { decodeSettingsFile, encodeSettingsFile } from './settingsFile';

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
  // One folder's .vscode/settings.json is edited like a config, through the server's comment-preserving JSONC
  // edits: VS Code's own update drops comment lines next to a key it removes.
  const written = !multiRoot && target === vscode.ConfigurationTarget.Workspace && client.isRunning() && (await writeFolderSettings(client, scope, key, value));
  if (!written) await config.update(key, value ?? undefined, target);
  if (client.isRunning()) await sendServerNotification(client, ConfigurationChangedNotification);
  return where;
}

/** Sets (or, with null, removes) `zeroLens.<key>` in the folder's .vscode/settings.json; false when it could not. */
async function writeFolderSettings(client: LanguageClient, scope: vscode.Uri | undefined, key: SettingKey, value: SettingValue | null): Promise<boolean> {
  const folder = (scope && vscode.workspace.getWorkspaceFolder(scope)) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') return false;
  const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
  // The text the user sees when the file is open (maybe unsaved), else the file on disk, else nothing yet.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
  let text = open?.getText();
  if (text === undefined) text = await vscode.workspace.fs.readFile(file).then(decodeSettingsFile, () => '');
  const { edit } = await sendServerRequest(client, SettingsEditRequest, { text, key: `zeroLens.${key}`, value });
  if (!edit) return value === null || text.includes(`"zeroLens.${key}"`);
  if (open) {
    const change = new vscode.WorkspaceEdit();
    change.replace(file, new vscode.Range(open.positionAt(edit.start), open.positionAt(edit.end)), edit.newText);
    return (await vscode.workspace.applyEdit(change)) && (await open.save());
  }
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder.uri, '.vscode'));
  await vscode.workspace.fs.writeFile(file, encodeSettingsFile(text, edit));
  return true;
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
