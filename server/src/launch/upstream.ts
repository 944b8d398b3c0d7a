/**
 * The upstream lines the FSDP and parallelism checks cite, one place for each pin: accelerate 16cb6eb8 (as for
 * the DeepSpeed checks), transformers v4.57.6, ms-swift 3602360a, Megatron-LM d98e8a64, DeepSpeed edaa7221.
 * An error's link is the line that raises (`upstreamLink`).
 */
import { upstreamLink } from '../diagnostics/registry';
import { ACCELERATE, DS as DEEPSPEED, MEGATRON, SWIFT as MS_SWIFT, TRANSFORMERS_4_57 as TRANSFORMERS } from '../diagnostics/upstream';

export const raises = {
  // accelerate
  launchRamEfficientNeedsSync: `${ACCELERATE}:src/accelerate/utils/launch.py#L306-307`,
  launchDeepSpeedAndFsdp: `${ACCELERATE}:src/accelerate/commands/launch.py#L1198-1201`,
  pluginStrategy: `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L1836-1848`,
  pluginReshardBool: `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L1853-1854`,
  pluginStateDictFsdp2: `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L2052-2056`,
  pluginMinNumParams: `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L1920-1922`,
  parallelismTotal: `${ACCELERATE}:src/accelerate/parallelism_config.py#L371-376`,
  stateDeepSpeedFirst: `${ACCELERATE}:src/accelerate/state.py#L972-973`,
  // transformers
  trainerUnknownWord: `${TRANSFORMERS}:src/transformers/training_args.py#L1919-1920`,
  trainerOffloadAlone: `${TRANSFORMERS}:src/transformers/training_args.py#L1922-1926`,
  trainerFullAndGradOp: `${TRANSFORMERS}:src/transformers/training_args.py#L1927-1928`,
  trainerConfigFile: `${TRANSFORMERS}:src/transformers/training_args.py#L1942-1946`,
  trainerInlineJson: `${TRANSFORMERS}:src/transformers/training_args.py#L1604-1612`,
  trainerWrapExclusive: `${TRANSFORMERS}:src/transformers/training_args.py#L1977-1982`,
  trainerRamEfficientNeedsSync: `${TRANSFORMERS}:src/transformers/training_args.py#L2032-2038`,
  trainerDeepSpeedAndFsdp: `${TRANSFORMERS}:src/transformers/trainer.py#L571-575`,
  // ms-swift
  swiftFsdpFile: `${MS_SWIFT}:swift/arguments/sft_args.py#L303-309`,
  swiftSaveOnlyModelSharded: `${MS_SWIFT}:swift/arguments/sft_args.py#L338-345`,
  // Megatron-Core
  megatronWorld: `${MEGATRON}:megatron/core/parallel_state.py#L815-823`,
  megatronExpertWorld: `${MEGATRON}:megatron/core/parallel_state.py#L873-884`,
  megatronHeads: `${MEGATRON}:megatron/core/transformer/transformer_config.py#L1446-1450`,
  megatronQueryGroups: `${MEGATRON}:megatron/core/transformer/transformer_config.py#L1461-1468`,
  megatronLayers: `${MEGATRON}:megatron/core/transformer/transformer_block.py#L156-158`,
  megatronExperts: `${MEGATRON}:megatron/core/transformer/moe/moe_layer.py#L186`,
  // DeepSpeed AutoTP
  autotpMesh: `${DEEPSPEED}:deepspeed/utils/groups.py#L146-155`,
  autotpKvHeads: `${DEEPSPEED}:deepspeed/runtime/engine.py#L761-767`,
} as const;

/** The GitHub page of a cited line. */
export function lineLink(ref: string): string {
  return upstreamLink(ref);
}
