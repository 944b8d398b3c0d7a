/** Small helpers over the `vscode` API for the electron suite: place files, open them, wait for results. */
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { positionOf } from '../../e2e/scenarios';

// The bundle lives in <repo>/.cache/electron-test; the suite works in the folder the editor has open.
const repoRoot = path.resolve(__dirname, '..', '..');

function workspace(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('The editor has no folder open: start it on a copy of examples/');
  return folder.uri.fsPath;
}

/** Same layout as the code-server suite: `<workspace>/e2e/<name>`. */
export async function openScenario(scenario: { source: string; name: string }): Promise<vscode.TextEditor> {
  const from = scenario.source.startsWith('fixture:')
    ? path.join(repoRoot, 'test', 'e2e', 'fixtures', scenario.source.slice('fixture:'.length))
    : path.join(repoRoot, 'examples', scenario.source);
  const target = path.join(workspace(), 'e2e', scenario.name);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(from, target);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(target));
  return vscode.window.showTextDocument(document);
}

/** 0-based position of a token's first character (plus `offset` characters). */
export function at(document: vscode.TextDocument, token: string, offset = 0, nth = 0): vscode.Position {
  const p = positionOf(document.getText(), token, nth);
  return new vscode.Position(p.line - 1, p.column - 1 + offset);
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function diagnosticsFor(document: vscode.TextDocument): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(document.uri);
}

export function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' && code !== null ? String(code.value) : String(code ?? '');
}

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : 'value' in content ? content.value : ''))
    .join('\n');
}

export async function codeActions(document: vscode.TextDocument, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    document.uri,
    range,
  );
  return (actions ?? []).filter((a): a is vscode.CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'));
}

export async function applyAction(action: vscode.CodeAction): Promise<void> {
  if (action.edit) await vscode.workspace.applyEdit(action.edit);
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}
