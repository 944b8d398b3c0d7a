import type { Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { Translate } from '../../l10n';
import type { SourceContext } from '../command/context';
import type { LaunchCommand, TrainerPart } from '../command/launchCommand';
import { valueRange } from '../command/options';
import { factVia } from '../facts';
import { OptionReader } from '../launchers/trainerArgs';
import { changeValueFix } from '../edits/valueEdit';
import { launchDiagnostic } from './launchDiagnostic';
import { accelerateConfigFacts } from './hfTrainerAgreement';
import { trainerMismatchRefusal } from './hfTrainerBatch';

/**
 * `trl sft --bf16 false --accelerate_config zero3`, or `accelerate launch --config_file ds.yaml train.py --bf16 false`
 * where accelerate builds the DeepSpeed config (no deepspeed_config_file) with mixed_precision bf16 (or fp16):
 * accelerate hands the script ACCELERATE_MIXED_PRECISION (accelerate 16cb6eb8 src/accelerate/utils/launch.py:557),
 * which TrainingArguments keeps unless --fp16 or --bf16 is true (transformers 00349ae8 training_args.py, __post_init__
 * "5. Mixed Precision") and gives the DeepSpeedPlugin ("12. DeepSpeed"); set_mixed_precision writes
 * `"bf16": {"enabled": true}` into the config (accelerate utils/dataclasses.py:1415-1446), the Trainer compares it with
 * --bf16 (integrations/deepspeed.py trainer_config_process, fill_match("bf16.enabled", args.bf16 or bf16_full_eval))
 * and trainer_config_finalize refuses. Only a flag written false is claimed: unset, TRL's configs turn bf16 on
 * (trl f2cd5771 trl/trainer/base_config.py:105), and a script of one's own may not use the Trainer at all.
 */
export async function acceleratePrecisionAgreement(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart, t: Translate): Promise<Diagnostic[]> {
  const { facts } = launch;
  if (!facts.chain.includes('accelerate') || facts.argsFile || (facts.deepspeed && facts.deepspeed.kind !== 'settings')) return [];
  // accelerate's own flags win over its config file's keys.
  const yaml = facts.configFile && (!facts.deepspeed || !facts.mixedPrecision) ? await accelerateConfigFacts(ctx, hosts, facts.configFile.candidates) : undefined;
  if (facts.deepspeed?.kind !== 'settings' && yaml?.deepspeed?.kind !== 'settings') return [];
  const precision = facts.mixedPrecision ?? yaml?.mixedPrecision;
  const key = precision?.value;
  if (key !== 'bf16' && key !== 'fp16') return [];
  const reader = new OptionReader(ctx, launch.env, trainer.parsed);
  if (reader.bool('fp16')?.value || reader.bool('bf16')?.value || reader.bool(`${key}_full_eval`)?.value) return [];
  const option = reader.option(key);
  if (reader.bool(key)?.value !== false || !option) return [];
  const r = valueRange(option) ?? { start: option.nameStart, end: option.nameEnd };
  const source = facts.mixedPrecision ? factVia(facts.mixedPrecision, t) : facts.configFile!.value;
  const change = changeValueFix(ctx.document.getText(), r.start, r.end, 'true', launch.env, t('Change to {0}', 'true'), t);
  const message = t(
    '{0} false leaves accelerate\'s mixed_precision {1} ({2}) in place, so the DeepSpeed config accelerate builds says {3}: the Hugging Face Trainer refuses the mismatch at start ({4}). Pass {0} true, or accelerate\'s --mixed_precision no for a run without {1}.',
    option.written,
    key,
    source,
    `"${key}.enabled": true`,
    trainerMismatchRefusal,
  );
  return [launchDiagnostic(ctx, 'hf-trainer-config-mismatch', r.start, r.end, message + change.note, { key: `${key}.enabled`, fixes: change.fixes })];
}
