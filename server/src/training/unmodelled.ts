import type { Translate } from '../l10n';
import type { Fact, LaunchFacts } from '../launch/facts';

/** Tuners estimated as LoRA (context.ts resolveLora); `full` is full fine-tuning. Any other is estimated as full. */
export const loraTuners = new Set(['lora', 'qlora', 'longlora', 'adalora', 'lora_llm', 'dora', 'pissa', 'olora', 'vera', 'loha', 'lokr']);

/**
 * ms-swift's optimizer plugins (swift/optimizers/mapping.py:9-16 at 3602360a) that build the Trainer's own optimizer
 * class, only with other parameter groups: lorap (lorap.py:33-34), multimodal (multimodal.py:73-74), default.
 */
const trainerOptimizerPlugins = new Set(['default', 'lorap', 'multimodal']);
/**
 * Plugins whose optimizer keeps fewer states than the Trainer's AdamW: Muon and MuonClip one momentum buffer for the
 * ≥2-D weights, AdamW only for the rest (muon.py:28-44); GaLore low-rank projected states (galore/).
 */
const fewerStatesPlugins = new Set(['muon', 'muonclip', 'galore']);

/**
 * What a launch trains with that the estimate does not model, and which way the numbers may be off: a tuner that is
 * neither LoRA nor full (ms-swift's custom, boft, reft, llamapro… swift/arguments/base_args/base_args.py:28-30;
 * LLaMA-Factory's freeze, oft) is estimated as full fine-tuning; an ms-swift optimizer plugin as the Trainer's
 * optimizer, unless something else decides what is counted (`optimizerDecided`): the DeepSpeed config's optimizer block,
 * which DeepSpeed builds instead of the Trainer's (transformers integrations/deepspeed.py, deepspeed_optim_sched), or
 * the CLI's --optimizer.
 */
export function unmodelledNotes(script: LaunchFacts | undefined, optimizerDecided: boolean, where: (fact: Fact<unknown>) => string, t: Translate): string[] {
  const notes: string[] = [];
  const tuner = script?.tuner;
  if (tuner && !tuner.isDefault && tuner.value !== 'full' && !loraTuners.has(tuner.value.toLowerCase())) {
    notes.push(t('{0} {1} ({2}) is not modelled: it is estimated as full fine-tuning, so the numbers are likely too high.', tuner.via, tuner.value, where(tuner)));
  }
  const plugin = script?.swiftOptimizer;
  const name = plugin?.value.toLowerCase();
  if (plugin && name && !optimizerDecided && !trainerOptimizerPlugins.has(name)) {
    notes.push(
      fewerStatesPlugins.has(name)
        ? t("{0} {1} ({2}) is not modelled: the Trainer's optimizer states are counted instead, so the numbers are likely too high.", plugin.via, plugin.value, where(plugin))
        : t("{0} {1} ({2}) is not modelled: the Trainer's optimizer states are counted instead, so the numbers may be too high or too low.", plugin.via, plugin.value, where(plugin)),
    );
  }
  return notes;
}
