import { configName, describeSource, english, joinList, formatGpuCount, type ContextValues, type Translate, type MissingInput, type Precision, type Source, type Sourced } from '../protocol';
import type { AttentionImpl, FsdpSpec, LossKernel, ModelParallelSpec } from '../memory/types';
import type { ZeroLensSettings } from '../settings';
import { factVia, type BranchDependent, type ExtraPlacement, type Fact, type LaunchFacts } from '../launch/facts';
import { baseName, dirName, pathOf } from '../util/paths';
import { derivedGradientAccumulation, derivedMicroBatch } from '../memory/configFacts';
import { deepspeedSubcommands } from '../launch/launchers/swift';
import { pluginReader } from '../launch/deepspeedPlugin';
import { translator } from '../l10n';
import { loraTuners, unmodelledNotes } from './unmodelled';

/**
 * The training context of one run: which model, how many GPUs, what batch and sequence. Resolved from, in
 * order, what the caller overrides (the CLI's flags), the config's explicit numbers where DeepSpeed reads them
 * first, the launch script, the zeroLens.* settings and the defaults, with the origin of every value recorded
 * so the user can see (and fix) where a number came from. Pure: the callers read the files.
 */

/** What the config itself says about the context; "auto" means a launcher fills it. */
export interface ConfigContextFacts {
  microBatch?: number | 'auto';
  /** Explicit numbers, from which DeepSpeed derives the micro-batch when the config does not give it. */
  trainBatchSize?: number;
  gradientAccumulationSteps?: number | 'auto';
  precision?: Precision | 'auto';
  /** The config has an optimizer block: DeepSpeed builds that optimizer, not the trainer's. */
  buildsOptimizer?: boolean;
}

export interface LoraContext {
  rank: number;
  /** lora_dropout; a rate > 0 keeps dropped copies of the adapted linears' inputs. */
  dropout?: number;
  quantBits?: 4 | 8;
  /** QLoRA's double quantisation of the NF4 scales. */
  doubleQuant?: boolean;
  targetModules?: string[];
  /** Every weight but the wrapped linears' trains too (DeepSpeed-Chat without --only_optimize_lora). */
  baseTrains?: boolean;
  /** ms-swift's all-linear under --freeze_llm: no adapters on a multimodal model's language model. */
  skipsLlm?: boolean;
}

/** The extra models and rollout of an RLHF or distillation command, as the command states them. */
export interface RlhfContext {
  /** dpo, kto, orpo, simpo, cpo, rm, ppo, grpo, gkd (ms-swift's names; TRL's trainers use the same). */
  type: string;
  /** The frozen reference model (the model itself for full-parameter DPO/KTO/PPO/GRPO in ms-swift). */
  referenceModel?: string;
  /** KL coefficient; GRPO with beta 0 keeps no reference model. */
  beta?: number;
  rewardModel?: string;
  /** A trained value model (PPO: ms-swift starts it from the reward model; OpenRLHF --critic_pretrain). */
  valueModel?: string;
  teacherModel?: string;
  /** The teacher's DeepSpeed config shards it (ZeRO-3) / offloads it to CPU (zero3_offload). */
  teacherSharded?: boolean;
  teacherOffloaded?: boolean;
  /** Generation: vLLM colocated on the training GPUs, vLLM elsewhere, or transformers' generate. */
  /** `completionStated`: the completion length is written (--max_completion_length), not the 512 default. */
  /** `promptLength`: the rows GRPO/PPO train on are this prompt + the completion; absent, the sequence length is the whole row. */
  rollout?: { engine: 'vllm-colocate' | 'vllm-server' | 'generate'; gpuMemoryUtilization?: number; sleepLevel?: number; offloadModel?: boolean; offloadOptimizer?: boolean; completionLength: number; completionStated?: boolean; generations?: number; promptLength?: number; stepsPerGeneration?: number };
  /** Where the reference and reward models sit when the command decides it (DeepSpeed-Chat step 3); else the run's stage. */
  placement?: { reference: ExtraPlacement; reward: ExtraPlacement };
  /** A frozen EMA copy of the trained model (DeepSpeed-Chat --enable_ema). */
  emaModel?: string;
  /** DeepSpeed-Chat step 3: the critic's own ZeRO stage, the hybrid engine's generation. */
  criticStage?: number;
  hybridEngine?: boolean;
}

/** What the run computes and how (docs/memory-model.md §7), each with its source; absent means the default. */
export interface WorkloadContext {
  loss?: Sourced<LossKernel>;
  attention?: Sourced<AttentionImpl>;
  packing?: Sourced<boolean>;
  paddingFree?: Sourced<boolean>;
  /** Every step has exactly the sequence length (synthetic or pre-packed data). */
  fixedLength?: Sourced<boolean>;
  sequenceParallel?: Sourced<number>;
  /** The dtype the weights are loaded in, apart from the compute precision. */
  torchDtype?: Sourced<Precision>;
  /** The vision tower is frozen (multimodal models). */
  freezeVit?: Sourced<boolean>;
  /** The projector frozen (ms-swift `--freeze_aligner`); absent, it follows freezeVit. */
  freezeAligner?: Sourced<boolean>;
  /** The language model frozen (ms-swift `--freeze_llm`, multimodal full fine-tuning). */
  freezeLlm?: Sourced<boolean>;
  /** Plain DistributedDataParallel, no DeepSpeed. */
  ddp?: Sourced<boolean>;
  /** PyTorch FSDP instead of DeepSpeed: accelerate's `distributed_type: FSDP`, the Trainer's or ms-swift's `--fsdp`, the CLI's `--fsdp`. */
  fsdp?: Sourced<FsdpSpec>;
  /** Megatron's TP/PP/CP/EP (`megatron sft`), or DeepSpeed AutoTP (`autotp_size`). */
  modelParallel?: Sourced<ModelParallelSpec>;
  /** The optimizer as the trainer names it (`adamw_torch_fused`, `paged_adamw_8bit`). */
  optimizer?: Sourced<string>;
  rlhf?: Sourced<RlhfContext>;
}

export interface TrainingContext extends ContextValues {
  /** The model as the user named it (hub id or folder); resolved to a size elsewhere. */
  model?: Sourced<string>;
  /** Folder a relative model path is resolved against: the script's for a model it names; unset for zeroLens.model (its workspace folder). */
  modelBaseDir?: string;
  gradientAccumulationSteps: Sourced<number>;
  /** Present when adapters are trained instead of the full model. */
  lora?: Sourced<LoraContext>;
  /** Kernels, data layout, precision path and extra models; every value optional, with its source. */
  workload: WorkloadContext;
  /** The script the context came from, when one launches the config. */
  script?: string;
  /** What is unknown: "model" and "gpusPerNode" block numbers, "gpuMemoryGiB" only the fit check. */
  missing: MissingInput[];
  /** Plain-language remarks, e.g. that several scripts reference the config. */
  notes: string[];
}

/** Values that win over everything the files and settings say (the CLI's flags); a LoRA rank of 0 means full fine-tuning. */
export type ContextOverrides = Partial<
  Pick<TrainingContext, 'model' | 'gpusPerNode' | 'nodes' | 'gpuMemoryGiB' | 'sequenceLength' | 'microBatchSize' | 'gradientAccumulationSteps' | 'gradientCheckpointing' | 'lora' | 'dtype'>
> & { workload?: WorkloadContext };

/**
 * What is assumed when nothing says otherwise. Where no launcher is known the editor assumes gradient
 * checkpointing (ms-swift and LLaMA-Factory turn it on) and leaves the GPU count unknown; the CLI without a
 * file keeps its documented defaults (one GPU, checkpointing off).
 */
export interface ContextDefaults {
  sequenceLength: number;
  microBatchSize: number;
  gradientCheckpointing: boolean;
  dtype: Precision;
  nodes: number;
  gpusPerNode?: number;
}

export const editorDefaults: ContextDefaults = {
  sequenceLength: 2048,
  microBatchSize: 1,
  gradientCheckpointing: true,
  dtype: 'bf16',
  nodes: 1,
};

export interface ContextInputs {
  /** The DeepSpeed config the run uses (a file path or a display name such as "zero3 (ms-swift preset)"). */
  configPath: string;
  config: ConfigContextFacts;
  /** The run has no DeepSpeed config (FSDP, Megatron, plain PyTorch): what the launch says reaches the trainer unchanged. */
  withoutDeepSpeed?: boolean;
  /** The launch commands that use this config; the first by path wins, the others are named in a note. */
  scripts: LaunchFacts[];
  settings: ZeroLensSettings;
  overrides?: ContextOverrides;
  defaults?: ContextDefaults;
}


/** Where a script's fact came from: its line, or the launcher's default it stands for. */
export function factSource(launch: LaunchFacts, fact: Fact<unknown>, t: Translate = english): Source {
  const file = pathOf(fact.span.uri || launch.uri);
  // A default's `via` says what decides it (`torchrun default`, `python swift/cli/sft.py runs one process`), in the reader's language.
  return fact.isDefault ? { kind: 'launcher-default', file, rule: factVia(fact, t) } : { kind: 'script', file, line: fact.span.line };
}

function fromScript<T>(script: LaunchFacts | undefined, fact: Fact<T> | undefined, t: Translate): Sourced<T> | undefined {
  return script && fact ? { value: fact.value, source: factSource(script, fact, t) } : undefined;
}

/** A setting's value (`withDefaults` has already checked it against its definition), when one is set. */
function fromSetting<T>(name: keyof ZeroLensSettings, value: T | undefined): Sourced<T> | undefined {
  return value !== undefined && value !== null ? { value, source: { kind: 'setting', name } } : undefined;
}

function byDefault<T>(value: T, forAuto = false): Sourced<T> {
  return { value, source: forAuto ? { kind: 'default', forAuto: true } : { kind: 'default' } };
}

const positiveInteger = (n: number): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 1;

/** Resolves the context of one run of a config. */
export function resolveTrainingContext(inputs: ContextInputs): TrainingContext {
  const { settings, config, configPath } = inputs;
  const over = inputs.overrides ?? {};
  const defaults = inputs.defaults ?? editorDefaults;
  const t = translator(settings.locale);
  const scripts = [...inputs.scripts].sort(byPathThenCommand);
  const script = scripts[0];
  const notes: string[] = [];
  if (scripts.length > 1) {
    const others = [...new Set(scripts.slice(1).map((s) => where(s, t)))].filter((w) => w !== where(script, t));
    const args = [scripts.length, configName(configPath, t), where(script, t)] as const;
    notes.push(
      others.length
        ? t('{0} launch commands reference {1}; using {2} (first by path), not {3}.', ...args, joinList(t, others))
        : t('{0} launch commands reference {1}; using {2} (first by path).', ...args),
    );
  }

  const model = over.model ?? fromScript(script, script?.model, t) ?? fromSetting('model', settings.model?.trim() || undefined);
  const gpusPerNode =
    over.gpusPerNode ??
    fromScript(script, script?.gpusPerNode, t) ??
    fromSetting('gpusPerNode', settings.gpusPerNode) ??
    (defaults.gpusPerNode !== undefined ? byDefault(defaults.gpusPerNode) : undefined);
  const nodes = over.nodes ?? fromScript(script, script?.nodes, t) ?? fromSetting('nodes', settings.nodes) ?? byDefault(defaults.nodes);
  const gpuMemoryGiB = over.gpuMemoryGiB ?? fromSetting('gpuMemoryGiB', settings.gpuMemoryGiB);
  const world = gpusPerNode ? gpusPerNode.value * nodes.value : undefined;
  const microBatchSize = over.microBatchSize ?? resolveMicroBatch(inputs, script, world, defaults, t);
  const gradientAccumulationSteps =
    over.gradientAccumulationSteps ??
    (inputs.withoutDeepSpeed ? launcherAccumulation(script, world, t) : resolveAccumulation(config, configPath, script, microBatchSize.value, world, t));
  const ignored = script?.gradientAccumulation;
  if (!over.gradientAccumulationSteps && !inputs.withoutDeepSpeed && config.gradientAccumulationSteps === undefined && ignored && !ignored.isDefault && ignored.value !== gradientAccumulationSteps.value) {
    // accelerate writes 1 into a config without the key (utils/dataclasses.py:1274-1275); plain DeepSpeed never sees the flag.
    notes.push(
      t(
        '{0} has no gradient_accumulation_steps, so DeepSpeed accumulates {1}, not the {2} of {3}; "auto" would take the script\'s value.',
        configName(configPath, t),
        gradientAccumulationSteps.value,
        ignored.value,
        describeSource(factSource(script!, ignored, t), t),
      ),
    );
  }
  // FSDP's own activation checkpointing (accelerate's fsdp_activation_checkpointing, the Trainer's fsdp_config) wraps the
  // layers whatever the trainer's flag says; ms-swift's FSDP2 example turns the flag off for it (fsdp2_lora/train.sh).
  const fsdpCheckpointing = inputs.withoutDeepSpeed && script?.fsdp?.activationCheckpointing?.value ? script.fsdp.activationCheckpointing : undefined;
  const gradientCheckpointing =
    over.gradientCheckpointing ??
    fromScript(script, fsdpCheckpointing, t) ??
    fromScript(script, script?.gradientCheckpointing, t) ??
    fromSetting('gradientCheckpointing', settings.gradientCheckpointing) ??
    byDefault(defaults.gradientCheckpointing);
  const dtype =
    over.dtype ??
    (config.precision && config.precision !== 'auto' ? { value: config.precision, source: { kind: 'config', file: configPath, key: 'bf16/fp16' } } : undefined) ??
    fromScript(script, script?.dtype, t) ??
    fromSetting('dtype', settings.dtype) ??
    byDefault(defaults.dtype, config.precision === 'auto');
  const lora = over.lora ? (over.lora.value.rank > 0 ? over.lora : undefined) : resolveLora(script, settings, t);
  // A tuner or optimizer plugin the estimate counts as something else is said, with the way the numbers may be off; not
  // the plugin when the config's optimizer block or the CLI's --optimizer decides what is counted.
  const optimizerDecided = config.buildsOptimizer === true || over.workload?.optimizer !== undefined;
  if (!over.lora) notes.push(...unmodelledNotes(script, optimizerDecided, (fact) => describeSource(factSource(script!, fact, t), t), t));
  for (const word of script?.branchDependent ?? []) notes.push(branchDependentNote(word, t));
  const workload = resolveWorkload(script, over.workload ?? {}, lora !== undefined, t);
  if (workload.rlhf) workload.rlhf = { ...workload.rlhf, value: withReference(workload.rlhf.value, model?.value, lora !== undefined) };
  // GRPO/RLOO with beta 0 load no reference model (trl f2cd5771 grpo_trainer.py:954-957): say where the 0 comes from.
  // A pinned trl before v0.19 defaults to 0.04 (trlRelease.ts): say where the reference model comes from too.
  if (workload.rlhf && groupRelativeTypes.has(workload.rlhf.value.type) && script?.beta && !lora) {
    const where = describeSource(factSource(script, script.beta, t), t);
    if (workload.rlhf.value.beta === 0) notes.push(t('No reference model: beta is 0 ({0}).', where));
    else if (script.beta.isDefault) notes.push(t('Reference model loaded: beta is {0} ({1}).', script.beta.value, where));
  }
  const online = onlineTypes.has(workload.rlhf?.value.type ?? '') ? workload.rlhf : undefined;
  const sequenceLength =
    over.sequenceLength ??
    fromScript(script, script?.seqLen ?? (online ? script?.promptLength : undefined), t) ??
    fromSetting('sequenceLength', settings.sequenceLength) ??
    byDefault(defaults.sequenceLength);
  const rollout = online?.value.rollout;
  // A length stated for the whole row (the CLI's --seq-len, tokens per sample; DeepSpeed-Chat; OpenRLHF --data.max_len)
  // already holds the completion; else it is the prompt's (ms-swift --max_length), or unknown and assumed.
  const statesRow = over.sequenceLength !== undefined || (script?.seqLen !== undefined && script.seqLen.value !== script.promptLength?.value);
  if (online && rollout && !statesRow) {
    // A colocated vLLM stops a sequence once prompt + completion reach its max_model_len (vllm 6110ea29
    // vllm/v1/core/sched/utils.py:12-15, check_stop), ms-swift's --vllm_max_model_len (rollout_mixin.py:518); an external
    // server takes its own (rlhf_args.py:703-707). vLLM's share of the card is gpu_memory_utilization whatever the length.
    const cap = rollout.engine === 'vllm-colocate' ? script?.vllmMaxModelLen : undefined;
    const completionLength = cap && sequenceLength.value + rollout.completionLength > cap.value ? Math.max(0, cap.value - sequenceLength.value) : rollout.completionLength;
    if (cap && completionLength !== rollout.completionLength) {
      notes.push(t('{0} {1} ({2}) stops each rollout at {1} tokens, prompt included: the completion is counted as {3}.', cap.via, cap.value, describeSource(factSource(script!, cap, t), t), completionLength));
    }
    workload.rlhf = { ...online, value: { ...online.value, rollout: { ...rollout, promptLength: sequenceLength.value, completionLength } } };
    const args = [online.value.type.toUpperCase(), sequenceLength.value, completionLength, sequenceLength.value + completionLength] as const;
    notes.push(
      sequenceLength.source.kind === 'default'
        ? t('{0} trains on prompt + completion: {1} + {2} = {3} tokens per row (the prompt length is not stated).', ...args)
        : t('{0} trains on prompt + completion: {1} + {2} = {3} tokens per row.', ...args),
    );
  }

  const missing: MissingInput[] = [];
  if (!model) missing.push('model');
  if (!gpusPerNode) missing.push('gpusPerNode');
  if (!gpuMemoryGiB) missing.push('gpuMemoryGiB');
  return {
    model,
    // A model the script names is relative to the script; one from zeroLens.model to the workspace folder (service.ts).
    modelBaseDir: script?.model && !over.model ? dirName(pathOf(script.uri)) : undefined,
    gpusPerNode,
    nodes,
    gpuMemoryGiB,
    sequenceLength,
    microBatchSize,
    gradientAccumulationSteps,
    gradientCheckpointing,
    lora,
    workload,
    dtype,
    script: script ? pathOf(script.uri) : undefined,
    missing,
    notes,
  };
}

/**
 * The micro-batch as DeepSpeed runs it: the config's number; else what DeepSpeed derives from train_batch_size
 * for this world size; else the launcher's (script, settings, default).
 */
function resolveMicroBatch(inputs: ContextInputs, script: LaunchFacts | undefined, world: number | undefined, defaults: ContextDefaults, t: Translate): Sourced<number> {
  const { config, configPath, settings } = inputs;
  if (typeof config.microBatch === 'number' && positiveInteger(config.microBatch)) {
    return { value: config.microBatch, source: { kind: 'config', file: configPath, key: 'train_micro_batch_size_per_gpu' } };
  }
  const configSteps = typeof config.gradientAccumulationSteps === 'number' ? config.gradientAccumulationSteps : undefined;
  const derived = config.microBatch === undefined && world ? derivedMicroBatch(config.trainBatchSize, configSteps, world) : undefined;
  if (derived !== undefined) {
    return {
      value: derived,
      source: { kind: 'config-derived', file: configPath, key: 'train_batch_size', total: config.trainBatchSize!, world: world!, by: 'accumulation', divisor: configSteps ?? 1 },
    };
  }
  return (
    fromScript(script, script?.microBatch, t) ??
    fromSetting('microBatchSize', settings.microBatchSize) ??
    byDefault(defaults.microBatchSize, config.microBatch === 'auto')
  );
}

/**
 * gradient_accumulation_steps as DeepSpeed runs it: the config's number; for "auto", the launcher's (the script's
 * flag, else its default); without the key, 1 where accelerate hands the config on, else what DeepSpeed derives
 * from train_batch_size, else its default 1.
 */
function resolveAccumulation(config: ConfigContextFacts, configPath: string, script: LaunchFacts | undefined, micro: number, world: number | undefined, t: Translate): Sourced<number> {
  const steps = config.gradientAccumulationSteps;
  if (typeof steps === 'number' && positiveInteger(steps)) return { value: steps, source: { kind: 'config', file: configPath, key: 'gradient_accumulation_steps' } };
  if (steps === 'auto') return launcherAccumulation(script, world, t, true);
  // accelerate's DeepSpeedPlugin writes 1 into a config without the key (utils/dataclasses.py:1274-1275) before
  // DeepSpeed could derive it: the HF Trainer, ms-swift, LLaMA-Factory and deepspeed_config_file go through it.
  if (steps === undefined && script && pluginReader(script)) {
    return { value: 1, source: { kind: 'launcher-default', file: pathOf(script.uri), rule: t("accelerate's 1 for a config without it") } };
  }
  const derived = steps === undefined && world ? derivedGradientAccumulation(config.trainBatchSize, micro, world) : undefined;
  if (derived !== undefined) {
    return { value: derived, source: { kind: 'config-derived', file: configPath, key: 'train_batch_size', total: config.trainBatchSize!, world: world!, by: 'micro-batch', divisor: micro } };
  }
  return byDefault(1);
}

/**
 * The accumulation the launcher itself runs: the script's flag, else its default (ms-swift's), else 1. What a
 * config's "auto" takes, and what a run without DeepSpeed (FSDP, Megatron, DDP) accumulates: no config stands
 * between the Trainer's --gradient_accumulation_steps and the run there.
 */
function launcherAccumulation(script: LaunchFacts | undefined, world: number | undefined, t: Translate, forAuto = false): Sourced<number> {
  return fromScript(script, script?.gradientAccumulation, t) ?? swiftDefaultAccumulation(script, world, t) ?? byDefault(1, forAuto);
}

/**
 * ms-swift's default when its command gives no --gradient_accumulation_steps: max(1, ⌈16 ÷ per_device_train_batch_size
 * ÷ world size⌉) (swift/trainers/arguments.py:283-286, TrainArgumentsMixin). GRPO's 1 is a script fact already.
 */
function swiftDefaultAccumulation(script: LaunchFacts | undefined, world: number | undefined, t: Translate): Sourced<number> | undefined {
  const swift = script?.chain.some((l) => l === 'swift' || l === 'swift-yaml');
  if (!script || !swift || !world || (script.subcommand !== undefined && !deepspeedSubcommands.includes(script.subcommand))) return undefined;
  const micro = script.microBatch?.value ?? 1;
  const rule = t('ms-swift default ⌈16 ÷ {0} ÷ {1}⌉', micro, formatGpuCount(world, 1, t));
  return { value: Math.max(1, Math.ceil(16 / micro / world)), source: { kind: 'launcher-default', file: pathOf(script.uri), rule } };
}

/** "train.sh line 3": where a launch command starts. */
/**
 * bash takes one branch of an if/case the script does not decide, or runs the command once per word of a for loop:
 * where the value is a number the estimate sizes by, the costliest branch's or run's is read (launch/costliestRun.ts),
 * else the value is not read. The note says which, and where the value comes from.
 */
function branchDependentNote(word: BranchDependent, t: Translate): string {
  const values = word.value.join(t({ message: ', ', comment: 'between the items of a list' }));
  if (word.uses !== undefined) {
    return word.loop
      ? t('{0} takes each value of the `for {1}` loop ({2}): the estimate uses {3}, the run that needs the most memory.', word.via, word.loop, values, word.uses)
      : t('{0} depends on the branch the script takes ({1}): the estimate uses {2}, the branch that needs the most memory, so it may be high.', word.via, values, word.uses);
  }
  return word.loop
    ? t('{0} takes each value of the `for {1}` loop ({2}), so it is not read.', word.via, word.loop, values)
    : t('{0} depends on the branch the script takes ({1}), so it is not read.', word.via, values);
}

export function where(launch: LaunchFacts, t: Translate = english): string {
  return t('{0} line {1}', baseName(pathOf(launch.uri)), launch.span.line);
}

export function byPathThenCommand(a: LaunchFacts, b: LaunchFacts): number {
  const pa = pathOf(a.uri);
  const pb = pathOf(b.uri);
  if (pa !== pb) return pa < pb ? -1 : 1;
  return (a.commandIndex ?? 0) - (b.commandIndex ?? 0);
}

/** 4- or 8-bit base weights. ms-swift ignores --quant_bits without --quant_method. */
function quantBitsOf(script: LaunchFacts): 4 | 8 | undefined {
  const bits = script.quantBits?.value;
  if (bits !== 4 && bits !== 8) return undefined;
  const swift = script.chain.some((l) => l.startsWith('swift'));
  return swift && !script.quantMethod ? undefined : bits;
}

/** LoRA from the script's tuner (and rank), else from zeroLens.loraRank; full fine-tuning otherwise. */
function resolveLora(script: LaunchFacts | undefined, settings: ZeroLensSettings, t: Translate): TrainingContext['lora'] {
  if (script?.tuner) {
    if (!loraTuners.has(script.tuner.value.toLowerCase())) return undefined;
    const fact = script.loraRank ?? script.tuner;
    const rank = script.loraRank?.value ?? 8;
    const quantBits = quantBitsOf(script) ?? (script.tuner.value.toLowerCase() === 'qlora' ? 4 : undefined);
    const value: LoraContext = { rank, quantBits };
    if (script.loraDropout) value.dropout = script.loraDropout.value;
    if (script.loraTargets) value.targetModules = script.loraTargets.value;
    if (script.loraBaseTrains?.value) value.baseTrains = true;
    if (script.loraSkipsLlm) value.skipsLlm = true;
    return { value, source: factSource(script, fact, t) };
  }
  if (script?.loraRank && script.loraRank.value > 0) {
    const value: LoraContext = { rank: script.loraRank.value, quantBits: quantBitsOf(script) };
    if (script.loraDropout) value.dropout = script.loraDropout.value;
    return { value, source: factSource(script, script.loraRank, t) };
  }
  if (typeof settings.loraRank === 'number' && settings.loraRank > 0) {
    return { value: { rank: settings.loraRank }, source: { kind: 'setting', name: 'loraRank' } };
  }
  return undefined;
}

/**
 * Online RL: the policy trains on the rows it generated, prompt + completion (TRL f2cd577 trl/trainer/grpo_trainer.py:2430;
 * ms-swift 3602360 swift/rlhf_trainers/grpo_trainer.py:753-759; DeepSpeed-Chat and OpenRLHF's actor over `sequences`).
 */
export const onlineTypes = new Set(['grpo', 'rloo', 'ppo']);

/**
 * TRL's RLOO runs as GRPO does: a group of completions per prompt, logits for the completion only, a reference model
 * only when beta != 0 (trl f2cd5771 trl/trainer/rloo_trainer.py:592-609, :1397; rloo_config.py:494-500).
 */
export const groupRelativeTypes = new Set(['grpo', 'rloo']);

const preferenceTypes = new Set(['dpo', 'orpo', 'simpo', 'cpo', 'rm', 'ipo']);

/** Sequences per sample: a preference pair runs chosen and rejected through the model (TRL concatenated_forward). */
export function sequencesPerSample(rlhf: RlhfContext | undefined): number {
  return rlhf && preferenceTypes.has(rlhf.type) ? 2 : 1;
}

/**
 * The workload facts of the run: the caller's overrides (the CLI's flags), else the launch command's, each with
 * its source. The DeepSpeed config decides none of them; what is absent takes the estimator's default.
 */
function resolveWorkload(script: LaunchFacts | undefined, over: WorkloadContext, isLora: boolean, t: Translate): WorkloadContext {
  const from = <T>(fact: Fact<T> | undefined): Sourced<T> | undefined => fromScript(script, fact, t);
  const liger = from(script?.ligerKernel);
  const chunked = from(script?.chunkedLoss);
  const loss: Sourced<LossKernel> | undefined =
    over.loss ?? (liger?.value ? { value: 'liger', source: liger.source } : chunked?.value ? { value: 'chunked', source: chunked.source } : undefined);
  const swift = script?.chain.some((l) => l === 'swift' || l === 'swift-yaml') ?? false;
  const llamaFactory = script?.chain.some((l) => l === 'llamafactory' || l === 'llamafactory-yaml') ?? false;
  let torchDtype = over.torchDtype ?? from(script?.torchDtype);
  const pure = from(script?.pureBf16);
  if (!over.torchDtype && llamaFactory && !isLora) {
    // LLaMA-Factory casts the trainable weights of full fine-tuning to fp32 unless pure_bf16
    // (llamafactory/model/adapter.py, _setup_full_tuning with cast_trainable_params_to_fp32).
    torchDtype = pure?.value
      ? { value: 'bf16', source: pure.source }
      : { value: 'fp32', source: { kind: 'launcher-default', file: pathOf(script!.uri), rule: t('LLaMA-Factory keeps trainable weights in fp32 unless pure_bf16') } };
  } else if (!torchDtype && swift && script) {
    // ms-swift loads the model in the dtype of its config.json (model_args.py, torch_dtype None → config's), bf16 for current models.
    torchDtype = { value: 'bf16', source: { kind: 'launcher-default', file: pathOf(script.uri), rule: t("ms-swift loads the model in its config's dtype") } };
  }
  const workload: WorkloadContext = {
    loss,
    attention: over.attention ?? from(script?.attnImpl),
    packing: over.packing ?? from(script?.packing),
    paddingFree: over.paddingFree ?? from(script?.paddingFree),
    fixedLength: over.fixedLength,
    sequenceParallel: over.sequenceParallel ?? from(script?.sequenceParallel),
    torchDtype,
    freezeVit: over.freezeVit ?? from(script?.freezeVit),
    freezeAligner: over.freezeAligner ?? (over.freezeVit ? undefined : from(script?.freezeAligner)),
    freezeLlm: over.freezeLlm ?? from(script?.freezeLlm),
    ddp: over.ddp,
    fsdp: over.fsdp ?? resolveFsdp(script),
    modelParallel: over.modelParallel ?? resolveModelParallel(script),
    optimizer: over.optimizer ?? from(script?.optim),
    rlhf: over.rlhf ?? resolveRlhf(script, t),
  };
  for (const key of Object.keys(workload) as Array<keyof WorkloadContext>) if (workload[key] === undefined) delete workload[key];
  return workload;
}

/**
 * The reference model a command keeps when it names none: full-parameter DPO/KTO/PPO/GRPO compare against a frozen
 * copy of the model; GRPO with beta 0 and every LoRA run do without (the adapters are switched off instead)
 * (ms-swift swift/arguments/rlhf_args.py:289-295; TRL's trainers create the same copy when no ref_model is given).
 */
function withReference(rlhf: RlhfContext, model: string | undefined, isLora: boolean): RlhfContext {
  const needsReference = ['dpo', 'kto', 'ppo', 'grpo', 'rloo'].includes(rlhf.type) && !(groupRelativeTypes.has(rlhf.type) && rlhf.beta === 0);
  if (rlhf.referenceModel || !needsReference || isLora || !model) return rlhf;
  return { ...rlhf, referenceModel: model };
}

/** The extra models of an RLHF or distillation command (ms-swift rlhf, TRL- and OpenRLHF-style arguments). */
function resolveRlhf(script: LaunchFacts | undefined, t: Translate): Sourced<RlhfContext> | undefined {
  if (!script) return undefined;
  const typeFact = script.rlhfType;
  const explicit = script.refModel ?? script.rewardModel ?? script.teacherModel ?? script.valueModel;
  if (!typeFact && !explicit) return undefined;
  const type = (typeFact?.value ?? (script.teacherModel ? 'gkd' : script.rewardModel ? 'ppo' : 'dpo')).toLowerCase();
  const source = factSource(script, (typeFact ?? explicit)!, t);
  const rlhf: RlhfContext = { type, beta: script.beta?.value };
  if (script.refModel) rlhf.referenceModel = script.refModel.value;
  if (script.rewardModel) rlhf.rewardModel = script.rewardModel.value;
  // ms-swift's PPO trains a value model initialised from the reward model (TRL PPOTrainer, value_model).
  if (script.valueModel) rlhf.valueModel = script.valueModel.value;
  else if (type === 'ppo' && script.rewardModel) rlhf.valueModel = script.rewardModel.value;
  if (script.extraPlacement) rlhf.placement = script.extraPlacement;
  if (script.emaModel) rlhf.emaModel = script.emaModel.value;
  if (script.criticStage) rlhf.criticStage = script.criticStage.value;
  if (script.hybridEngine) rlhf.hybridEngine = true;
  if (script.teacherModel) {
    rlhf.teacherModel = script.teacherModel.value;
    const teacher = script.teacherDeepspeed;
    if (teacher?.kind === 'preset') {
      rlhf.teacherSharded = teacher.name.startsWith('zero3');
      rlhf.teacherOffloaded = teacher.name === 'zero3_offload';
    }
  }
  // GRPO and PPO generate every step; GKD generates on-policy for a share lmbda of the steps (default 0.5).
  const generates = ['grpo', 'rloo', 'ppo', 'gkd'].includes(type);
  if (generates) {
    const vllm = script.useVllm?.value === true;
    const colocate = vllm && (script.vllmMode?.value ?? 'colocate') === 'colocate';
    rlhf.rollout = {
      engine: vllm ? (colocate ? 'vllm-colocate' : 'vllm-server') : 'generate',
      gpuMemoryUtilization: script.vllmGpuMemoryUtilization?.value,
      sleepLevel: script.sleepLevel?.value,
      offloadModel: script.offloadModelDuringRollout?.value,
      offloadOptimizer: script.offloadOptimizerDuringRollout?.value,
      completionLength: script.maxCompletionLength?.value ?? 512,
      completionStated: script.maxCompletionLength !== undefined,
      generations: script.numGenerations?.value,
      stepsPerGeneration: script.stepsPerGeneration?.value,
    };
  }
  return { value: rlhf, source };
}

/**
 * FSDP as the launch runs it (launch/fsdp/ read accelerate's `fsdp_config`, the Trainer's `--fsdp`/`--fsdp_config` and
 * ms-swift's `--fsdp` with the launchers' defaults). Mixed precision: accelerate's `mixed_precision`, which the Trainer
 * and ms-swift set from `--bf16`/`--fp16` (ms-swift trains in bf16 by default); off where a launch says `no`.
 */
function resolveFsdp(script: LaunchFacts | undefined): Sourced<FsdpSpec> | undefined {
  const settings = script?.fsdp;
  if (!script || !settings) return undefined;
  const mixedPrecision = script.mixedPrecision ? script.mixedPrecision.value !== 'no' : true;
  const value: FsdpSpec = { strategy: settings.strategy, version: settings.version, offloadParams: settings.offloadParams, mixedPrecision, autoWrap: settings.autoWrap };
  const file = pathOf(settings.span.uri || script.uri);
  return { value, source: { kind: 'script', file, line: settings.span.line } };
}

/** Megatron's parallel sizes of a `megatron sft` command, or AutoTP's size from the launch (`--deepspeed_autotp_size`). */
function resolveModelParallel(script: LaunchFacts | undefined): Sourced<ModelParallelSpec> | undefined {
  if (!script) return undefined;
  const sizes = script.parallel;
  const megatron = script.launcher === 'megatron' || script.chain.includes('megatron');
  if (megatron) {
    const first = sizes?.tp ?? sizes?.pp ?? sizes?.ep ?? sizes?.cp;
    const value: ModelParallelSpec = {
      kind: 'megatron',
      tp: sizes?.tp?.value ?? 1,
      pp: sizes?.pp?.value ?? 1,
      cp: sizes?.cp?.value ?? 1,
      ep: sizes?.ep?.value ?? 1,
      etp: sizes?.etp?.value,
      sequenceParallel: script.sequenceParallelFlag?.value,
    };
    return { value, source: first ? factSource(script, first) : { kind: 'launcher-default', file: pathOf(script.uri), rule: 'Megatron-SWIFT: TP 1, PP 1' } };
  }
  const autotp = script.deepspeedAutotpSize;
  if (autotp && autotp.value > 1) return { value: { kind: 'autotp', tp: autotp.value, pp: 1, cp: 1, ep: 1 }, source: factSource(script, autotp) };
  return undefined;
}
