import { parseConfigText } from '../dsconfig/parse';
import type { DeepSpeedReference } from './facts';
import { parsedPreset } from './swiftPresets';
import { inlineConfigPath, presetConfigPath, settingsConfigPath } from '../protocol';

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
function settingsConfig(ref: DeepSpeedReference & { kind: 'settings' }): unknown {
  return {
    zero_optimization: { stage: ref.stage ?? 0, offload_optimizer: { device: ref.offloadOptimizer ?? 'none' }, offload_param: { device: ref.offloadParam ?? 'none' } },
    bf16: { enabled: 'auto' },
    fp16: { enabled: 'auto' },
    train_micro_batch_size_per_gpu: 'auto',
    // accelerate writes its plugin's value, "auto" unless set (utils/dataclasses.py:1229-1231, 1302-1305).
    gradient_accumulation_steps: 'auto',
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
      return ref.invalidStage ? undefined : { configPath: settingsConfigPath(ref.via), value: settingsConfig(ref) };
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
