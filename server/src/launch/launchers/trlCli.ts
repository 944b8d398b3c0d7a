import type { Word } from '../shell/types';
import type { Fact, FsdpSettings, LaunchFacts } from '../facts';
import type { LauncherPart, TrainerPart } from '../command/launchCommand';
import type { SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import type { ZeroStage } from '../../memory/types';
import { parseOptions } from '../command/options';
import { accelerateBooleans, accelerateOptions } from './accelerate';
import { pythonTrainer } from './hf';
import { OptionReader } from './trainerArgs';
import { english, msg, say } from '../../l10n';

/**
 * `trl sft|dpo|grpo|kto|reward|rloo ARGS` (huggingface/trl f2cd5771 trl/cli/commands/__init__.py:22-33): runs
 * trl/scripts/<name>.py through `accelerate launch`; what the script's parser does not take goes to accelerate
 * (trl/cli/commands/training.py:56-71, accelerate_launcher.py:45-47).
 */
export const trlTrainingCommands = new Set(['sft', 'dpo', 'grpo', 'kto', 'reward', 'rloo']);

/** accelerate's options minus the script's own (TrainingArguments has gradient_accumulation_steps and debug). */
const launcherNames = new Set([...accelerateOptions.filter((n) => n !== 'gradient_accumulation_steps' && n !== 'debug'), 'accelerate_config']);

/** The words of `trl <name>` split as TRL splits them: accelerate's options to the launcher, the rest to the script. */
export function trlCommand(name: Word, args: Word[]): { launcher: LauncherPart; trainer: TrainerPart } {
  const launcherWords: Word[] = [];
  const scriptWords: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = /^--([\w.-]+)(=)?/.exec(args[i].value);
    if (!flag || !launcherNames.has(flag[1])) {
      scriptWords.push(args[i]);
      continue;
    }
    launcherWords.push(args[i]);
    const takesValue = !flag[2] && !accelerateBooleans.has(flag[1]) && args[i + 1] && !args[i + 1].value.startsWith('--');
    if (takesValue) launcherWords.push(args[++i]);
  }
  const launcher: LauncherPart = { kind: 'accelerate', word: name, parsed: parseOptions(launcherWords, { booleans: accelerateBooleans }), trl: true };
  return { launcher, trainer: { ...pythonTrainer(scriptWords), subcommand: name.value, subcommandWord: name } };
}

/** The DeepSpeed profiles TRL ships (trl/accelerate_configs/zero{1,2,3}.yaml: no offload, 8 processes, bf16). */
const profiles: Record<string, { stage: ZeroStage; zero3Init: boolean }> = {
  zero1: { stage: 1, zero3Init: false },
  zero2: { stage: 2, zero3Init: false },
  zero3: { stage: 3, zero3Init: true },
};

/**
 * `--accelerate_config`: a file is accelerate's `--config_file`; a name is the profile TRL ships
 * (trl/cli/accelerate_config.py:26-47). Read after accelerate's own flags, which win over the profile's values.
 */
export function readTrlAccelerateConfig(ctx: SourceContext, env: CommandEnvironment, part: LauncherPart, facts: LaunchFacts): void {
  const config = new OptionReader(ctx, env, part.parsed).string('accelerate_config');
  if (config) accelerateConfigFacts({ ...config, candidates: ctx.candidates(config.value) }, facts);
  facts.argsFileLaunches = true;
}

/**
 * The keys of a `trl <command>` arguments file that its parser leaves to accelerate (`num_processes: 4`,
 * `accelerate_config: zero2`; trl f2cd5771 trl/scripts/utils.py:381-386 returns them, training.py:61-64 passes them
 * to accelerate before the command line's, so the command line's win).
 */
export function withAccelerateKeys(merged: LaunchFacts, keys: NonNullable<LaunchFacts['accelerateKeys']>): void {
  if (keys.processes && keys.processes.value > 0 && (!merged.gpusPerNode || merged.gpusPerNode.isDefault)) merged.gpusPerNode = keys.processes;
  if (keys.config && !merged.configFile && !merged.deepspeed) accelerateConfigFacts(keys.config, merged);
}

/**
 * The profiles without DeepSpeed: multi_gpu.yaml starts its 8 processes (MULTI_GPU); single_gpu.yaml's distributed_type
 * NO leaves multi_gpu off, so accelerate's simple_launcher runs one (accelerate 16cb6eb8 src/accelerate/commands/launch.py:1223-1233,
 * :1397-1407), whatever --num_processes says: TRL puts `--config_file` first (trl f2cd5771 trl/cli/accelerate_config.py:47)
 * and accelerate raises a count to multi_gpu only without a config file (launch.py:1301-1340), unless a distributed flag
 * (`--multi_gpu`) is written (:1214-1221); fsdp1.yaml and fsdp2.yaml start 8 with FSDP (below).
 */
const processProfiles: Record<string, number> = { multi_gpu: 8, single_gpu: 1, fsdp1: 8, fsdp2: 8 };

/**
 * trl f2cd5771 trl/accelerate_configs/fsdp1.yaml and fsdp2.yaml: FULL_SHARD (fsdp1's default sharding strategy, fsdp2's
 * fsdp_reshard_after_forward: true), TRANSFORMER_BASED_WRAP, no offload, no FSDP activation checkpointing, fsdp1 with
 * use_orig_params; mixed_precision bf16.
 */
function fsdpProfile(version: 1 | 2, at: Fact<string>): FsdpSettings {
  const settings: FsdpSettings = { via: at.via, span: at.span, version, strategy: 'FULL_SHARD', offloadParams: false, autoWrap: 'TRANSFORMER_BASED_WRAP' };
  if (version === 1) settings.useOrigParams = true;
  return settings;
}

function accelerateConfigFacts(config: Fact<string> & { candidates: string[] }, facts: LaunchFacts): void {
  const profile = profiles[config.value];
  const phrase = msg("TRL's {0} profile", config.value);
  const byProfile = <T>(value: T): Fact<T> => ({ value, span: config.span, via: say(english, phrase), viaText: phrase, isDefault: true });
  const isPath = /[\\/]|\.ya?ml$/i.test(config.value);
  if (!isPath && processProfiles[config.value]) {
    if (config.value === 'single_gpu' && !facts.namesDistributedType) facts.gpusPerNode = byProfile(1);
    else facts.gpusPerNode ??= byProfile(processProfiles[config.value]);
    const fsdp = /^fsdp([12])$/.exec(config.value);
    if (fsdp) facts.fsdp ??= fsdpProfile(fsdp[1] === '2' ? 2 : 1, config);
    // Each profile's mixed_precision: bf16 (multi_gpu.yaml:8, single_gpu.yaml:8, fsdp2.yaml:17), which a script's
    // `--bf16 false` leaves in place (launchers/hf.ts).
    facts.dtype ??= byProfile<'bf16'>('bf16');
    facts.mixedPrecision ??= byProfile('bf16');
    return;
  }
  if (!profile || isPath) {
    facts.configFile ??= config;
    return;
  }
  facts.deepspeed ??= { kind: 'settings', via: config.via, text: config.value, span: config.span, stage: profile.stage, offloadOptimizer: 'none', offloadParam: 'none', zero3Init: profile.zero3Init };
  facts.gpusPerNode ??= byProfile(8);
  facts.dtype ??= byProfile<'bf16'>('bf16');
  facts.mixedPrecision ??= byProfile('bf16');
}
