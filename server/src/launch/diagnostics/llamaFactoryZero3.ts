import type { Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import { zeroStageOf } from './llamaFactoryDeepSpeed';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import { launchDiagnostic } from './launchDiagnostic';
import type { Translate } from '../../l10n';

/**
 * LLaMA-Factory options that refuse DeepSpeed ZeRO-3, ported from its own validators at hiyouga/LLaMA-Factory
 * ff6d4d12 (src/llamafactory/hparams/parser.py and model/model_utils/quantization.py): each raises ValueError when
 * is_deepspeed_zero3_enabled(), i.e. when the config's zero_optimization.stage is 3.
 */
// l10n-ignore-start: LLaMA-Factory's own error texts, quoted as its log shows them
const refusals: { key: string; when: (value: unknown, yaml: YamlLaunch) => boolean; raises: string; where: string }[] = [
  { key: 'predict_with_generate', when: (v) => v === true, raises: '`predict_with_generate` is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:486-487' },
  { key: 'pissa_init', when: (v) => v === true, raises: 'Please use scripts/pissa_init.py to initialize PiSSA in DeepSpeed ZeRO-3.', where: 'hparams/parser.py:495-496' },
  { key: 'pure_bf16', when: (v) => v === true, raises: '`pure_bf16` is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:502-503' },
  { key: 'use_unsloth', when: (v) => v === true, raises: 'Unsloth is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:532-533' },
  { key: 'use_kt', when: (v) => v === true, raises: 'KTransformers is incompatible with DeepSpeed ZeRO-3.', where: 'hparams/parser.py:535-536' },
  {
    key: 'quantization_method',
    when: (v, yaml) => (String(v).toLowerCase() === 'hqq' || String(v).toLowerCase() === 'eetq') && yaml.top.get('quantization_bit')?.value != null,
    raises: 'HQQ / EETQ quantization is incompatible with DeepSpeed ZeRO-3 or FSDP.',
    where: 'model/model_utils/quantization.py:211, :223',
  },
];
// l10n-ignore-end

export async function llamaFactoryZero3(ctx: SourceContext, hosts: Hosts, yaml: YamlLaunch, t: Translate): Promise<Diagnostic[]> {
  if (yaml.kind !== 'llamafactory-yaml' || !yaml.facts.deepspeed) return [];
  const hits = refusals.filter((r) => {
    const entry = yaml.top.get(r.key);
    return entry && r.when(entry.value, yaml);
  });
  if (hits.length === 0) return [];
  if ((await zeroStageOf(hosts, yaml.facts.deepspeed)) !== 3) return [];
  return hits.map((r) => {
    const entry = yaml.top.get(r.key)!;
    return launchDiagnostic(
      ctx,
      'llamafactory-zero3-incompatible',
      entry.keyStart,
      entry.valueEnd,
      t('{0} with a ZeRO-3 DeepSpeed config ({1}): LLaMA-Factory refuses it at start ("{2}", {3}). Use a ZeRO-2 config, or turn {0} off.', r.key, yaml.facts.deepspeed!.text, r.raises, r.where),
      { key: r.key },
    );
  });
}
