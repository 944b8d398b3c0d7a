import type { Translate } from '../l10n';
import { worldSizeFrom, type WorldSize } from '../dsconfig/validation/worldSize';
import type { TrainingContext } from './context';

/**
 * The world size of the training context with where it came from (a launch script's `--num_gpus`,
 * `--nproc_per_node`, `CUDA_VISIBLE_DEVICES`, `NPROC_PER_NODE` before the settings); undefined when the GPU count
 * is unknown. The config's world-size checks and its batch-size fix both use it.
 */
export function contextWorldSize(context: TrainingContext, t: Translate): WorldSize | undefined {
  return context.gpusPerNode ? worldSizeFrom(context.gpusPerNode, context.nodes, t) : undefined;
}
