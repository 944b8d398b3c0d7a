/**
 * Follows the active DeepSpeed document and keeps its EstimateView from the server, shared by the
 * sidebar and the language status item so both show the same numbers from one request.
 */
import { sendServerRequest } from '../serverRequests';
import * as vscode from 'vscode';
import { ErrorCodes, ResponseError, type LanguageClient } from 'vscode-languageclient/node';
import { EstimatesChangedNotification, EstimateViewRequest, type DocumentParams, type EstimatesChangedParams } from '../../../server/src/protocol';
import type { EstimateState } from './viewModel';

/** Typing pauses shorter than this do not ask the server again. */
const DEBOUNCE_MS = 300;

export class EstimateStore implements vscode.Disposable {
  private state: EstimateState = { kind: 'no-document' };
  private document: vscode.Uri | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Answers to older requests are dropped: only the latest one may update the state. */
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<EstimateState>();
  private readonly subscriptions: vscode.Disposable[] = [this.changed];
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly client: LanguageClient,
    private readonly selector: vscode.DocumentSelector,
  ) {
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => this.follow(editor)),
      // A launch script edit changes the context of the config it references, so any candidate edit refreshes.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length && this.isCandidate(event.document)) this.schedule(DEBOUNCE_MS);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('zeroLens')) this.schedule(DEBOUNCE_MS);
      }),
      // A file it read changed on disk (git checkout, another editor), or the workspace folders or trust did. The
      // server names documents as the client sent them: Uri.toString() (vscode-languageclient 10.1.2
      // lib/common/codeConverter.js L67-70, nullConverter without uriConverters).
      client.onNotification(EstimatesChangedNotification.method, ({ uris }: EstimatesChangedParams) => {
        if (this.document && uris.includes(this.document.toString())) this.schedule(DEBOUNCE_MS);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.document && document.uri.toString() === this.document.toString()) this.follow(vscode.window.activeTextEditor);
      }),
    );
    this.follow(vscode.window.activeTextEditor);
  }

  get current(): EstimateState {
    return this.state;
  }

  get uri(): vscode.Uri | undefined {
    return this.document;
  }

  /** Asks the server again now (after a settings write, or from the refresh button). */
  refresh(): Promise<void> {
    return this.fetch();
  }

  /** A fresh answer for any document (the stage quick pick may run on a document the sidebar does not follow). */
  async estimateFor(uri: vscode.Uri): Promise<EstimateState> {
    return this.request(uri.toString());
  }

  /** A document the server may claim (by language); the server decides by name and content. */
  isCandidate(document: vscode.TextDocument): boolean {
    return vscode.languages.match(this.selector, document) > 0;
  }

  /** Non-DeepSpeed editors (a Python file, the output panel) keep the last document on screen. */
  private follow(editor: vscode.TextEditor | undefined): void {
    if (editor && this.isCandidate(editor.document)) {
      if (this.document?.toString() === editor.document.uri.toString() && this.state.kind !== 'no-document') return;
      this.document = editor.document.uri;
      this.setState({ kind: 'loading', uri: this.document.toString() });
      this.schedule(0);
    } else if (this.document && !vscode.workspace.textDocuments.some((d) => d.uri.toString() === this.document?.toString())) {
      this.document = undefined;
      this.setState({ kind: 'no-document' });
    }
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fetch(), delay);
  }

  private async fetch(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.document) return this.setState({ kind: 'no-document' });
    const generation = ++this.generation;
    const state = await this.request(this.document.toString());
    if (generation === this.generation) this.setState(state);
  }

  private async request(uri: string): Promise<EstimateState> {
    if (!this.client.isRunning()) return { kind: 'unavailable', uri, reason: vscode.l10n.t('the ZeRO Lens language server is not running.') };
    try {
      const params: DocumentParams = { uri };
      const view = await sendServerRequest(this.client, EstimateViewRequest, params);
      return view ? { kind: 'ready', view } : { kind: 'not-claimed', uri };
    } catch (error) {
      return { kind: 'unavailable', uri, reason: describeError(error) };
    }
  }

  private setState(state: EstimateState): void {
    this.state = state;
    this.changed.fire(state);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

function describeError(error: unknown): string {
  if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) {
    return vscode.l10n.t('the language server does not answer estimate requests in this version.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return vscode.l10n.t('the language server could not estimate this file ({0}).', message);
}
