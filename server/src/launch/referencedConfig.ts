import { parseConfigText } from '../dsconfig/parse';
import type { DeepSpeedReference } from './facts';
import { parsedPreset } from './swiftPresets';
import { builtConfigPath, inlineConfigPath, presetConfigPath, settingsConfigPath } from '../protocol';

/** The DeepSpeed config a launch uses, as a value the estimator can read. */
export interface ReferencedConfig {
  /** Display path: the JSON file, or e.g. "zero3 (ms-swift preset)". */
  configPath: string;
  value: unknown;
  file?: { path: string; text: string };
}

/** Reads a file's text; undefined when it does not exist or cannot be read. */
export type ReadText = (path: string) => Promise<string | undefined>;

/** The config written by accelerate's stage and offload settings (flags or its YAML), as accelerate hands it on. */
type Settings = DeepSpeedReference & { kind: 'settings' };

/** The stage and offload devices as written into `zero_optimization`. */
const zeroOf = (ref: Settings) => ({ stage: ref.stage ?? 0, offload_optimizer: { device: ref.offloadOptimizer ?? 'none' }, offload_param: { device: ref.offloadParam ?? 'none' } });

function settingsConfig(ref: Settings): unknown {
  return {
    zero_optimization: zeroOf(ref),
    bf16: { enabled: 'auto' },
    fp16: { enabled: 'auto' },
    train_micro_batch_size_per_gpu: 'auto',
    // accelerate writes its plugin's value, "auto" unless set (utils/dataclasses.py:1229-1231, 1302-1305).
    gradient_accumulation_steps: 'auto',
  };
}

/**
 * The config DeepSpeed-Chat or OpenRLHF builds from the flags (launchers/flagBuiltConfig.ts cites their builders).
 * DeepSpeed-Chat's stage-3 settings are its own (DeepSpeedExamples 83757d9c dschat/utils/ds_utils.py:43-45:
 * persistence 1e4, max live and prefetch 3e7; the same in Yi's copy, finetune/utils/ds_utils.py:27-29). Its
 * overlap_comm true (:36) is kept though Yi's copy leaves it out: it only adds buffers, so the estimate errs high
 * where the copy is unknown. OpenRLHF writes "auto" there (openrlhf/utils/deepspeed/deepspeed_utils.py 0a3fbcef
 * :28-33), left out here so DeepSpeed's defaults apply. The micro batch and accumulation each program sets from its own flags: "auto" takes the script's flags,
 * a number is the builder's own default or OpenRLHF's --train_batch_size. Without a precision flag OpenRLHF's
 * default depends on its release (--bf16 off, or --param_dtype bf16): left to the context's default.
 */
function builtConfig(ref: Settings): unknown {
  const zero = ref.builtBy === 'DeepSpeed-Chat' ? { overlap_comm: true, stage3_param_persistence_threshold: 1e4, stage3_max_live_parameters: 3e7, stage3_prefetch_bucket_size: 3e7 } : {};
  const batch = ref.batch ?? {};
  return {
    zero_optimization: { ...zeroOf(ref), ...zero },
    ...(ref.precision && { bf16: { enabled: ref.precision === 'bf16' }, fp16: { enabled: ref.precision === 'fp16' } }),
    train_micro_batch_size_per_gpu: batch.micro ?? 'auto',
    ...(batch.train !== undefined ? { train_batch_size: batch.train } : { gradient_accumulation_steps: batch.accumulation ?? 'auto' }),
  };
}

/** What a `--deepspeed`-style reference points at; undefined when it cannot be read. */
export async function readReferencedConfig(read: ReadText, ref: DeepSpeedReference): Promise<ReferencedConfig | undefined> {
  switch (ref.kind) {
    case 'preset':
      return { configPath: presetConfigPath(ref.name), value: parsedPreset(ref.name) };
    case 'inline':
      return ref.json && typeof ref.json === 'object' ? { configPath: inlineConfigPath(ref.via), value: ref.json } : undefined;
    case 'settings':
      // An invalid stage fails at launch (its own diagnostic says so): there is no run to estimate.
      if (ref.invalidStage) return undefined;
      if (ref.builtBy) return { configPath: builtConfigPath(ref.flags ?? `${ref.via} ${ref.text}`, ref.builtBy), value: builtConfig(ref) };
      return { configPath: settingsConfigPath(ref.via), value: settingsConfig(ref) };
    case 'file':
      // Written by the script itself before it launches: that text, whatever is on disk now.
      if (ref.written) return { configPath: ref.candidates[0] ?? ref.path, value: parseConfigText(ref.written.text).value };
      for (const candidate of ref.candidates) {
        const text = await read(candidate);
        if (text !== undefined) return { configPath: candidate, value: parseConfigText(text).value, file: { path: candidate, text } };
      }
      return undefined;
    default:
      return undefined;
  }
}
