import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import { LLAMA_FACTORY } from '../../diagnostics/upstream';
import { launchDiagnostic } from './launchDiagnostic';
import { removal } from './llamaFactoryDeepSpeed';
import { writtenHere, type OptionLookup } from './llamaFactoryOptions';
import type { Translate } from '../../l10n';

const parserLines = (lines: string) => ({ raises: `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L${lines}` });

/**
 * LLaMA-Factory's refusals of `quantization_bit` (hiyouga/LLaMA-Factory@ff6d4d12 src/llamafactory/hparams/parser.py):
 * with full or freeze tuning (_verify_model_args, :235-237), and with fp8 (:520-527, since v0.9.4) unless USE_MCA
 * (since v0.9.5) or USE_MEGATRON_BRIDGE is on. `envOn` reads the command's environment; without one (a YAML alone)
 * the environment decides, and fp8 is a warning.
 */
export function llamaFactoryQuantization(ctx: SourceContext, get: OptionLookup, t: Translate, envOn?: (name: string) => boolean): Diagnostic[] {
  const qb = get('quantization_bit');
  if (qb?.value == null) return [];
  const out: Diagnostic[] = [];
  const tuning = get('finetuning_type')?.value;
  const at = writtenHere(get, ['quantization_bit', 'finetuning_type']);
  if ((tuning === 'full' || tuning === 'freeze') && at) {
    // l10n-ignore: LLaMA-Factory's own error text
    const says = 'Quantization is only compatible with the LoRA or OFT method.';
    const message = t('{0} with {1}: LLaMA-Factory refuses it at start ("{2}", {3}).', 'quantization_bit', `finetuning_type: ${tuning}`, says, 'hparams/parser.py:235-237');
    out.push(launchDiagnostic(ctx, 'llamafactory-invalid-value', at.start, at.end, message, { key: 'quantization_bit', fixes: removal(qb, t, false) }, parserLines('235-237')));
  }
  const fp8 = get('fp8');
  const fp8At = writtenHere(get, ['fp8', 'quantization_bit']);
  if (fp8?.value === true && fp8At && !(envOn?.('USE_MCA') || envOn?.('USE_MEGATRON_BRIDGE'))) {
    // l10n-ignore: LLaMA-Factory's own error text
    const says = 'FP8 training is not compatible with quantization. Please disable one of them.';
    const message = envOn
      ? t('{0} with {1}: LLaMA-Factory refuses it at start ("{2}", {3}).', 'fp8', `quantization_bit: ${qb.value}`, says, 'hparams/parser.py:520-527')
      : t('{0} with {1}: LLaMA-Factory refuses it at start ("{2}", {3}) unless the environment sets {4} or {5}.', 'fp8', `quantization_bit: ${qb.value}`, says, 'hparams/parser.py:520-527', 'USE_MCA=1', 'USE_MEGATRON_BRIDGE=1');
    const fixes = [...removal(fp8, t, false), ...removal(qb, t, false)];
    out.push(launchDiagnostic(ctx, 'llamafactory-invalid-value', fp8At.start, fp8At.end, message, { key: 'fp8', fixes }, { ...parserLines('520-527'), severity: envOn ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning }));
  }
  return out;
}
