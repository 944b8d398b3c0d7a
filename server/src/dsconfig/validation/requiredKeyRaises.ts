import type { JSONPath } from 'jsonc-parser';
import { DS } from '../../diagnostics/upstream';

/**
 * Where DeepSpeed fails on a key the schema marks required, by the section it is missing from (longest prefix
 * first). The scheduler's required arguments are the registry's own citation (a TypeError when it is built).
 */
const sites: [prefix: string[], raises: string][] = [
  [['elasticity'], `${DS}:deepspeed/elasticity/config.py#L51-58`],
  [['compression_training'], `${DS}:deepspeed/compression/config.py#L74-75`],
  [['weight_quantization'], `${DS}:deepspeed/inference/quantization/utils.py#L47-48`],
  [['data_efficiency', 'data_sampling', 'dynamic_batching'], `${DS}:deepspeed/runtime/data_pipeline/config.py#L108-109`],
  [['data_efficiency', 'data_sampling', 'curriculum_learning'], `${DS}:deepspeed/runtime/data_pipeline/data_sampling/data_sampler.py#L86`],
];

/** The upstream line that fails on a required key missing at `path`, where it is not the scheduler's. */
export function requiredKeyRaises(path: JSONPath): string | undefined {
  return sites.find(([prefix]) => prefix.every((key, i) => path[i] === key))?.[1];
}
