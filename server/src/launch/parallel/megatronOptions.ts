/** Megatron-SWIFT's parallelism options, documented in `schemas/megatron.schema.json`. */
import schemaJson from '../../../../schemas/megatron.schema.json';
import { optionEntries, type OptionEntry } from '../optionSchema';

let options: Map<string, OptionEntry> | undefined;

export function megatronOptions(): Map<string, OptionEntry> {
  return (options ??= optionEntries((schemaJson as { definitions: Record<string, unknown> }).definitions.megatronArguments, 'x-megatron'));
}
