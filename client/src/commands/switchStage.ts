/**
 * "ZeRO Lens: Switch ZeRO stage…": a quick pick of every option with its per-GPU estimate, applied
 * through the server's edit (the same as the quick fix). Takes an optional document URI so inline
 * hints and code lenses can pass theirs.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { EstimateStore } from '../sidebar/estimateStore';
import { buildViewModel, type BarVM } from '../sidebar/viewModel';
import { applyOption } from '../actions/applyOption';

interface OptionPick extends vscode.QuickPickItem {
  bar: BarVM;
}

export async function switchStage(client: LanguageClient, store: EstimateStore, target?: unknown): Promise<void> {
  const active = vscode.window.activeTextEditor?.document;
  const uri = targetUri(target) ?? (active && store.isCandidate(active) ? active.uri : store.uri);
  if (!uri) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a DeepSpeed config or launch script to switch its ZeRO stage.'));
    return;
  }
  const vm = buildViewModel(await store.estimateFor(uri), vscode.l10n.t);
  if (vm.status !== 'ready' || vm.bars.length === 0) {
    void vscode.window.showWarningMessage(`ZeRO Lens: ${vm.message || vscode.l10n.t('no estimate for this file.')}`);
    return;
  }
  // Under FSDP or Megatron the run as written is not a ZeRO option: no stage edit applies to it.
  const running = vm.alternatives.find((row) => row.current);
  if (running) {
    const compare = vscode.l10n.t('Compare in the sidebar');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('This run uses {0}, not a ZeRO stage, so there is no stage to switch. The sidebar compares it with the ZeRO options.', running.label),
      compare,
    );
    if (choice === compare) await vscode.commands.executeCommand('zeroLens.showSidebar');
    return;
  }
  const items: OptionPick[] = vm.bars.map((bar) => ({
    bar,
    label: `${bar.current ? '$(check) ' : ''}${bar.label}`,
    description: bar.summary,
    detail: bar.current ? vscode.l10n.t('current · {0}', bar.offload.label) : bar.offload.label,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switch ZeRO stage'),
    placeHolder: vscode.l10n.t('{0}: per-GPU estimate for each option', vm.fileName ?? ''),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked || picked.bar.current) return;
  const outcome = await applyOption(client, uri, picked.bar.option);
  if (!outcome.applied) void vscode.window.showWarningMessage(`ZeRO Lens: ${outcome.reason}`);
}

function targetUri(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  if (typeof target === 'string') {
    try {
      return vscode.Uri.parse(target, true);
    } catch {
      return undefined;
    }
  }
  if (target && typeof target === 'object' && typeof (target as { uri?: unknown }).uri === 'string') return targetUri((target as { uri: string }).uri);
  return undefined;
}
