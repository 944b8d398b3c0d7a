import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import type { DeepSpeedReference } from '../facts';
import { visibleDevices } from '../launchers/devices';
import { LLAMA_FACTORY } from '../../diagnostics/upstream';
import { launchDiagnostic } from './launchDiagnostic';
import { envEnabled } from './llamaFactoryOptions';
import type { Translate } from '../../l10n';

/**
 * `llamafactory-cli train` starts torchrun only with FORCE_TORCHRUN (USE_MCA and USE_MEGATRON_BRIDGE set it) or more
 * than one device (hiyouga/LLaMA-Factory@ff6d4d12 src/llamafactory/launcher.py:57-62; USE_RAY trains through Ray).
 * With one visible device it trains in its own process, where get_train_args refuses DeepSpeed (hparams/parser.py:471-472).
 */
export function llamaFactorySingleProcess(ctx: SourceContext, env: CommandEnvironment, ds: DeepSpeedReference, t: Translate): Diagnostic[] {
  const devices = visibleDevices(env);
  if (devices?.ids.length !== 1 || ['FORCE_TORCHRUN', 'USE_MCA', 'USE_MEGATRON_BRIDGE', 'USE_RAY'].some((name) => envEnabled(env, name))) return [];
  const { start, end } = devices.binding.assignment;
  // l10n-ignore: LLaMA-Factory's own error text
  const says = 'Please use `FORCE_TORCHRUN=1` to launch DeepSpeed training.';
  const message = t('{0} leaves one device visible, so {1} trains without torchrun, in one process, and LLaMA-Factory refuses DeepSpeed ({2}) there ("{3}", {4}). Set {5}.', devices.name, 'llamafactory-cli train', ds.text, says, 'hparams/parser.py:471-472', 'FORCE_TORCHRUN=1');
  return [launchDiagnostic(ctx, 'llamafactory-deepspeed-incompatible', start, end, message, {}, { raises: `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L471-472` })];
}
