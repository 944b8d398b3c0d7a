import type { TrainingContextView } from '../protocol';
import type { ConfigAnalysis } from './analysis';

/** The training context as the protocol carries it (the sidebar, the CLI's JSON): each value with its source. */
export function contextView(analysis: ConfigAnalysis): TrainingContextView {
  const c = analysis.context;
  const m = analysis.model;
  return {
    model: m && c.model ? { value: { id: m.id, displayName: m.displayName, totalParams: m.totalParams }, source: c.model.source } : undefined,
    gpusPerNode: c.gpusPerNode,
    nodes: c.nodes,
    gpuMemoryGiB: c.gpuMemoryGiB,
    sequenceLength: c.sequenceLength,
    microBatchSize: c.microBatchSize,
    gradientCheckpointing: c.gradientCheckpointing,
    loraRank: c.lora ? { value: c.lora.value.rank, source: c.lora.source } : undefined,
    dtype: c.dtype,
  };
}
