/**
 * Megatron-SWIFT's parallel sizes (`megatron sft|pt|rlhf`, ms-swift 3602360a swift/megatron/arguments/
 * megatron_args.py:592-619): what each flag of `schemas/megatron.schema.json` marked with a `size` sets.
 */
import type { LaunchFacts, ParallelSizes } from '../facts';
import type { OptionReader } from './trainerArgs';
import { megatronOptions } from '../parallel/megatronOptions';

export function readMegatronSizes(reader: OptionReader, facts: LaunchFacts): void {
  const sizes: ParallelSizes = {};
  for (const option of megatronOptions().values()) {
    const size = option.meta.size;
    const fact = size ? reader.integer(option.name) : undefined;
    if (size && fact) sizes[size] = fact;
  }
  if (reader.option('decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers')) sizes.unevenPipeline = true;
  if (Object.keys(sizes).length) facts.parallel = sizes;
  facts.sequenceParallelFlag = reader.bool('sequence_parallel');
}
