import type { Diagnostic } from 'vscode-languageserver-types';
import { textOf, type Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { DeepSpeedReference } from '../facts';
import { LLAMA_FACTORY } from '../../diagnostics/upstream';
import { readReferencedConfig } from '../referencedConfig';
import { launchDiagnostic } from './launchDiagnostic';
import type { Translate } from '../../l10n';
import { writtenHere, type OptionLookup, type WrittenOption } from './llamaFactoryOptions';

/**
 * LLaMA-Factory's refusals of an optimizer plugin under DeepSpeed, from get_train_args at hiyouga/LLaMA-Factory
 * ff6d4d12 src/llamafactory/hparams/parser.py. A DeepSpeed run is distributed (else :471-472 raises first), so the
 * checks of distributed training (:505-516) apply as well, before :518-519; each case names the line that raises first.
 */
// l10n-ignore-start: LLaMA-Factory's own error texts, quoted as its log shows them
function refusals(get: OptionLookup, stage: number | undefined): { key: string; other: string; raises: string; lines: string }[] {
  const on = (key: string) => get(key)?.value === true;
  const out: { key: string; other: string; raises: string; lines: string }[] = [];
  for (const [tuner, name, layerwise] of [['galore', 'GaLore', '506-507'], ['apollo', 'APOLLO', '509-510']] as const) {
    if (!on(`use_${tuner}`)) continue;
    out.push(
      on(`${tuner}_layerwise`)
        ? { key: `use_${tuner}`, other: `${tuner}_layerwise`, raises: `Distributed training does not support layer-wise ${name}.`, lines: layerwise }
        : { key: `use_${tuner}`, other: 'deepspeed', raises: 'GaLore and APOLLO are incompatible with DeepSpeed yet.', lines: '518-519' },
    );
  }
  // badam_mode is "layer" unless set (finetuning_args.py:360-361); layer-wise BAdam runs only under ZeRO-3.
  if (on('use_badam')) {
    if (String(get('badam_mode')?.value ?? 'layer') === 'ratio') out.push({ key: 'use_badam', other: 'badam_mode', raises: 'Radio-based BAdam does not yet support distributed training, use layer-wise BAdam.', lines: '513-514' });
    else if (stage !== undefined && stage !== 3) out.push({ key: 'use_badam', other: 'deepspeed', raises: 'Layer-wise BAdam only supports DeepSpeed ZeRO-3 training.', lines: '515-516' });
  }
  return out;
}
// l10n-ignore-end

/** The ZeRO stage of the config a reference names; undefined where it cannot be read or is not a number. */
export async function zeroStageOf(hosts: Hosts, ref: DeepSpeedReference): Promise<number | undefined> {
  const config = await readReferencedConfig(async (p) => textOf(await hosts.fs.readFile(p, 'config')), ref).catch(() => undefined);
  const stage = Number((config?.value as { zero_optimization?: { stage?: unknown } } | undefined)?.zero_optimization?.stage ?? 0);
  return config && Number.isInteger(stage) ? stage : undefined;
}

/** The fix that removes `option`, where that turns it off. */
export function removal(option: WrittenOption | undefined, t: Translate, preferred = true) {
  return option?.remove && !option.inherited ? [{ id: option.fix, title: t('Remove {0}', option.name), ops: [option.remove], preferred }] : [];
}

/**
 * An error on each option LLaMA-Factory refuses with the DeepSpeed config `ref`, with the fix that removes it: at the
 * option, else at the other option of the case this document writes (`train sft.yaml deepspeed=ds.json`); none where
 * it writes neither (the config file under the command line reports it).
 */
export async function llamaFactoryDeepSpeed(ctx: SourceContext, hosts: Hosts, ref: DeepSpeedReference, get: OptionLookup, t: Translate): Promise<Diagnostic[]> {
  if (!['use_galore', 'use_apollo', 'use_badam'].some((k) => get(k)?.value === true)) return [];
  const stage = get('use_badam') ? await zeroStageOf(hosts, ref) : undefined;
  return refusals(get, stage).flatMap((r) => {
    const at = writtenHere(get, [r.key, r.other, 'deepspeed']);
    if (!at) return [];
    const raises = `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L${r.lines}`;
    return launchDiagnostic(
      ctx,
      'llamafactory-deepspeed-incompatible',
      at.start,
      at.end,
      t('{0} with DeepSpeed ({1}): LLaMA-Factory refuses it at start ("{2}", {3}). Turn {0} off.', r.key, ref.text, r.raises, `hparams/parser.py:${r.lines}`),
      { key: r.key, fixes: removal(get(r.key), t) },
      { raises },
    );
  });
}
