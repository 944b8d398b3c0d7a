/**
 * The thin client: starts the language server and registers the editor-only pieces
 * (commands, the sidebar, the language status item). No domain logic lives here.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { registerSidebar } from './register';
import { releasePinGlob, WorkspaceTrustNotification } from '../../server/src/protocol';
import { sendServerNotification } from './serverRequests';

let client: LanguageClient | undefined;

/** Documents the server answers for. JSON files are claimed by name or content on the server side. */
export const documentSelector = [
  { scheme: 'file', language: 'ds-config' },
  { scheme: 'file', language: 'json' },
  { scheme: 'file', language: 'jsonc' },
  { scheme: 'file', language: 'shellscript' },
  { scheme: 'file', language: 'yaml' },
  { scheme: 'untitled', language: 'ds-config' },
];

/**
 * Files the DeepSpeed release is read from (requirements.txt, pyproject.toml, lock files): handed to the server too,
 * so an unsaved pin changes the checks of the configs under it, as an unsaved launch script changes their estimates.
 * Not in `documentSelector`: the sidebar and language status do not follow them. The pattern is matched on the
 * document's absolute path (@types/vscode 1.91.0 index.d.ts L2335, DocumentFilter.pattern).
 */
const releasePinDocuments = [{ scheme: 'file', pattern: releasePinGlob() }];

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  // The server's V8 code cache (server/src/boot/codeCache.ts) for the editor's own Node, kept with the extension.
  const env = { ZERO_LENS_CACHE_DIR: path.join(context.globalStorageUri.fsPath, 'code-cache') };
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { env } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [...documentSelector, ...releasePinDocuments],
    // Hovers and hints link to these commands (e.g. "Set model and GPUs…"); no other command runs from markdown.
    // HTML for <details>: a preset's JSON stays folded under the estimate instead of pushing it out of the hover
    // (VS Code keeps only the tags its sanitizer allows; the server escapes every text it did not write).
    markdown: { isTrusted: { enabledCommands: ['zeroLens.setTrainingContext', 'zeroLens.switchStage', 'zeroLens.showSidebar'] }, supportHtml: true },
    // The server registers the files it watches (workspace/didChangeWatchedFiles), as it does with every editor.
    // Restricted mode: the server reads no model folder, no cache and nothing outside the workspace until trusted.
    // editorChecksJson: VS Code's JSON server checks json/jsonc documents' syntax, comments and duplicate keys, so
    // the server does not report them twice there (other editors get them from ZeRO Lens). estimatesChanged: the
    // server names the open documents whose estimate a change on disk may have changed (the sidebar follows one).
    initializationOptions: { trusted: vscode.workspace.isTrusted, editorChecksJson: true, estimatesChanged: true },
  };
  client = new LanguageClient('zeroLens', 'ZeRO Lens', serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (client?.isRunning()) void sendServerNotification(client, WorkspaceTrustNotification, { trusted: true });
    }),
  );
  context.subscriptions.push({ dispose: () => void client?.stop() });
  registerSidebar(context, client, documentSelector);
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
