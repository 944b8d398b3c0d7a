import type { SwiftPresetName } from './facts';
import type { OffloadDevice, ZeroStage } from '../memory/types';
import type { Translate } from '../l10n';
// Each file holds one preset's exact text as a single JSON string, so every runtime (the esbuild bundle, tsx in
// tests and benchmarks) imports the same characters without loader setup; tests pin them to the fixtures.
import zero0 from './presets/zero0.json';
import zero1 from './presets/zero1.json';
import zero2 from './presets/zero2.json';
import zero2_offload from './presets/zero2_offload.json';
import zero3 from './presets/zero3.json';
import zero3_offload from './presets/zero3_offload.json';

/**
 * The six DeepSpeed presets bundled with ms-swift (`swift/config/<name>.json` at 4.x, `swift/llm/ds_config/`
 * at 3.x; content identical from v3.3.0 through 4.x HEAD). The JSON text is copied exactly, so hovers can
 * show it and the estimator can read it like any config file.
 */
export interface SwiftPreset {
  name: SwiftPresetName;
  stage: ZeroStage;
  offloadOptimizer: OffloadDevice;
  offloadParam: OffloadDevice;
  /** The file's exact text. */
  json: string;
}

export const swiftPresets: Record<SwiftPresetName, SwiftPreset> = {
  zero0: { name: 'zero0', stage: 0, offloadOptimizer: 'none', offloadParam: 'none', json: zero0 },
  zero1: { name: 'zero1', stage: 1, offloadOptimizer: 'none', offloadParam: 'none', json: zero1 },
  zero2: { name: 'zero2', stage: 2, offloadOptimizer: 'none', offloadParam: 'none', json: zero2 },
  zero2_offload: { name: 'zero2_offload', stage: 2, offloadOptimizer: 'cpu', offloadParam: 'none', json: zero2_offload },
  zero3: { name: 'zero3', stage: 3, offloadOptimizer: 'none', offloadParam: 'none', json: zero3 },
  zero3_offload: { name: 'zero3_offload', stage: 3, offloadOptimizer: 'cpu', offloadParam: 'cpu', json: zero3_offload },
};

/** A preset in words, in the reader's language: one line for completion lists, and its buckets and extras for the hover. */
export function presetProse(name: SwiftPresetName, t: Translate): { summary: string; details: string } {
  switch (name) {
    case 'zero0':
      return { summary: t('ZeRO disabled: DDP-style, every GPU holds weights, gradients and optimizer states.'), details: t('allgather/reduce buckets {0}, {1}.', '2e8', '`overlap_comm false`') };
    case 'zero1':
      return { summary: t('ZeRO-1: optimizer states sharded across GPUs.'), details: t('allgather/reduce buckets {0}, {1}, {2}.', '2e8', '`overlap_comm false`', '`offload_optimizer device none`') };
    case 'zero2':
      return { summary: t('ZeRO-2: optimizer states and gradients sharded.'), details: t('allgather/reduce buckets {0}, {1}, {2}.', '2e8', '`overlap_comm false`', '`offload_optimizer device none`') };
    case 'zero2_offload':
      return { summary: t('ZeRO-2 with the optimizer offloaded to CPU (pinned memory).'), details: t('Identical to zero2 except {0} ({1}).', '`offload_optimizer device cpu`', '`pin_memory true`') };
    case 'zero3':
      return {
        summary: t('ZeRO-3: weights, gradients and optimizer states sharded.'),
        details: t('{0} "auto" (filled from {1}), {2}, {3}, {4}, 16-bit weights gathered on save.', '`reduce_bucket_size / stage3_prefetch_bucket_size / stage3_param_persistence_threshold`', '`hidden_size`', '`sub_group_size 1e9`', '`max_live_parameters / max_reuse_distance 1e9`', '`zero_quantized_weights/gradients false`'),
      };
    case 'zero3_offload':
      return { summary: t('ZeRO-3 with optimizer states and weights offloaded to CPU.'), details: t('Same buckets as zero3 (no {0} keys), {1} ({2}), 16-bit weights gathered on save.', '`zero_quantized_*`', '`offload_optimizer / offload_param device cpu`', 'pinned') };
  }
}

/** Every preset value the HF Trainer fills: "auto" keys, for the hover. */
export const presetAutoKeys = ['train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'gradient_clipping', 'fp16.enabled', 'bf16.enabled'];

/** ms-swift 2.x preset names and what they became in 3.x. */
export const legacyPresetNames: Record<string, SwiftPresetName> = {
  'default-zero2': 'zero2',
  'default-zero3': 'zero3',
  'zero2-offload': 'zero2_offload',
  'zero3-offload': 'zero3_offload',
};

export function parsedPreset(name: SwiftPresetName): unknown {
  return JSON.parse(swiftPresets[name].json);
}
