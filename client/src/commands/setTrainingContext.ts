/**
 * "ZeRO Lens: Set model and GPUs…": the one-click answer when an estimate has nothing to go on.
 * Asks only for what the server said is missing (or everything when called from the palette) and
 * writes workspace settings, where the hints, the sidebar and the status item all read them.
 */
import { sendServerRequest } from '../serverRequests';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { CatalogRequest, type CatalogEntry } from '../../../server/src/protocol';
import { GPU_PRESETS } from '../sidebar/messages';
import { formatCount } from '../../../server/src/protocol';
import { writeSetting } from '../sidebar/settingsWriter';

type Missing = 'model' | 'gpusPerNode' | 'gpuMemoryGiB';
const everything: Missing[] = ['model', 'gpusPerNode', 'gpuMemoryGiB'];

/** Arguments as the server's hint and code action send them: `{ uri, missing }`. */
export function parseArguments(arg: unknown): { uri?: vscode.Uri; missing: Missing[] } {
  const value = (arg && typeof arg === 'object' ? arg : {}) as { uri?: unknown; missing?: unknown };
  const uri = typeof value.uri === 'string' ? vscode.Uri.parse(value.uri) : undefined;
  const listed = Array.isArray(value.missing) ? value.missing.filter((m): m is Missing => everything.includes(m as Missing)) : [];
  return { uri, missing: listed.length ? listed : everything };
}

export async function setTrainingContext(client: LanguageClient, arg?: unknown): Promise<void> {
  const { uri, missing } = parseArguments(arg);
  const scope = uri ?? vscode.window.activeTextEditor?.document.uri;
  for (const what of missing) {
    const value = await ask(client, what);
    if (value === undefined) return; // Escape cancels the rest; what was already chosen stays saved.
    await writeSetting(client, scope, what, value);
  }
}

function ask(client: LanguageClient, what: Missing): Promise<string | number | undefined> {
  switch (what) {
    case 'model':
      return askModel(client);
    case 'gpusPerNode':
      return askNumber(vscode.l10n.t('GPUs per node'), vscode.l10n.t('How many GPUs (processes) per node?'), [1, 2, 4, 8, 16], true);
    case 'gpuMemoryGiB':
      return askGpuMemory();
  }
}

async function askModel(client: LanguageClient): Promise<string | undefined> {
  const catalog = await sendServerRequest(client, CatalogRequest).catch(() => [] as CatalogEntry[]);
  const folder = `$(folder) ${vscode.l10n.t('Local model folder…')}`;
  const other = `$(edit) ${vscode.l10n.t('Other hub id…')}`;
  const items: vscode.QuickPickItem[] = [
    { label: folder, alwaysShow: true },
    { label: other, alwaysShow: true },
    { label: vscode.l10n.t('Catalog'), kind: vscode.QuickPickItemKind.Separator },
    ...catalog.map((entry) => ({ label: entry.id, description: `${entry.displayName} · ${formatCount(entry.totalParams)}` })),
  ];
  const title = vscode.l10n.t('Model for memory estimates');
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Search the catalog (Hugging Face or ModelScope id)'), matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.label === folder) {
    const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: vscode.l10n.t('Use this model'), title: vscode.l10n.t('Choose a local model folder (with config.json)') });
    return chosen?.[0]?.fsPath;
  }
  if (picked.label === other) {
    return vscode.window.showInputBox({ title, prompt: vscode.l10n.t('A hub id such as Qwen/Qwen3-8B, or a folder path'), validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a model id or path')) });
  }
  return picked.label;
}

async function askNumber(title: string, placeHolder: string, choices: number[], integer: boolean): Promise<number | undefined> {
  const custom = `$(edit) ${vscode.l10n.t('Other…')}`;
  const picked = await vscode.window.showQuickPick([...choices.map(String), custom], { title, placeHolder });
  if (!picked) return undefined;
  if (picked !== custom) return Number(picked);
  const typed = await vscode.window.showInputBox({
    title,
    prompt: placeHolder,
    validateInput: (v) => (isValidNumber(v, integer) ? undefined : integer ? vscode.l10n.t('Enter a whole number ≥ 1') : vscode.l10n.t('Enter a number > 0')),
  });
  return typed === undefined ? undefined : Number(typed);
}

export function isValidNumber(text: string, integer: boolean): boolean {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(n) && (integer ? Number.isInteger(n) && n >= 1 : n > 0);
}

async function askGpuMemory(): Promise<number | undefined> {
  const custom = `$(edit) ${vscode.l10n.t('Other…')}`;
  const items = [...GPU_PRESETS.map((p) => ({ label: p.label, description: `${p.gib} GiB`, gib: p.gib })), { label: custom, description: '', gib: 0 }];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('GPU memory'), placeHolder: vscode.l10n.t('Which GPU does each process get?') });
  if (!picked) return undefined;
  if (picked.label !== custom) return picked.gib;
  return askNumber(vscode.l10n.t('GPU memory (GiB)'), vscode.l10n.t('Memory of one GPU in GiB'), [], false);
}
