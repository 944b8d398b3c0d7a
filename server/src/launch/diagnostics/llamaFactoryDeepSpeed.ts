import type { Diagnostic } from 'vscode-languageserver-types';
import { textOf, type Hosts } from '../../host';
import { parseBool, type SourceContext } from '../command/context';
import type { TrainerPart } from '../command/launchCommand';
import { lastOption, optionExtent } from '../command/options';
import type { CommandEnvironment } from '../shell/variables';
import { ScriptEditor } from '../edits/textEdits';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import { removeEntry } from './yamlEntryOps';
import { OptionReader } from '../launchers/trainerArgs';
import type { DeepSpeedReference } from '../facts';
import type { FixKind } from '../../diagnostics/fixKinds';
import type { TextOp } from '../../diagnostics/fixData';
import { LLAMA_FACTORY } from '../../diagnostics/upstream';
import { readReferencedConfig } from '../referencedConfig';
import { launchDiagnostic } from './launchDiagnostic';
import type { Translate } from '../../l10n';

/** A LLaMA-Factory option as written (a YAML entry, a `key=value` override, a `--key` flag) and the edit that removes it. */
export interface WrittenOption {
  /** true / false where it reads as a boolean, else the text. */
  value: unknown;
  start: number;
  end: number;
  fix: FixKind;
  remove: TextOp;
  /** How the fix's title names it: the key, or the flag as written. */
  name: string;
}

/** The option a config or command line writes last, undefined where it leaves it out. */
export type OptionLookup = (key: string) => WrittenOption | undefined;

/** A LLaMA-Factory YAML config's top-level entries. */
export function yamlOptions(ctx: SourceContext, yaml: YamlLaunch): OptionLookup {
  return (key) => {
    const e = yaml.top.get(key);
    return e && { value: e.value, start: e.keyStart, end: e.valueEnd, fix: 'remove-entry', remove: removeEntry(ctx, e), name: key };
  };
}

/**
 * `llamafactory-cli train`'s options: after a config file, `key=value` overrides (OmegaConf's dotlist); without one,
 * `--key [value]` flags (HfArgumentParser) (hiyouga/LLaMA-Factory@ff6d4d12 src/llamafactory/hparams/parser.py:117-126).
 */
export function commandLineOptions(ctx: SourceContext, env: CommandEnvironment, trainer: TrainerPart): OptionLookup {
  const editor = new ScriptEditor(ctx);
  const reader = new OptionReader(ctx, env, trainer.parsed);
  const read = (text: string) => parseBool(text) ?? text;
  // sys.argv[1], the word after `train`.
  const first = trainer.args[0];
  const configFile = !!first && /\.(ya?ml|json)$/i.test(env.resolve(first) ?? first.value);
  return (key) => {
    let found: WrittenOption | undefined;
    for (const word of configFile ? trainer.args : []) {
      const text = env.resolve(word) ?? word.value;
      if (text.startsWith(`${key}=`)) found = { value: read(text.slice(key.length + 1)), start: word.start, end: word.end, fix: 'remove-flag', remove: editor.removeWords(word.start, word.end), name: key };
    }
    const option = configFile ? undefined : lastOption(trainer.parsed, key);
    if (!option) return found;
    // `--use_galore` alone is true (HfArgumentParser's bool fields take an optional value).
    const text = reader.text(option) ?? '';
    const extent = optionExtent(option, 1);
    return { value: text === '' ? true : read(text), start: extent.start, end: extent.end, fix: 'remove-flag', remove: editor.removeWords(extent.start, extent.end), name: option.written };
  };
}

/**
 * LLaMA-Factory's refusals of an optimizer plugin under DeepSpeed, from get_train_args at hiyouga/LLaMA-Factory
 * ff6d4d12 src/llamafactory/hparams/parser.py. A DeepSpeed run is distributed (else :471-472 raises first), so the
 * checks of distributed training (:505-516) apply as well, before :518-519; each case names the line that raises first.
 */
// l10n-ignore-start: LLaMA-Factory's own error texts, quoted as its log shows them
function refusals(get: OptionLookup, stage: number | undefined): { key: string; raises: string; lines: string }[] {
  const on = (key: string) => get(key)?.value === true;
  const out: { key: string; raises: string; lines: string }[] = [];
  for (const [tuner, name, layerwise] of [['galore', 'GaLore', '506-507'], ['apollo', 'APOLLO', '509-510']] as const) {
    if (!on(`use_${tuner}`)) continue;
    out.push(
      on(`${tuner}_layerwise`)
        ? { key: `use_${tuner}`, raises: `Distributed training does not support layer-wise ${name}.`, lines: layerwise }
        : { key: `use_${tuner}`, raises: 'GaLore and APOLLO are incompatible with DeepSpeed yet.', lines: '518-519' },
    );
  }
  // badam_mode is "layer" unless set (finetuning_args.py:360-361); layer-wise BAdam runs only under ZeRO-3.
  if (on('use_badam')) {
    if (String(get('badam_mode')?.value ?? 'layer') === 'ratio') out.push({ key: 'use_badam', raises: 'Radio-based BAdam does not yet support distributed training, use layer-wise BAdam.', lines: '513-514' });
    else if (stage !== undefined && stage !== 3) out.push({ key: 'use_badam', raises: 'Layer-wise BAdam only supports DeepSpeed ZeRO-3 training.', lines: '515-516' });
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

/** An error on each option LLaMA-Factory refuses with the DeepSpeed config `ref`, with the fix that removes it. */
export async function llamaFactoryDeepSpeed(ctx: SourceContext, hosts: Hosts, ref: DeepSpeedReference, get: OptionLookup, t: Translate): Promise<Diagnostic[]> {
  if (!['use_galore', 'use_apollo', 'use_badam'].some((k) => get(k)?.value === true)) return [];
  const stage = get('use_badam') ? await zeroStageOf(hosts, ref) : undefined;
  return refusals(get, stage).map((r) => {
    const option = get(r.key)!;
    const raises = `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L${r.lines}`;
    return launchDiagnostic(
      ctx,
      'llamafactory-deepspeed-incompatible',
      option.start,
      option.end,
      t('{0} with DeepSpeed ({1}): LLaMA-Factory refuses it at start ("{2}", {3}). Turn {0} off.', r.key, ref.text, r.raises, `hparams/parser.py:${r.lines}`),
      { key: r.key, fixes: [{ id: option.fix, title: t('Remove {0}', option.name), ops: [option.remove], preferred: true }] },
      { raises },
    );
  });
}
