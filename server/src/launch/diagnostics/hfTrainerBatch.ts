import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { LaunchCommand } from '../command/launchCommand';
import { lastOption } from '../command/options';
import type { OptionReader } from '../launchers/trainerArgs';
import { launchDiagnostic } from './launchDiagnostic';
import type { Translate } from '../../l10n';

/**
 * The Hugging Face Trainer fills and compares train_batch_size with world_size × per_device_train_batch_size ×
 * gradient_accumulation_steps (transformers integrations/deepspeed.py @3a80c166, trainer_config_process
 * :151-168; not under --auto_find_batch_size, which the caller checks), and refuses a config that says otherwise
 * (:277-282). Said when the launch fixes the process count and the script writes both arguments (a script may
 * change their defaults). With sequence parallelism the Trainer counts data-parallel ranks only, which the
 * launch does not tell: nothing is said.
 */
export function trainBatchAgreement(ctx: SourceContext, launch: LaunchCommand, reader: OptionReader, config: Record<string, unknown>, t: Translate): Diagnostic[] {
  const written = config.train_batch_size;
  if (typeof written !== 'number') return [];
  const sequenceParallel = config.sequence_parallel_size;
  if (typeof sequenceParallel === 'number' && sequenceParallel > 1) return [];
  const world = worldSize(launch, t);
  const micro = reader.integer('per_device_train_batch_size');
  const steps = reader.integer('gradient_accumulation_steps');
  if (world === undefined || !micro || !steps) return [];
  const computed = world.value * micro.value * steps.value;
  if (computed === written) return [];
  return [
    launchDiagnostic(
      ctx,
      'hf-trainer-config-mismatch',
      micro.span.start,
      micro.span.end,
      t('The Hugging Face Trainer computes train_batch_size as {0} × {1} per GPU × {2} accumulation steps = {3}, and the DeepSpeed config sets "train_batch_size": {4}: it refuses the mismatch at start ({5}). Write "auto" in the config, or a batch that multiplies out.', world.words, micro.value, steps.value, computed, written, trainerMismatchRefusal),
      { key: 'train_batch_size', computed, written, worldSize: world.value },
    ),
  ];
}

/** The Trainer's own words when it refuses (transformers integrations/deepspeed.py, trainer_config_finalize). */
// l10n-ignore: the Trainer's own error text, as its log shows it
export const trainerMismatchRefusal = '"Please correct the following DeepSpeed config values that mismatch TrainingArguments values"';

/** The processes the launch starts, where it fixes them: GPUs per node × nodes. */
function worldSize(launch: LaunchCommand, t: Translate): { value: number; words: string } | undefined {
  const { gpusPerNode, nodes } = launch.facts;
  if (!gpusPerNode) return undefined;
  // The deepspeed launcher with a hostfile and no --num_nodes runs on every host the file lists.
  const launcher = launch.launcher;
  if (!nodes && launcher?.kind === 'deepspeed' && lastOption(launcher.parsed, 'hostfile')) return undefined;
  const n = nodes?.value ?? 1;
  const value = gpusPerNode.value * n;
  const words = n > 1 ? t('{0} processes ({1} per node × {2} nodes)', value, gpusPerNode.value, n) : value === 1 ? t('1 process') : t('{0} processes', value);
  return { value, words };
}
