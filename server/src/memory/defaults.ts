import type { EstimateInput, ModelInfo } from './types';

/**
 * What the estimator assumes when nobody says otherwise. Each is a choice, stated in
 * docs/memory-model.md; callers report them with source { kind: 'default' }.
 */
export const estimateDefaults = {
  /** DeepSpeed's default: no zero_optimization section means stage 0. */
  stage: 0,
  offloadOptimizer: 'none',
  offloadParam: 'none',
  /** Most LLM fine-tuning runs in bf16 (ds_config without fp16/bf16 means fp32, and configFacts says so). */
  precision: 'bf16',
  optimizer: 'adamw',
  gpusPerNode: 1,
  nodes: 1,
  microBatch: 1,
  /** DeepSpeed's when train_batch_size does not imply more (config.py, _set_batch_related_parameters). */
  gradientAccumulationSteps: 1,
  seqLen: 2048,
  /** HF Trainer's default is off; ms-swift turns it on. Off is the cautious estimate. */
  gradientCheckpointing: false,
  /** transformers uses SDPA (FlashAttention / memory-efficient kernels) by default: no s×s tensors kept. */
  flashAttention: true,
} as const satisfies Omit<EstimateInput, 'model'>;

export function defaultEstimateInput(model: ModelInfo): EstimateInput {
  return { ...estimateDefaults, model };
}
