import { estimate, estimateAllOptions } from '../memory/estimate';
import { derivableBatchTotal, extractConfigFacts, estimateInputFromFacts, hfAutoBuffers, type ConfigFacts } from '../memory/configFacts';
import type { EstimateInput, EstimateResult, ModelInfo } from '../memory/types';
import { GiB } from '../memory/units';
import type { LaunchFacts } from '../launch/facts';
import type { ZeroLensSettings } from '../settings';
import { findOption, type ConfigAnalysis, type OptionEstimate } from './analysis';
import { currentStageOption, type StageTarget } from './stageSwitch';
import { resolveTrainingContext, type ConfigContextFacts, type ResolvedContext } from './trainingContext';

/** Everything an analysis is made from; the model is already resolved (that part reads files). */
export interface AnalysisInput {
  configPath: string;
  /** The parsed config (a ds_config's value, or a launcher preset's). */
  config: unknown;
  /** Launch commands that use this config. */
  scripts: LaunchFacts[];
  settings: ZeroLensSettings;
  /** Sizes the model the context names (spec as written, folder of the script); the engine passes a cached resolver. */
  resolveModel: (spec: string, baseDir: string | undefined) => Promise<ModelInfo | undefined>;
}

/** What the config says about the context: explicit values, or "auto" for the launcher to fill. */
export function configContextFacts(facts: ConfigFacts): ConfigContextFacts {
  const autoPrecision = facts.auto.some((p) => p === 'fp16.enabled' || p === 'bf16.enabled' || p === 'bfloat16.enabled');
  return {
    microBatch: facts.microBatch?.value ?? (facts.auto.includes('train_micro_batch_size_per_gpu') ? 'auto' : undefined),
    trainBatchSize: derivableBatchTotal(facts)?.value,
    gradientAccumulationSteps: facts.gradientAccumulationSteps?.value ?? (facts.auto.includes('gradient_accumulation_steps') ? 'auto' : undefined),
    // No bf16/fp16 section at all says nothing about what the launcher loads; leave it to the script and settings.
    precision: facts.precision && !facts.precision.implicit ? facts.precision.value : autoPrecision ? 'auto' : undefined,
  };
}

/** The estimate for every option of one config in one context; only the model resolver does I/O. */
export async function buildAnalysis(input: AnalysisInput): Promise<ConfigAnalysis> {
  const facts = extractConfigFacts(input.config);
  const context = resolveTrainingContext({
    configPath: input.configPath,
    scripts: input.scripts,
    settings: input.settings,
    config: configContextFacts(facts),
  });
  const current = currentStageOption(input.config);
  const model = context.model ? await input.resolveModel(context.model.value, context.modelBaseDir) : undefined;
  const missing = [...context.missing];
  let modelProblem: string | undefined;
  if (context.model && !model) {
    modelProblem = `ZeRO Lens cannot size the model "${context.model.value}" (from ${context.model.source}): it is not in the built-in catalog and no local folder or cache has its config.json`;
    if (!missing.includes('model')) missing.unshift('model');
  }
  const gpuMemoryBytes = context.gpuMemoryGiB ? Math.round(context.gpuMemoryGiB.value * GiB) : undefined;
  const base = model && context.gpusPerNode ? estimateInputFor(model, context, facts, current, input.settings, gpuMemoryBytes) : undefined;

  const options: OptionEstimate[] = base
    ? estimateAllOptions(base).map((o) => ({
        target: { stage: o.stage, offloadOptimizer: o.offloadOptimizer, offloadParam: o.offloadParam },
        label: o.label,
        result: o.result,
      }))
    : [];
  const extra = new Map<string, EstimateResult>();
  const estimateOf = (target: StageTarget): EstimateResult | undefined => {
    if (!base) return undefined;
    const listed = findOption(options, target);
    if (listed) return listed.result;
    const key = `${target.stage}/${target.offloadOptimizer}/${target.offloadParam}`;
    let result = extra.get(key);
    if (!result) {
      result = estimate({ ...base, ...target });
      extra.set(key, result);
    }
    return result;
  };
  return { configPath: input.configPath, context, model, modelProblem, current, options, estimate: estimateOf, gpuMemoryBytes, missing };
}

function estimateInputFor(
  model: ModelInfo,
  context: ResolvedContext,
  facts: ConfigFacts,
  current: StageTarget,
  settings: ZeroLensSettings,
  gpuMemoryBytes: number | undefined,
): EstimateInput {
  const fromConfig = estimateInputFromFacts(facts);
  const buffers = { ...fromConfig.buffers };
  // The HF Trainer fills "auto" bucket sizes from hidden_size; without the architecture DeepSpeed's defaults stand.
  const hidden = model.architecture?.hiddenSize;
  if (hidden) {
    const auto = hfAutoBuffers(hidden);
    if (facts.auto.includes('zero_optimization.reduce_bucket_size')) buffers.reduceBucketSize = auto.reduceBucketSize;
    if (facts.auto.some((p) => p.endsWith('prefetch_bucket_size'))) buffers.prefetchBucketSize = auto.prefetchBucketSize;
  }
  const lora = context.lora?.value;
  return {
    ...fromConfig,
    model,
    stage: current.stage,
    offloadOptimizer: current.offloadOptimizer,
    offloadParam: current.offloadParam,
    precision: context.dtype.value,
    optimizer: fromConfig.optimizer ?? 'adamw',
    gpusPerNode: context.gpusPerNode!.value,
    nodes: context.nodes.value,
    gpuMemoryBytes,
    microBatch: context.microBatchSize.value,
    gradientAccumulationSteps: context.gradientAccumulationSteps.value,
    seqLen: context.sequenceLength.value,
    gradientCheckpointing: context.gradientCheckpointing.value,
    // ms-swift, LLaMA-Factory and the HF Trainer use SDPA / FlashAttention kernels by default.
    flashAttention: true,
    lora: lora ? { rank: lora.rank, targetModules: ['all-linear'], quantBits: lora.quantBits } : undefined,
    buffers: Object.keys(buffers).length ? buffers : undefined,
    cudaContextBytes: Math.max(0, settings.cudaContextGiB) * GiB,
    fragmentation: Math.min(1, Math.max(0, settings.fragmentation)),
  };
}
