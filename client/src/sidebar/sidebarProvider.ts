/**
 * The "Memory" view in the ZeRO Lens activity-bar container. The webview sends intents (apply an
 * option, change a setting, pick a model folder); this side validates them and acts through the
 * language server and VS Code's settings. The document stays the single source of truth.
 */
import { sendServerRequest } from '../serverRequests';
import * as vscode from 'vscode';
import { ErrorCodes, ResponseError, type LanguageClient } from 'vscode-languageclient/node';
import { CatalogRequest, type CatalogEntry } from '../../../server/src/protocol';
import { applyOption } from '../actions/applyOption';
import { afterWebviewBlurIsSeen, focusBackUnlessUserMoved } from './webviewFocus';
import { stepDocumentHistory } from '../actions/stepDocumentHistory';
import type { EstimateStore } from './estimateStore';
import { buildSidebarHtml, createNonce } from './html';
import { parseWebviewMessage, type HostMessage, type WebviewMessage } from './messages';
import { readSettings, writeSetting, type WriteTarget } from './settingsWriter';
import { buildViewModel } from './viewModel';

export const SIDEBAR_VIEW_ID = 'zeroLens.sidebar';

/** "Saved zeroLens.model to workspace settings." */
function savedIn(where: WriteTarget, what: string): string {
  switch (where) {
    case 'workspace':
      return vscode.l10n.t('Saved {0} to workspace settings.', what);
    case 'workspace folder':
      return vscode.l10n.t('Saved {0} to workspace folder settings.', what);
    case 'user':
      return vscode.l10n.t('Saved {0} to user settings.', what);
  }
}

export class SidebarProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private catalog: CatalogEntry[] | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly client: LanguageClient,
    private readonly store: EstimateStore,
    private readonly log: vscode.OutputChannel | undefined = undefined,
  ) {
    this.subscriptions.push(store.onDidChange(() => this.postUpdate()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const webview = view.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    webview.html = buildSidebarHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.css')).toString(),
      lang: vscode.env.language,
      t: vscode.l10n.t,
    });
    const listener = webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = parseWebviewMessage(raw);
      if (!parsed.ok) {
        this.log?.appendLine(`ZeRO Lens sidebar: ignored a malformed message (${parsed.error}).`);
        return;
      }
      void this.handle(parsed.value).catch((error: unknown) => this.notice('error', error instanceof Error ? error.message : String(error)));
    });
    view.onDidDispose(() => {
      listener.dispose();
      if (this.view === view) this.view = undefined;
    });
  }

  private async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.postUpdate();
        void this.postCatalog();
        return;
      case 'refresh':
        return this.store.refresh();
      case 'apply': {
        const uri = this.store.uri;
        if (!uri) return this.notice('error', vscode.l10n.t('Open the DeepSpeed config or launch script to change first.'));
        const outcome = await applyOption(this.client, uri, message.option);
        if (!outcome.applied) return this.notice('error', outcome.reason);
        return this.notice('info', vscode.l10n.t('Applied. Ctrl+Z goes back, here or in the editor.'));
      }
      case 'undo':
      case 'redo': {
        const uri = this.store.uri;
        if (!uri) return this.notice('error', vscode.l10n.t('Open the DeepSpeed config or launch script first.'));
        await stepDocumentHistory(uri, message.type);
        // The step needs the editor focused; the keys were pressed here, so the focus comes back, once VS Code
        // has seen it leave (webviewFocus.ts), unless the user has gone on in an editor meanwhile.
        if (await afterWebviewBlurIsSeen()) await focusBackUnlessUserMoved(() => this.view?.show(false));
        return;
      }
      case 'setSetting': {
        const where = await writeSetting(this.client, this.store.uri, message.key, message.value);
        this.notice('info', savedIn(where, `zeroLens.${message.key}`));
        return this.store.refresh();
      }
      case 'pickModelFolder': {
        const folder = await vscode.window.showOpenDialog({
          canSelectFiles: false,
          canSelectFolders: true,
          canSelectMany: false,
          openLabel: vscode.l10n.t('Use this model'),
          title: vscode.l10n.t('Choose a local model folder (with config.json)'),
          defaultUri: this.store.uri ? vscode.workspace.getWorkspaceFolder(this.store.uri)?.uri : undefined,
        });
        if (!folder?.[0]) return;
        const where = await writeSetting(this.client, this.store.uri, 'model', folder[0].fsPath);
        this.notice('info', savedIn(where, vscode.l10n.t('the model folder')));
        return this.store.refresh();
      }
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'zeroLens');
        return;
    }
  }

  private postUpdate(): void {
    this.post({ type: 'update', vm: buildViewModel(this.store.current, vscode.l10n.t), settings: readSettings(this.store.uri) });
  }

  /** The catalog is asked once; a server without the request leaves the model field as free text. */
  private async postCatalog(): Promise<void> {
    if (!this.catalog) {
      try {
        this.catalog = this.client.isRunning() ? ((await sendServerRequest(this.client, CatalogRequest)) ?? []) : undefined;
      } catch (error) {
        if (!(error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound)) {
          this.log?.appendLine(`ZeRO Lens sidebar: catalog request failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        return;
      }
    }
    if (this.catalog) this.post({ type: 'catalog', entries: this.catalog });
  }

  private notice(level: 'info' | 'error', text: string): void {
    this.post({ type: 'notice', level, text });
  }

  private post(message: HostMessage): void {
    void this.view?.webview.postMessage(message);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
