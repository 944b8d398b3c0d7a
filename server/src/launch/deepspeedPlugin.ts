import type { DeepSpeedReference, LaunchFacts } from './facts';
import type { Translate } from '../l10n';

/**
 * accelerate's DeepSpeedPlugin: the HF Trainer (TrainingArguments.deepspeed → DeepSpeedPlugin(hf_ds_config=…)),
 * and with it ms-swift and LLaMA-Factory, and `accelerate launch` with deepspeed_config_file
 * (ACCELERATE_DEEPSPEED_CONFIG_FILE, accelerate utils/launch.py:580-581) hand the config to it, and it
 * refuses one without a zero_optimization key. deepspeed.initialize alone runs such a config at stage 0
 * (DeepSpeedZeroConfig.stage defaults to 0, deepspeed/runtime/zero/config.py:95).
 */
export function pluginRaises(t: Translate): string {
  // l10n-ignore: accelerate's own error text, as its log shows it
  return t("accelerate's DeepSpeedPlugin raises {0} (accelerate utils/dataclasses.py:1276-1277)", '"Please specify the ZeRO optimization config in the DeepSpeed config."');
}

/** What to do about it, in the script's message and the config's alike. */
export function addZeroSection(t: Translate): string {
  return t('Add {0} for no ZeRO (what plain deepspeed.initialize assumes), or the stage you want.', '`"zero_optimization": { "stage": 0 }`');
}

/** Who hands a config to the plugin. */
export type PluginReader = 'ms-swift' | 'the Hugging Face Trainer' | 'LLaMA-Factory' | 'accelerate';

/** How the config reaches the plugin, for messages. */
export function pluginPath(reader: PluginReader, t: Translate): string {
  switch (reader) {
    case 'accelerate':
      return t('accelerate launch hands it to accelerate through {0}', 'deepspeed_config_file');
    case 'the Hugging Face Trainer':
      return t('the Hugging Face Trainer hands it to accelerate ({0})', 'TrainingArguments.deepspeed');
    default:
      return t('{0} hands it to accelerate through the Hugging Face Trainer ({1})', reader, 'TrainingArguments.deepspeed');
  }
}

/** A parsed config object without the `zero_optimization` key (the plugin tests the key, not its value). */
export function lacksZeroSection(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && !('zero_optimization' in value);
}

/**
 * Who hands this launch's DeepSpeed config to accelerate's DeepSpeedPlugin; undefined when nothing does
 * (a script's own `--deepspeed_config` for deepspeed.initialize) or the reference is no JSON config.
 */
export function pluginReader(facts: LaunchFacts, ref: DeepSpeedReference | undefined = facts.deepspeed): PluginReader | undefined {
  // ms-swift's --deepspeed_autotp_size adds zero_optimization itself (swift/arguments/sft_args.py:275-279); the
  // autotuner writes a ZeRO section into every experiment it starts (autotuning/autotuner.py DEFAULT_MIN_MEM_CONFIG).
  if (facts.deepspeedAutotpSize || facts.autotuning) return undefined;
  return configReader(facts, ref);
}

/**
 * Who reads this launch's DeepSpeed config: accelerate's DeepSpeedPlugin through one of these, or (undefined) a
 * plain deepspeed.initialize script (`--deepspeed_config`), or nothing readable. Unlike `pluginReader`, also when
 * the launcher completes the ZeRO section itself: the consumer is the same.
 */
export function configReader(facts: LaunchFacts, ref: DeepSpeedReference | undefined = facts.deepspeed): PluginReader | undefined {
  if (!ref || ref.kind === 'settings' || ref.kind === 'unresolved') return undefined;
  const via = ref.via.replace(/^-+/, '').replace(/-/g, '_');
  if (via === 'deepspeed_config' || via === 'deepscale_config') return undefined;
  if (via === 'deepspeed_config_file') return 'accelerate';
  // The trainer (a script's own, when merged with the config file it names) reads --deepspeed.
  switch (facts.launcher) {
    case 'swift':
    case 'swift-yaml':
      return 'ms-swift';
    case 'llamafactory':
    case 'llamafactory-yaml':
      return 'LLaMA-Factory';
    case 'python':
      return facts.noTrainerArguments ? undefined : 'the Hugging Face Trainer';
    default:
      return undefined;
  }
}
