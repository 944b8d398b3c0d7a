import type { Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import { removal, zeroStageOf } from './llamaFactoryDeepSpeed';
import { writtenHere, type OptionLookup } from './llamaFactoryOptions';
import type { DeepSpeedReference } from '../facts';
import { launchDiagnostic } from './launchDiagnostic';
import type { Translate } from '../../l10n';

/**
 * LLaMA-Factory options that refuse DeepSpeed ZeRO-3, ported from its own validators at hiyouga/LLaMA-Factory
 * ff6d4d12 (src/llamafactory/hparams/parser.py and model/model_utils/quantization.py): each raises ValueError when
 * is_deepspeed_zero3_enabled(), i.e. when the config's zero_optimization.stage is 3.
 */
// l10n-ignore-start: LLaMA-Factory's own error texts, quoted as its log shows them
const refusals: { key: string; also?: string; when: (value: unknown, get: OptionLookup) => boolean; raises: string; where: string }[] = [
  { key: 'predict_with_generate', when: (v) => v === true, raises: '`predict_with_generate` is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:486-487' },
  { key: 'pissa_init', when: (v) => v === true, raises: 'Please use scripts/pissa_init.py to initialize PiSSA in DeepSpeed ZeRO-3.', where: 'hparams/parser.py:495-496' },
  { key: 'pure_bf16', when: (v) => v === true, raises: '`pure_bf16` is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:502-503' },
  { key: 'use_unsloth', when: (v) => v === true, raises: 'Unsloth is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:532-533' },
  { key: 'use_kt', when: (v) => v === true, raises: 'KTransformers is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:535-536' },
  {
    key: 'quantization_method',
    also: 'quantization_bit',
    when: (v, get) => (String(v).toLowerCase() === 'hqq' || String(v).toLowerCase() === 'eetq') && get('quantization_bit')?.value != null,
    raises: 'HQQ / EETQ quantization is incompatible with DeepSpeed ZeRO-3 or FSDP.',
    where: 'model/model_utils/quantization.py:211, :223',
  },
];
// l10n-ignore-end

/**
 * An error on each option above with a ZeRO-3 config `ref`: at the option, else at the other option of the case this
 * document writes (`train sft.yaml deepspeed=ds_z3.json`), with the fix that removes the option where that turns it off.
 */
export async function llamaFactoryZero3(ctx: SourceContext, hosts: Hosts, ref: DeepSpeedReference, get: OptionLookup, t: Translate): Promise<Diagnostic[]> {
  const at = (r: (typeof refusals)[number]) => writtenHere(get, [r.key, r.also ?? r.key, 'deepspeed']);
  const hits = refusals.filter((r) => {
    const option = get(r.key);
    return option && r.when(option.value, get) && at(r);
  });
  if (hits.length === 0) return [];
  if ((await zeroStageOf(hosts, ref)) !== 3) return [];
  return hits.map((r) => {
    const { start, end } = at(r)!;
    return launchDiagnostic(
      ctx,
      'llamafactory-zero3-incompatible',
      start,
      end,
      t('{0} with a ZeRO-3 DeepSpeed config ({1}): LLaMA-Factory refuses it at start ("{2}", {3}). Use a ZeRO-2 config, or turn {0} off.', r.key, ref.text, r.raises, r.where),
      { key: r.key, fixes: removal(get(r.key), t, false) },
    );
  });
}
