/**
 * Registers the editor-only UI on top of a running LanguageClient: the estimate store, the
 * sidebar view, the language status item and the sidebar's commands.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { switchStage } from './commands/switchStage';
import { setTrainingContext } from './commands/setTrainingContext';
import { EstimateStatusItem } from './languageStatus';
import { EstimateStore } from './sidebar/estimateStore';
import { SIDEBAR_VIEW_ID, SidebarProvider } from './sidebar/sidebarProvider';

export function registerSidebar(context: vscode.ExtensionContext, client: LanguageClient, selector: vscode.DocumentSelector): void {
  const store = new EstimateStore(client, selector);
  const provider = new SidebarProvider(context.extensionUri, client, store, client.outputChannel);
  context.subscriptions.push(
    store,
    provider,
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, provider),
    new EstimateStatusItem(store),
    vscode.commands.registerCommand('zeroLens.showSidebar', async () => {
      // Open the container, then focus the view in it (the container may never have been shown in this window).
      await vscode.commands.executeCommand('workbench.view.extension.zeroLens');
      await vscode.commands.executeCommand(`${SIDEBAR_VIEW_ID}.focus`);
    }),
    vscode.commands.registerCommand('zeroLens.refreshSidebar', () => store.refresh()),
    vscode.commands.registerCommand('zeroLens.switchStage', (target?: unknown) => switchStage(client, store, target)),
    vscode.commands.registerCommand('zeroLens.setTrainingContext', (arg?: unknown) => setTrainingContext(client, arg)),
  );
}
