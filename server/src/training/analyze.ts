import { describeSource, formatCount, GiB, normalizeOption, sameOption, type AlternativeOption, type Source, type Sourced, type Translate, type ZeroOption } from '../protocol';
import { translator } from '../l10n';
import { estimate, estimateAllOptions, estimateFsdpOptions, sameFsdp } from '../memory/estimate';
import { fsdpDefaults } from '../memory/fsdp';
import { parallelLabel } from '../memory/modelParallel';
import {
  derivableBatchTotal,
  extractConfigFacts,
  estimateInputFromFacts,
  hfAutoBuffers,
  type ConfigFacts,
  type Fact,
} from '../memory/configFacts';
import type { EstimateInput, EstimateResult, ExtraModel, LoraSpec, ModelInfo, ModelParallelSpec, OptimizerKernel, OptimizerName, RolloutSpec, TrainingEngine, ZeroStage } from '../memory/types';
import { optimizerFromName } from '../memory/optimizers';
import { approximateNote, modelDisplayName } from '../memory/nameSize';
import { sameAsTrainedModel, type LaunchFacts } from '../launch/facts';
import type { ZeroLensSettings } from '../settings';
import { findOption, type ConfigAnalysis, type OptionEstimate } from './analysis';
import { groupRelativeTypes, onlineTypes, resolveTrainingContext, sequencesPerSample, type ConfigContextFacts, type ContextDefaults, type ContextOverrides, type LoraContext, type RlhfContext, type TrainingContext } from './context';

/** What the caller decides beyond the training context: the CLI's --stage, --optimizer, --params, overheads. */
export interface EstimateOverrides {
  option?: Partial<Record<keyof ZeroOption, Sourced<ZeroOption[keyof ZeroOption]>>>;
  optimizer?: Sourced<OptimizerName>;
  /** A model given directly (the CLI's --params), instead of resolving the context's name. */
  model?: ModelInfo;
  cudaContextBytes?: Sourced<number>;
  fragmentation?: Sourced<number>;
  /** Plain PyTorch instead of DeepSpeed (the CLI's --ddp). */
  engine?: Sourced<TrainingEngine>;
  /** The optimizer's kernel (the CLI's --optimizer adamw_torch_fused); otherwise from the config or the trainer's --optim. */
  optimizerKernel?: Sourced<OptimizerKernel>;
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
  /**
   * Sizes the model the context names (spec as written, folder of the script). Absent: the model is not looked up
   * (a launch without a readable DeepSpeed config is not estimated), so nothing says it cannot be sized.
   */
  resolveModel?: (spec: string, baseDir: string | undefined) => Promise<ModelInfo | undefined>;
  /** Why a model `resolveModel` did not size has no size, beyond "unknown" (restricted mode, a file not read). */
  whyUnsized?: (spec: string, baseDir: string | undefined, t: Translate) => string | undefined;
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

/** Whether a config has an optimizer block, of any type: DeepSpeed then builds it instead of the trainer. */
function buildsOptimizer(config: unknown): boolean {
  const block = config && typeof config === 'object' ? (config as { optimizer?: unknown }).optimizer : undefined;
  return !!block && typeof block === 'object';
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
  // Every text of an analysis is in the reader's language: analyses are cached per settings, locale included.
  const t = translator(input.settings.locale);
  const facts = extractConfigFacts(input.config);
  const context = resolveTrainingContext({
    configPath: input.configPath,
    config: { ...configContextFacts(facts), buildsOptimizer: buildsOptimizer(input.config) },
    withoutDeepSpeed: input.config === undefined,
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
  const resolved = given ?? (context.model && input.resolveModel ? await input.resolveModel(context.model.value, context.modelBaseDir) : undefined);
  // The resolver's model is shared by every locale: a size read off the name is labelled in this one.
  const model = resolved?.approximate ? { ...resolved, displayName: modelDisplayName(resolved, t) } : resolved;
  const missing = [...context.missing];
  if (given) dropMissing(missing, 'model');
  let modelProblem: string | undefined;
  if (context.model && !model && input.resolveModel) {
    const why = input.whyUnsized?.(context.model.value, context.modelBaseDir, t);
    const from = describeSource(context.model.source, t);
    modelProblem = why
      ? t('ZeRO Lens did not size the model "{0}" (from {1}): {2}', context.model.value, from, why)
      : t('ZeRO Lens cannot size the model "{0}" (from {1}): it is not in the built-in catalog and no local folder or cache has its config.json', context.model.value, from);
    if (!missing.includes('model')) missing.unshift('model');
  }
  const gpuMemoryBytes = context.gpuMemoryGiB ? Math.round(context.gpuMemoryGiB.value * GiB) : undefined;
  const notes = [...context.notes, ...unfilledAutoNotes(facts, context, t)];
  // A size read off the name is never shown silently: every surface that lists the notes says how to get an exact one.
  if (model?.approximate) notes.push(approximateNote(model.approximate, t));
  const extras = model && context.gpusPerNode ? await extraModelsFor(context, model, input, current.stage, notes, t) : [];
  const base = model && context.gpusPerNode ? estimateInputFor(model, context, facts, current, input, gpuMemoryBytes, sources, fromConfig, notes, extras, t) : undefined;

  const options: OptionEstimate[] = base
    ? estimateAllOptions(base, t).map((o) => ({ target: { stage: o.stage, offloadOptimizer: o.offloadOptimizer, offloadParam: o.offloadParam }, label: o.label, result: o.result }))
    : [];
  const alternatives = base ? alternativeOptions(base, t) : [];
  // Under FSDP or Megatron the run as written is the current alternative, not a ZeRO row.
  const running = alternatives.find((a) => a.current);
  const extra = new Map<string, EstimateResult>();
  const estimateOf = (target: ZeroOption): EstimateResult | undefined => {
    if (!base) return undefined;
    if (running && sameOption(target, current)) return running.result;
    const listed = findOption(options, target);
    if (listed) return listed.result;
    const option = normalizeOption(target);
    const key = `${option.stage}/${option.offloadOptimizer}/${option.offloadParam}`;
    let result = extra.get(key);
    if (!result) {
      result = estimate({ ...base, ...option }, t);
      extra.set(key, result);
    }
    return result;
  };
  const engine = base?.engine ?? engineOf(input, context, t).engine.value;
  return { configPath: input.configPath, context, model, modelProblem, current, options, engine, alternatives, estimate: estimateOf, input: base, inputSources: sources, gpuMemoryBytes, missing, notes };
}

/** The FSDP strategies for the same job, and the Megatron layout when the run is Megatron's; the run's own one is current. */
function alternativeOptions(base: EstimateInput, t: Translate): AlternativeOption[] {
  const out: AlternativeOption[] = [];
  if (base.engine === 'megatron' && base.modelParallel) {
    out.push({ family: 'megatron', label: parallelLabel(base.modelParallel), current: true, result: estimate(base, t) });
  }
  const own = base.engine === 'fsdp' ? fsdpDefaults(base.fsdp) : undefined;
  for (const o of estimateFsdpOptions(base, t)) {
    out.push({ family: 'fsdp', label: o.label, strategy: o.spec.strategy, offloadParams: o.spec.offloadParams, current: !!own && sameFsdp(o.spec, own), result: o.result });
  }
  return out;
}

/** "auto" values nothing in this context fills: the estimate assumes a default, and says so. */
function unfilledAutoNotes(facts: ConfigFacts, context: TrainingContext, t: Translate): string[] {
  const notes: string[] = [];
  const unfilled = (value: Sourced<unknown>) => value.source.kind === 'default' && value.source.forAuto;
  const say = (path: string, value: unknown) => notes.push(t('{0} is "auto" and nothing here fills it (the trainer does at launch); the estimate assumes {1}.', path, String(value)));
  if (unfilled(context.microBatchSize)) say('train_micro_batch_size_per_gpu', context.microBatchSize.value);
  if (unfilled(context.gradientAccumulationSteps)) say('gradient_accumulation_steps', context.gradientAccumulationSteps.value);
  if (unfilled(context.dtype)) say(facts.auto.find((p) => p.endsWith('.enabled')) ?? 'bf16.enabled', context.dtype.value);
  return notes;
}

function dropMissing(missing: string[], what: string): void {
  const at = missing.indexOf(what);
  if (at >= 0) missing.splice(at, 1);
}

/**
 * What runs the job: FSDP or Megatron where the launch runs them (and no DeepSpeed config competes: accelerate
 * prefers DeepSpeed) or where the caller asks for them (the CLI's --fsdp, --tp/--pp); plain PyTorch for a script
 * without a DeepSpeed config; else DeepSpeed. Known without the model, so a table without numbers marks the right run.
 */
function engineOf(input: AnalysisInput, context: TrainingContext, t: Translate) {
  const workload = context.workload;
  const fsdp = workload.fsdp && (input.config === undefined || workload.fsdp.source.kind === 'cli') ? workload.fsdp : undefined;
  const parallel = workload.modelParallel;
  const megatron = parallel?.value.kind === 'megatron' && (input.config === undefined || parallel.source.kind === 'cli') ? parallel : undefined;
  const engine: Sourced<TrainingEngine> =
    input.estimate?.engine ??
    (fsdp ? { value: 'fsdp', source: fsdp.source } : undefined) ??
    (megatron ? { value: 'megatron', source: megatron.source } : undefined) ??
    (workload.ddp?.value ? { value: 'torch', source: workload.ddp.source } : undefined) ??
    (input.config === undefined && context.script ? { value: 'torch', source: { kind: 'launcher-default', file: context.script, rule: t('no DeepSpeed config: plain PyTorch') } } : { value: 'deepspeed', source: { kind: 'default' } });
  return { engine, fsdp, megatron };
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
  extraModels: ExtraModel[],
  t: Translate,
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
      notes.push(t('{0} is "auto": the HF Trainer fills {1} from hidden_size {2}.', path, formatCount(auto[key]!), hidden));
    }
  }
  for (const key of ['bf16MasterWeightsAndGrads', 'bf16OptimizerStates', 'fp32GradAccum', 'pinMemory'] as const) {
    if (configured[key] !== undefined) sources[key] = fromConfig(facts[key]);
  }
  const lora = context.lora?.value;
  // Both overrides of the modelled defaults: undefined unless the caller or a setting gives them.
  const cudaContextBytes =
    over.cudaContextBytes ?? (typeof settings.cudaContextGiB === 'number' ? { value: Math.max(0, settings.cudaContextGiB) * GiB, source: { kind: 'setting', name: 'cudaContextGiB' } as Source } : undefined);
  const fragmentation =
    over.fragmentation ?? (typeof settings.fragmentation === 'number' ? { value: Math.min(1, Math.max(0, settings.fragmentation)), source: { kind: 'setting', name: 'fragmentation' } as Source } : undefined);
  const workload = context.workload;
  const trainerOptim = workload.optimizer;
  const trainerOptimizer = trainerOptim ? optimizerFromName(trainerOptim.value) : undefined;
  const optimizer: Sourced<OptimizerName> =
    over.optimizer ??
    (facts.optimizer ? { value: facts.optimizer.value, source: fromConfig(facts.optimizer) } : undefined) ??
    (trainerOptim && trainerOptimizer ? { value: trainerOptimizer, source: trainerOptim.source } : { value: 'adamw', source: { kind: 'default' } });
  // DeepSpeed builds FusedAdam (DeepSpeedCPUAdam under offload) from a config's optimizer block (engine.py:2095-2140);
  // without one the trainer's optimizer runs: torch's fused AdamW when named so, bitsandbytes' 8-bit kernels, else
  // foreach (unknown: counted as foreach, which errs high).
  const optimizerKernel: Sourced<OptimizerKernel> | undefined =
    over.optimizerKernel ??
    (facts.optimizer && !(input.config as { optimizer?: { params?: { torch_adam?: boolean } } } | undefined)?.optimizer?.params?.torch_adam
      ? { value: 'fused', source: fromConfig(facts.optimizer) }
      : trainerOptim
        ? { value: /fused|8bit|bnb/i.test(trainerOptim.value) ? 'fused' : 'foreach', source: trainerOptim.source }
        : undefined);
  const { engine, fsdp, megatron } = engineOf(input, context, t);
  const parallel = context.workload.modelParallel;
  const autotp: Sourced<ModelParallelSpec> | undefined =
    parallel?.value.kind === 'autotp' ? parallel : facts.autotpSize ? { value: { kind: 'autotp', tp: facts.autotpSize.value, pp: 1, cp: 1, ep: 1 }, source: fromConfig(facts.autotpSize) } : undefined;
  // ms-swift freezes the towers (--freeze_vit) and, on its own flag, the aligner (--freeze_aligner, both default true:
  // ms-swift 3602360 swift/arguments/tuner_args.py:123-124, :210-215); elsewhere the projector follows the tower. MTP layers are not loaded.
  const partParams = (kinds: string[]) => (model.architecture?.parts ?? []).filter((p) => p.loaded !== false && kinds.includes(p.kind)).reduce((sum, p) => sum + p.params, 0);
  const alignerFrozen = workload.freezeAligner ?? workload.freezeVit;
  // --freeze_llm freezes what is not a tower, aligner or generator: the language model, in a multimodal model only
  // (ms-swift 3602360a tuner_args.py:197-209 returns for a text model).
  const allParts = partParams(['vision', 'audio', 'projector', 'speech', 'mtp']);
  const llmFrozen = workload.freezeLlm?.value && (model.architecture?.parts ?? []).length ? workload.freezeLlm : undefined;
  const frozen = (workload.freezeVit?.value ? partParams(['vision', 'audio']) : 0) + (alignerFrozen?.value ? partParams(['projector']) : 0) + (llmFrozen ? model.totalParams - allParts : 0);
  const frozenParams = frozen > 0 ? frozen : undefined;
  if (lora?.skipsLlm && llmFrozen) notes.push(loraSkipsLlmNote(llmFrozen.source, !!workload.freezeVit?.value && !!alignerFrozen?.value, t));
  const rlhf = workload.rlhf?.value;
  // GRPO/PPO train on prompt + completion where the sequence length is the prompt's (context.ts, onlineTypes).
  const promptLength = rlhf?.rollout?.promptLength;
  const rowLength = promptLength !== undefined ? promptLength + rlhf!.rollout!.completionLength : context.sequenceLength.value;
  const rollout: RolloutSpec | undefined = rlhf?.rollout
    ? {
        engine: rlhf.rollout.engine,
        gpuMemoryUtilization: rlhf.rollout.gpuMemoryUtilization ?? (rlhf.rollout.engine === 'vllm-colocate' ? 0.9 : undefined),
        sleepLevel: rlhf.rollout.sleepLevel,
        offloadModel: rlhf.rollout.offloadModel,
        offloadOptimizer: rlhf.rollout.offloadOptimizer,
        // GRPO's transformers generate completes the whole generation batch in one call, micro-batch × steps_per_generation
        // (default the accumulation): trl f2cd577 grpo_trainer.py:1230, :1861, grpo_config.py:1077-1079; ms-swift
        // 3602360 args_mixin.py:205-207, rollout_mixin.py:394 TransformersEngine(max_batch_size=0). vLLM batches itself.
        sequences:
          context.microBatchSize.value *
          (groupRelativeTypes.has(rlhf.type) && rlhf.rollout.engine === 'generate' ? (rlhf.rollout.stepsPerGeneration ?? context.gradientAccumulationSteps.value) : 1),
        // GKD's rollout completes a prompt of the sequence length; online RL's rows are what it generated.
        sequenceLength: onlineTypes.has(rlhf.type) ? rowLength : context.sequenceLength.value + rlhf.rollout.completionLength,
      }
    : undefined;
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
    cudaContextBytes: cudaContextBytes?.source ?? { kind: 'default' },
    fragmentation: fragmentation?.source ?? { kind: 'default' },
    gpuMemoryBytes: context.gpuMemoryGiB?.source ?? { kind: 'default' },
    model: model.source,
    engine: engine.source,
  } satisfies Record<string, Source>);
  if (context.lora) sources.lora = context.lora.source;
  if (fsdp && engine.value === 'fsdp') sources.fsdp = fsdp.source;
  const modelParallel = engine.value === 'megatron' ? megatron : engine.value === 'deepspeed' ? autotp : undefined;
  if (modelParallel) sources.modelParallel = modelParallel.source;
  if (optimizerKernel) sources.optimizerKernel = optimizerKernel.source;
  const workloadKeys = { loss: 'loss', attention: 'attention', packing: 'packing', paddingFree: 'paddingFree', fixedLength: 'fixedLength', sequenceParallel: 'sequenceParallel', torchDtype: 'torchDtype' } as const;
  for (const [key, field] of Object.entries(workloadKeys)) {
    const value = workload[key as keyof typeof workloadKeys];
    if (value) sources[field] = value.source;
  }
  if (frozenParams) sources.frozenParams = (llmFrozen ?? (workload.freezeVit?.value ? workload.freezeVit : alignerFrozen))!.source;
  if (workload.rlhf) {
    sources.extraModels = workload.rlhf.source;
    if (rollout) sources.rollout = workload.rlhf.source;
    sources.sequencesPerSample = workload.rlhf.source;
    if (grpoLogits(rlhf, rowLength) !== undefined) sources.lossTokens = workload.rlhf.source;
  }
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
    seqLen: rowLength,
    gradientCheckpointing: context.gradientCheckpointing.value,
    // ms-swift, LLaMA-Factory and the HF Trainer use SDPA / FlashAttention kernels by default.
    flashAttention: true,
    attention: workload.attention?.value,
    // TRL's preference and RL trainers take per-token log-probabilities, not transformers' upcast loss.
    loss: workload.loss?.value ?? (rlhf && logprobTrainers.has(rlhf.type) ? 'logprobs' : rlhf?.type === 'gkd' ? 'jsd' : undefined),
    // GKD's divergence runs over the completion only (its masked copies), where the script says how long it is.
    lossTokens: rlhf?.type === 'gkd' && rlhf.rollout?.completionStated ? Math.min(context.sequenceLength.value, rlhf.rollout.completionLength) : grpoLogits(rlhf, rowLength),
    packing: workload.packing?.value,
    paddingFree: workload.paddingFree?.value,
    fixedLength: workload.fixedLength?.value,
    sequenceParallel: workload.sequenceParallel?.value,
    torchDtype: engine.value === 'torch' || engine.value === 'fsdp' ? workload.torchDtype?.value : undefined,
    engine: engine.value,
    fsdp: engine.value === 'fsdp' ? fsdp?.value : undefined,
    modelParallel: modelParallel?.value,
    ddp: engine.value === 'torch' && context.gpusPerNode!.value * context.nodes.value > 1,
    optimizerKernel: optimizerKernel?.value,
    pagedOptimizer: /paged/i.test(workload.optimizer?.value ?? '') || undefined,
    frozenParams,
    extraModels: extraModels.length ? extraModels : undefined,
    rollout,
    sequencesPerSample: sequencesPerSample(rlhf),
    lora: lora ? loraSpec(lora, !!(lora.skipsLlm && llmFrozen)) : undefined,
    buffers: Object.keys(buffers).length ? buffers : undefined,
    cudaContextBytes: cudaContextBytes?.value,
    fragmentation: fragmentation?.value,
  };
}

/**
 * GRPO computes logits for the completion only: TRL passes logits_to_keep = the completion's length (+1)
 * (trl f2cd577 trl/trainer/grpo_trainer.py:2433, :1502), ms-swift collates with use_logits_to_keep=True (3602360
 * swift/rlhf_trainers/grpo_trainer.py:759).
 */
function grpoLogits(rlhf: RlhfContext | undefined, rowLength: number): number | undefined {
  return rlhf && groupRelativeTypes.has(rlhf.type) && rlhf.rollout ? Math.min(rowLength, rlhf.rollout.completionLength + 1) : undefined;
}

/** Trainers whose loss works on per-token log-probabilities (trl/trainer/utils.py, selective_log_softmax). */
const logprobTrainers = new Set(['dpo', 'kto', 'orpo', 'simpo', 'cpo', 'ppo', 'grpo', 'rloo']);

/** The models an RLHF or distillation command holds besides the trained one, sized by the same resolver. */
async function extraModelsFor(context: TrainingContext, model: ModelInfo, input: AnalysisInput, actorStage: number, notes: string[], t: Translate): Promise<ExtraModel[]> {
  const rlhf = context.workload.rlhf?.value;
  if (!rlhf) return [];
  const sized = async (spec: string | undefined): Promise<ModelInfo | undefined> => {
    if (!spec) return undefined;
    if (spec === context.model?.value || spec === sameAsTrainedModel) return model;
    const found = await input.resolveModel?.(spec, context.modelBaseDir);
    if (!found) notes.push(t('ZeRO Lens cannot size "{0}" ({1}); it is left out of the estimate.', spec, rlhf.type));
    return found;
  };
  const out: ExtraModel[] = [];
  const reference = await sized(rlhf.referenceModel);
  if (reference) out.push({ role: 'reference', model: reference, ...rlhf.placement?.reference });
  const ema = await sized(rlhf.emaModel);
  if (ema) out.push({ role: 'reference', model: ema, ...rlhf.placement?.reference });
  const reward = await sized(rlhf.rewardModel);
  if (reward) out.push({ role: 'reward', model: reward, ...rlhf.placement?.reward });
  dschatCriticNotes(rlhf, actorStage, notes, t);
  const value = await sized(rlhf.valueModel);
  if (value) out.push({ role: 'value', model: value, trainable: true, stage: rlhf.criticStage as ZeroStage | undefined });
  const teacher = await sized(rlhf.teacherModel);
  if (teacher) out.push({ role: 'teacher', model: teacher, sharded: rlhf.teacherSharded, offloaded: rlhf.teacherOffloaded });
  return out;
}

/**
 * What DeepSpeed-Chat step 3's estimate should say (launch/launchers/deepspeedChat.ts): a critic below the actor's
 * stage is counted apart, at its own; the hybrid engine's generation is not modelled.
 */
function dschatCriticNotes(rlhf: RlhfContext, actorStage: number, notes: string[], t: Translate): void {
  if (rlhf.criticStage !== undefined && rlhf.criticStage < actorStage) {
    notes.push(t("The critic runs ZeRO-{0}, the actor ZeRO-{1}: the critic's weights, gradients and optimizer states are counted at ZeRO-{0} among the other models.", rlhf.criticStage, actorStage));
  }
  if (rlhf.hybridEngine) notes.push(t("DeepSpeed's hybrid engine is not counted: its generation can take more than this estimate's rollout."));
  if (rlhf.rewardModel === sameAsTrainedModel) {
    notes.push(t("The critic's model comes from a variable the script does not set: the critic and the reward model are counted at the trained model's size, which errs high when they are smaller."));
  }
}

/**
 * ms-swift's all-linear under --freeze_llm wraps only what is left unfrozen, the vision tower and the aligner, whose adapters
 * the estimate does not size; with both frozen too it finds no module and stops (ms-swift 3602360a
 * swift/utils/transformers_utils.py:219-225, `assert len(modules) > 0`).
 */
function loraSkipsLlmNote(source: Source, nothingLeft: boolean, t: Translate): string {
  const where = describeSource(source, t);
  return nothingLeft
    ? t('--freeze_llm ({0}) with the vision tower and aligner frozen leaves ms-swift\'s all-linear no module: ms-swift stops (AssertionError).', where)
    : t('--freeze_llm ({0}): ms-swift puts no LoRA adapters on the language model, only on the unfrozen vision tower or aligner, which are not counted.', where);
}

/** `skipsLlm`: the decoder layers, all the estimate's adapters sit on, get none (ms-swift --freeze_llm, multimodal). */
function loraSpec(lora: LoraContext, skipsLlm: boolean): LoraSpec {
  // [] : the wrapped linears are not known; all-linear errs high on adapters, none wrapped on a base that trains.
  const targets = skipsLlm ? [] : lora.targetModules?.length ? lora.targetModules : lora.targetModules && lora.baseTrains ? [] : ['all-linear'];
  const spec: LoraSpec = { rank: lora.rank, targetModules: targets, quantBits: lora.quantBits };
  if (lora.doubleQuant) spec.doubleQuant = true;
  if (lora.dropout) spec.dropout = lora.dropout;
  if (lora.baseTrains) spec.baseTrains = true;
  return spec;
}


