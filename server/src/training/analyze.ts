import { describeSource, formatCount, GiB, normalizeOption, type Source, type Sourced, type ZeroOption } from '../protocol';
import { estimate, estimateAllOptions } from '../memory/estimate';
import {
  derivableBatchTotal,
  extractConfigFacts,
  estimateInputFromFacts,
  hfAutoBuffers,
  type ConfigFacts,
  type Fact,
} from '../memory/configFacts';
import type { EstimateInput, EstimateResult, LoraSpec, ModelInfo, OptimizerName } from '../memory/types';
import type { LaunchFacts } from '../launch/facts';
import type { ZeroLensSettings } from '../settings';
import { findOption, type ConfigAnalysis, type OptionEstimate } from './analysis';
import { resolveTrainingContext, type ConfigContextFacts, type ContextDefaults, type ContextOverrides, type LoraContext, type TrainingContext } from './context';

/** What the caller decides beyond the training context: the CLI's --stage, --optimizer, --params, overheads. */
export interface EstimateOverrides {
  option?: Partial<Record<keyof ZeroOption, Sourced<ZeroOption[keyof ZeroOption]>>>;
  optimizer?: Sourced<OptimizerName>;
  /** A model given directly (the CLI's --params), instead of resolving the context's name. */
  model?: ModelInfo;
  cudaContextBytes?: Sourced<number>;
  fragmentation?: Sourced<number>;
}

/** Everything an analysis is made from; the model is resolved by the caller's (cached) resolver. */
export interface AnalysisInput {
  configPath: string;
  /** The parsed config (a ds_config's value, or a launcher preset's); undefined for a launch without one. */
  config: unknown;
  /** Launch commands that use this config. */
  scripts: LaunchFacts[];
  settings: ZeroLensSettings;
  context?: ContextOverrides;
  estimate?: EstimateOverrides;
  defaults?: ContextDefaults;
  /** Sizes the model the context names (spec as written, folder of the script). */
  resolveModel: (spec: string, baseDir: string | undefined) => Promise<ModelInfo | undefined>;
  /** Why a model `resolveModel` did not size has no size, beyond "unknown" (restricted mode, a file not read). */
  whyUnsized?: (spec: string, baseDir: string | undefined) => string | undefined;
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

/** Where a config fact came from: the config's key, or a default when the fact follows from what the config leaves out. */
export function configFactSource(configPath: string, fact: Fact<unknown> | undefined): Source {
  return fact && !fact.implicit ? { kind: 'config', file: configPath, key: fact.path } : { kind: 'default' };
}

/** The stage and offload a parsed config describes, as DeepSpeed would run it. */
export function currentOption(config: unknown): ZeroOption {
  return optionFromFacts(extractConfigFacts(config));
}

function optionFromFacts(facts: ConfigFacts): ZeroOption {
  return normalizeOption({ stage: facts.stage?.value ?? 0, offloadOptimizer: facts.offloadOptimizer?.value ?? 'none', offloadParam: facts.offloadParam?.value ?? 'none' });
}

/** The estimate for every option of one config in one context; only the model resolver does I/O. */
export async function analyze(input: AnalysisInput): Promise<ConfigAnalysis> {
  const facts = extractConfigFacts(input.config);
  const context = resolveTrainingContext({
    configPath: input.configPath,
    config: configContextFacts(facts),
    scripts: input.scripts,
    settings: input.settings,
    overrides: input.context,
    defaults: input.defaults,
  });
  const sources: Record<string, Source> = {};
  const fromConfig = (fact: Fact<unknown> | undefined): Source => configFactSource(input.configPath, fact);
  const chosen = input.estimate?.option ?? {};
  const written = optionFromFacts(facts);
  const current = normalizeOption({
    stage: (chosen.stage?.value as ZeroOption['stage'] | undefined) ?? written.stage,
    offloadOptimizer: (chosen.offloadOptimizer?.value as ZeroOption['offloadOptimizer'] | undefined) ?? written.offloadOptimizer,
    offloadParam: (chosen.offloadParam?.value as ZeroOption['offloadParam'] | undefined) ?? written.offloadParam,
  });
  sources.stage = chosen.stage?.source ?? fromConfig(facts.stage);
  sources.offloadOptimizer = chosen.offloadOptimizer?.source ?? fromConfig(facts.offloadOptimizer);
  sources.offloadParam = chosen.offloadParam?.source ?? fromConfig(facts.offloadParam);

  const given = input.estimate?.model;
  const model = given ?? (context.model ? await input.resolveModel(context.model.value, context.modelBaseDir) : undefined);
  const missing = [...context.missing];
  if (given) dropMissing(missing, 'model');
  let modelProblem: string | undefined;
  if (context.model && !model) {
    const why = input.whyUnsized?.(context.model.value, context.modelBaseDir);
    modelProblem = why
      ? `ZeRO Lens did not size the model "${context.model.value}" (from ${describeSource(context.model.source)}): ${why}`
      : `ZeRO Lens cannot size the model "${context.model.value}" (from ${describeSource(context.model.source)}): it is not in the built-in catalog and no local folder or cache has its config.json`;
    if (!missing.includes('model')) missing.unshift('model');
  }
  const gpuMemoryBytes = context.gpuMemoryGiB ? Math.round(context.gpuMemoryGiB.value * GiB) : undefined;
  const notes = [...context.notes, ...unfilledAutoNotes(facts, context)];
  const base = model && context.gpusPerNode ? estimateInputFor(model, context, facts, current, input, gpuMemoryBytes, sources, fromConfig, notes) : undefined;

  const options: OptionEstimate[] = base
    ? estimateAllOptions(base).map((o) => ({ target: { stage: o.stage, offloadOptimizer: o.offloadOptimizer, offloadParam: o.offloadParam }, label: o.label, result: o.result }))
    : [];
  const extra = new Map<string, EstimateResult>();
  const estimateOf = (target: ZeroOption): EstimateResult | undefined => {
    if (!base) return undefined;
    const listed = findOption(options, target);
    if (listed) return listed.result;
    const option = normalizeOption(target);
    const key = `${option.stage}/${option.offloadOptimizer}/${option.offloadParam}`;
    let result = extra.get(key);
    if (!result) {
      result = estimate({ ...base, ...option });
      extra.set(key, result);
    }
    return result;
  };
  return { configPath: input.configPath, context, model, modelProblem, current, options, estimate: estimateOf, input: base, inputSources: sources, gpuMemoryBytes, missing, notes };
}

/** "auto" values nothing in this context fills: the estimate assumes a default, and says so. */
function unfilledAutoNotes(facts: ConfigFacts, context: TrainingContext): string[] {
  const notes: string[] = [];
  const unfilled = (value: Sourced<unknown>) => value.source.kind === 'default' && value.source.forAuto;
  const say = (path: string, value: unknown) => notes.push(`${path} is "auto" and nothing here fills it (the trainer does at launch); the estimate assumes ${String(value)}.`);
  if (unfilled(context.microBatchSize)) say('train_micro_batch_size_per_gpu', context.microBatchSize.value);
  if (unfilled(context.gradientAccumulationSteps)) say('gradient_accumulation_steps', context.gradientAccumulationSteps.value);
  if (unfilled(context.dtype)) say(facts.auto.find((p) => p.endsWith('.enabled')) ?? 'bf16.enabled', context.dtype.value);
  return notes;
}

function dropMissing(missing: string[], what: string): void {
  const at = missing.indexOf(what);
  if (at >= 0) missing.splice(at, 1);
}

/** The estimator's input for the current option, each value's source recorded in `sources`. */
function estimateInputFor(
  model: ModelInfo,
  context: TrainingContext,
  facts: ConfigFacts,
  current: ZeroOption,
  input: AnalysisInput,
  gpuMemoryBytes: number | undefined,
  sources: Record<string, Source>,
  fromConfig: (fact: Fact<unknown> | undefined) => Source,
  notes: string[],
): EstimateInput {
  const settings = input.settings;
  const over = input.estimate ?? {};
  const configured = estimateInputFromFacts(facts);
  const buffers = { ...configured.buffers };
  for (const [key, fact] of Object.entries(facts.buffers)) sources[key] = fromConfig(fact);
  // The HF Trainer fills "auto" bucket sizes from hidden_size; without the architecture DeepSpeed's defaults stand.
  const hidden = model.architecture?.hiddenSize;
  if (hidden) {
    const auto = hfAutoBuffers(hidden);
    for (const [suffix, key] of [['.reduce_bucket_size', 'reduceBucketSize'], ['prefetch_bucket_size', 'prefetchBucketSize']] as const) {
      // stage3_prefetch_bucket_size or its short alias prefetch_bucket_size
      const path = facts.auto.find((p) => p.startsWith('zero_optimization.') && p.endsWith(suffix));
      if (!path) continue;
      buffers[key] = auto[key];
      sources[key] = { kind: 'config', file: input.configPath, key: path };
      notes.push(`${path} is "auto": the HF Trainer fills ${formatCount(auto[key]!)} from hidden_size ${hidden}.`);
    }
  }
  for (const key of ['bf16MasterWeightsAndGrads', 'bf16OptimizerStates', 'fp32GradAccum', 'pinMemory'] as const) {
    if (configured[key] !== undefined) sources[key] = fromConfig(facts[key]);
  }
  const lora = context.lora?.value;
  const cudaContextBytes = over.cudaContextBytes ?? settingOrDefault(settings, 'cudaContextGiB', Math.max(0, settings.cudaContextGiB) * GiB, 1 * GiB);
  const fragmentation = over.fragmentation ?? settingOrDefault(settings, 'fragmentation', Math.min(1, Math.max(0, settings.fragmentation)), 0.1);
  const optimizer: Sourced<OptimizerName> = over.optimizer ?? (facts.optimizer ? { value: facts.optimizer.value, source: fromConfig(facts.optimizer) } : { value: 'adamw', source: { kind: 'default' } });
  Object.assign(sources, {
    precision: context.dtype.source,
    optimizer: optimizer.source,
    gpusPerNode: context.gpusPerNode!.source,
    nodes: context.nodes.source,
    microBatch: context.microBatchSize.source,
    gradientAccumulationSteps: context.gradientAccumulationSteps.source,
    seqLen: context.sequenceLength.source,
    gradientCheckpointing: context.gradientCheckpointing.source,
    flashAttention: { kind: 'default' },
    cudaContextBytes: cudaContextBytes.source,
    fragmentation: fragmentation.source,
    gpuMemoryBytes: context.gpuMemoryGiB?.source ?? { kind: 'default' },
    model: model.source,
  } satisfies Record<string, Source>);
  if (context.lora) sources.lora = context.lora.source;
  return {
    ...configured,
    model,
    ...current,
    precision: context.dtype.value,
    optimizer: optimizer.value,
    gpusPerNode: context.gpusPerNode!.value,
    nodes: context.nodes.value,
    gpuMemoryBytes,
    microBatch: context.microBatchSize.value,
    gradientAccumulationSteps: context.gradientAccumulationSteps.value,
    seqLen: context.sequenceLength.value,
    gradientCheckpointing: context.gradientCheckpointing.value,
    // ms-swift, LLaMA-Factory and the HF Trainer use SDPA / FlashAttention kernels by default.
    flashAttention: true,
    lora: lora ? loraSpec(lora) : undefined,
    buffers: Object.keys(buffers).length ? buffers : undefined,
    cudaContextBytes: cudaContextBytes.value,
    fragmentation: fragmentation.value,
  };
}

function loraSpec(lora: LoraContext): LoraSpec {
  const spec: LoraSpec = { rank: lora.rank, targetModules: lora.targetModules ?? ['all-linear'], quantBits: lora.quantBits };
  if (lora.doubleQuant) spec.doubleQuant = true;
  return spec;
}

/** A zeroLens.* overhead setting: from the settings when the user changed it, else the modelled default. */
function settingOrDefault(settings: ZeroLensSettings, name: 'cudaContextGiB' | 'fragmentation', value: number, defaultValue: number): Sourced<number> {
  return { value, source: value === defaultValue || settings[name] === undefined ? { kind: 'default' } : { kind: 'setting', name } };
}
