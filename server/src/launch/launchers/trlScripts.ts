import type { LaunchFacts } from '../facts';
import type { SourceContext } from '../command/context';
import { msg } from '../../l10n';

/**
 * TRL's training scripts by name (trl/scripts/<name>.py, `trl <name>`, and scripts named after them: run_grpo.py,
 * open-r1's grpo.py): each builds one trainer (huggingface/trl f2cd5771 trl/scripts/grpo.py:134, rloo.py, dpo.py:96,
 * kto.py, reward.py; examples/scripts/gkd.py), the RL type ms-swift names the same way.
 */
const trainers: Record<string, string> = { grpo: 'grpo', rloo: 'rloo', dpo: 'dpo', kto: 'kto', gkd: 'gkd' };

/** The RL type a script's name says (`grpo.py`, `trl.scripts.rloo`, `run_dpo.py`), undefined for any other. */
export function trlTrainerOf(script: string): string | undefined {
  const stem = script.replace(/\.py$/i, '').split(/[\\/.]/).pop() ?? '';
  const word = /(?:^|[_-])(grpo|rloo|dpo|kto|gkd)(?:[_-]|$)/i.exec(stem)?.[1]?.toLowerCase();
  return word ? trainers[word] : undefined;
}

/** The RL type of a `trl` command: its script's (`trl reward` trains a reward model on preference pairs, reward.py). */
export function trlCommandType(command: string): string | undefined {
  return command === 'reward' ? 'rm' : trlTrainerOf(command);
}

/**
 * The trainer a TRL script runs, when the command does not name it otherwise: its type from the script's name, and
 * GRPO's beta where the command leaves it: GRPOConfig's default 0.0, so no reference model is loaded (trl f2cd5771
 * trl/trainer/grpo_config.py:671-677, grpo_trainer.py:954-957; the default since v0.19, trl 7359ddcc; a workspace that
 * pins an older trl gets 0.04 in training/trlRelease.ts). A written
 * `--beta` (or the arguments file's, references.ts withArgumentsFile) wins over both defaults.
 */
export function readTrlTrainer(ctx: SourceContext, facts: LaunchFacts, type: string, at: { start: number; end: number }, name: string): void {
  facts.rlhfType ??= ctx.fact(type, at.start, at.end, msg("{0} runs TRL's {1} trainer", name, type.toUpperCase()), true);
  if (facts.rlhfType.value === 'grpo') facts.beta ??= ctx.fact(0, at.start, at.end, msg("TRL's default"), true);
}
