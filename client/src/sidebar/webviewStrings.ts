/**
 * The webview's words in the reader's language: the extension translates them with `vscode.l10n.t` (passed as
 * `t`) and writes them into the page (html.ts), so the webview needs no catalog of its own. Pure.
 */
import { english, type Translate } from '../../../server/src/protocol';
import type { WebviewStrings } from './messages';
import { contextLabels } from './viewModel';

export function webviewStrings(t: Translate = english): WebviewStrings {
  return {
    picture: t('Per-GPU memory by ZeRO option'),
    numbers: t('Numbers'),
    trainingContext: t('Training context'),
    refresh: t('Refresh the estimate'),
    noFile: t('No DeepSpeed file'),
    useFolder: t('Use a local model folder'),
    folderButton: t('Folder…'),
    openSettings: t('Open ZeRO Lens settings'),
    allSettings: t('All settings'),
    loraPlaceholder: t('0 = full fine-tuning'),
    notSet: t('not set'),
    gpuPresets: t('GPU memory presets'),
    preset: t('Preset…'),
    recompute: t('Recompute activations in the backward pass'),
    notSetSearch: t('not set — search the catalog'),
    modelPlaceholder: t('Qwen/Qwen3-8B or a folder'),
    fromWorkspaceSettings: t('from workspace settings'),
    from: t('from {0}'),
    fromFileWins: t('from {0} — the file wins over the setting'),
    zeroOptions: t('ZeRO options'),
    alternatives: t('FSDP / model parallel'),
    alternativesNote: t('The same job under PyTorch FSDP (and the Megatron layout a launch runs), for comparison with the ZeRO options; the sidebar does not apply them.'),
    legend: t('Legend'),
    current: t({ message: 'Current', comment: 'button of the option the file uses' }),
    apply: t('Apply'),
    currentBadge: t({ message: 'current', comment: 'badge beside the option the file uses' }),
    tableLabel: t('Memory per option, in GiB'),
    tableCaption: t('Per-GPU memory of each option (GiB); CPU RAM is per node'),
    labels: contextLabels(t),
    errors: {
      notNumber: t('{0} must be a number'),
      notInteger: t('{0} must be a whole number'),
      range: t('{0} must be between {1} and {2}'),
      notBoolean: t('{0} must be true or false'),
      notAllowed: t('{0} must be one of {1}'),
      notText: t('{0} must be text'),
      controlCharacters: t('{0} contains control characters'),
      tooLong: t('{0} is longer than {1} characters'),
    },
  };
}
