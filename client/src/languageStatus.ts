/**
 * The language status item ("{}" in the status bar) for DeepSpeed documents: the current option's
 * per-GPU estimate and whether it fits. Clicking it reveals the sidebar.
 */
import * as vscode from 'vscode';
import type { EstimateStore } from './sidebar/estimateStore';
import { buildViewModel, statusSummary } from './sidebar/viewModel';

/** Documents the status item shows for: the ds-config language plus files the server has claimed. */
export class EstimateStatusItem implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;
  private readonly claimed = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: EstimateStore) {
    this.item = vscode.languages.createLanguageStatusItem('zeroLens.estimate', this.selector());
    this.item.name = vscode.l10n.t('ZeRO Lens memory estimate');
    this.item.command = { command: 'zeroLens.showSidebar', title: vscode.l10n.t('Show memory'), tooltip: vscode.l10n.t('Show the ZeRO Lens memory sidebar') };
    this.subscription = store.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    const state = this.store.current;
    this.item.busy = state.kind === 'loading';
    if (state.kind === 'loading') return;
    if (state.kind === 'ready' && state.view.uri) this.claim(state.view.uri);
    const summary = statusSummary(buildViewModel(state, vscode.l10n.t), vscode.l10n.t);
    if (!summary) {
      this.item.text = `$(info) ${vscode.l10n.t('ZeRO Lens: no estimate')}`;
      this.item.detail = state.kind === 'unavailable' ? state.reason : '';
      this.item.severity = vscode.LanguageStatusSeverity.Information;
      return;
    }
    this.item.text = summary.text;
    this.item.detail = summary.detail;
    this.item.severity = summary.warning ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  }

  /** JSON, YAML and shell files show the item only once the server has answered for them. */
  private claim(uri: string): void {
    if (this.claimed.has(uri)) return;
    this.claimed.add(uri);
    this.item.selector = this.selector();
  }

  private selector(): vscode.DocumentSelector {
    const filters: vscode.DocumentFilter[] = [{ language: 'ds-config' }];
    for (const uri of this.claimed) {
      const parsed = vscode.Uri.parse(uri);
      if (parsed.scheme === 'file') filters.push({ scheme: 'file', pattern: escapeGlob(parsed.fsPath) });
    }
    return filters;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** A literal path as a glob: wrap the glob metacharacters in brackets. */
export function escapeGlob(path: string): string {
  return path.replace(/\\/g, '/').replace(/[*?[\]{}!]/g, (c) => `[${c}]`);
}
