import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import { LLAMA_FACTORY } from '../../diagnostics/upstream';
import { launchDiagnostic } from './launchDiagnostic';
import { removal } from './llamaFactoryDeepSpeed';
import { writtenHere, type OptionLookup } from './llamaFactoryOptions';
import type { Translate } from '../../l10n';

const parserLines = (lines: string) => ({ raises: `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L${lines}` });

/**
 * LLaMA-Factory's refusal of `quantization_bit` with full or freeze tuning (hiyouga/LLaMA-Factory@ff6d4d12
 * src/llamafactory/hparams/parser.py:235-237, _verify_model_args): a quantized model trains adapters only.
 */
export function llamaFactoryQuantization(ctx: SourceContext, get: OptionLookup, t: Translate): Diagnostic[] {
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
  return out;
}
