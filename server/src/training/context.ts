import { describeSource, formatGpuCount, type ContextValues, type MissingInput, type Precision, type Source, type Sourced } from '../protocol';
import type { ZeroLensSettings } from '../settings';
import type { Fact, LaunchFacts } from '../launch/facts';
import { baseName, dirName, pathOf } from '../util/paths';
import { derivedGradientAccumulation, derivedMicroBatch } from '../memory/configFacts';
import { deepspeedSubcommands } from '../launch/launchers/swift';
import { pluginReader } from '../launch/deepspeedPlugin';

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
}

export interface LoraContext {
  rank: number;
  quantBits?: 4 | 8;
  /** QLoRA's double quantisation of the NF4 scales. */
  doubleQuant?: boolean;
  targetModules?: string[];
}

export interface TrainingContext extends ContextValues {
  /** The model as the user named it (hub id or folder); resolved to a size elsewhere. */
  model?: Sourced<string>;
  /** Folder relative model paths are resolved against (the script's folder). */
  modelBaseDir?: string;
  gradientAccumulationSteps: Sourced<number>;
  /** Present when adapters are trained instead of the full model. */
  lora?: Sourced<LoraContext>;
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
>;

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
  /** The launch commands that use this config; the first by path wins, the others are named in a note. */
  scripts: LaunchFacts[];
  settings: ZeroLensSettings;
  overrides?: ContextOverrides;
  defaults?: ContextDefaults;
}

const loraTuners = new Set(['lora', 'qlora', 'longlora', 'adalora', 'lora_llm', 'dora', 'pissa', 'olora', 'vera', 'loha', 'lokr']);

/** Where a script's fact came from: its line, or the launcher's default it stands for. */
export function factSource(launch: LaunchFacts, fact: Fact<unknown>): Source {
  const file = pathOf(fact.span.uri || launch.uri);
  // A default's `via` says what decides it (`torchrun default`, `python swift/cli/sft.py runs one process`).
  return fact.isDefault ? { kind: 'launcher-default', file, rule: fact.via } : { kind: 'script', file, line: fact.span.line };
}

function fromScript<T>(script: LaunchFacts | undefined, fact: Fact<T> | undefined): Sourced<T> | undefined {
  return script && fact ? { value: fact.value, source: factSource(script, fact) } : undefined;
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
  const scripts = [...inputs.scripts].sort(byPathThenCommand);
  const script = scripts[0];
  const notes: string[] = [];
  if (scripts.length > 1) {
    const others = [...new Set(scripts.slice(1).map((s) => where(s)))].filter((w) => w !== where(script));
    notes.push(`${scripts.length} launch commands reference ${baseName(configPath)}; using ${where(script)} (first by path)${others.length ? `, not ${others.join(', ')}` : ''}.`);
  }

  const model = over.model ?? fromScript(script, script?.model) ?? fromSetting('model', settings.model?.trim() || undefined);
  const gpusPerNode =
    over.gpusPerNode ??
    fromScript(script, script?.gpusPerNode) ??
    fromSetting('gpusPerNode', settings.gpusPerNode) ??
    (defaults.gpusPerNode !== undefined ? byDefault(defaults.gpusPerNode) : undefined);
  const nodes = over.nodes ?? fromScript(script, script?.nodes) ?? fromSetting('nodes', settings.nodes) ?? byDefault(defaults.nodes);
  const gpuMemoryGiB = over.gpuMemoryGiB ?? fromSetting('gpuMemoryGiB', settings.gpuMemoryGiB);
  const sequenceLength =
    over.sequenceLength ?? fromScript(script, script?.seqLen) ?? fromSetting('sequenceLength', settings.sequenceLength) ?? byDefault(defaults.sequenceLength);
  const world = gpusPerNode ? gpusPerNode.value * nodes.value : undefined;
  const microBatchSize = over.microBatchSize ?? resolveMicroBatch(inputs, script, world, defaults);
  const gradientAccumulationSteps = over.gradientAccumulationSteps ?? resolveAccumulation(config, configPath, script, microBatchSize.value, world);
  const ignored = script?.gradientAccumulation;
  if (!over.gradientAccumulationSteps && config.gradientAccumulationSteps === undefined && ignored && !ignored.isDefault && ignored.value !== gradientAccumulationSteps.value) {
    // accelerate writes 1 into a config without the key (utils/dataclasses.py:1274-1275); plain DeepSpeed never sees the flag.
    notes.push(
      `${baseName(configPath)} has no gradient_accumulation_steps, so DeepSpeed accumulates ${gradientAccumulationSteps.value}, not the ${ignored.value} of ${describeSource(factSource(script!, ignored))}; "auto" would take the script's value.`,
    );
  }
  const gradientCheckpointing =
    over.gradientCheckpointing ??
    fromScript(script, script?.gradientCheckpointing) ??
    fromSetting('gradientCheckpointing', settings.gradientCheckpointing) ??
    byDefault(defaults.gradientCheckpointing);
  const dtype =
    over.dtype ??
    (config.precision && config.precision !== 'auto' ? { value: config.precision, source: { kind: 'config', file: configPath, key: 'bf16/fp16' } } : undefined) ??
    fromScript(script, script?.dtype) ??
    fromSetting('dtype', settings.dtype) ??
    byDefault(defaults.dtype, config.precision === 'auto');
  const lora = over.lora ? (over.lora.value.rank > 0 ? over.lora : undefined) : resolveLora(script, settings);

  const missing: MissingInput[] = [];
  if (!model) missing.push('model');
  if (!gpusPerNode) missing.push('gpusPerNode');
  if (!gpuMemoryGiB) missing.push('gpuMemoryGiB');
  return {
    model,
    modelBaseDir: script && !over.model ? dirName(pathOf(script.uri)) : undefined,
    gpusPerNode,
    nodes,
    gpuMemoryGiB,
    sequenceLength,
    microBatchSize,
    gradientAccumulationSteps,
    gradientCheckpointing,
    lora,
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
function resolveMicroBatch(inputs: ContextInputs, script: LaunchFacts | undefined, world: number | undefined, defaults: ContextDefaults): Sourced<number> {
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
    fromScript(script, script?.microBatch) ??
    fromSetting('microBatchSize', settings.microBatchSize) ??
    byDefault(defaults.microBatchSize, config.microBatch === 'auto')
  );
}

/**
 * gradient_accumulation_steps as DeepSpeed runs it: the config's number; for "auto", the launcher's (the script's
 * flag, else its default); without the key, 1 where accelerate hands the config on, else what DeepSpeed derives
 * from train_batch_size, else its default 1.
 */
function resolveAccumulation(config: ConfigContextFacts, configPath: string, script: LaunchFacts | undefined, micro: number, world: number | undefined): Sourced<number> {
  const steps = config.gradientAccumulationSteps;
  if (typeof steps === 'number' && positiveInteger(steps)) return { value: steps, source: { kind: 'config', file: configPath, key: 'gradient_accumulation_steps' } };
  if (steps === 'auto') return fromScript(script, script?.gradientAccumulation) ?? swiftDefaultAccumulation(script, world) ?? byDefault(1, true);
  // accelerate's DeepSpeedPlugin writes 1 into a config without the key (utils/dataclasses.py:1274-1275) before
  // DeepSpeed could derive it: the HF Trainer, ms-swift, LLaMA-Factory and deepspeed_config_file go through it.
  if (steps === undefined && script && pluginReader(script)) {
    return { value: 1, source: { kind: 'launcher-default', file: pathOf(script.uri), rule: "accelerate's 1 for a config without it" } };
  }
  const derived = steps === undefined && world ? derivedGradientAccumulation(config.trainBatchSize, micro, world) : undefined;
  if (derived !== undefined) {
    return { value: derived, source: { kind: 'config-derived', file: configPath, key: 'train_batch_size', total: config.trainBatchSize!, world: world!, by: 'micro-batch', divisor: micro } };
  }
  return byDefault(1);
}

/**
 * ms-swift's default when its command gives no --gradient_accumulation_steps: max(1, ⌈16 ÷ per_device_train_batch_size
 * ÷ world size⌉) (swift/trainers/arguments.py:283-286, TrainArgumentsMixin). GRPO's 1 is a script fact already.
 */
function swiftDefaultAccumulation(script: LaunchFacts | undefined, world: number | undefined): Sourced<number> | undefined {
  const swift = script?.chain.some((l) => l === 'swift' || l === 'swift-yaml');
  if (!script || !swift || !world || (script.subcommand !== undefined && !deepspeedSubcommands.includes(script.subcommand))) return undefined;
  const micro = script.microBatch?.value ?? 1;
  const rule = `ms-swift default ⌈16 ÷ ${micro} ÷ ${formatGpuCount(world, 1)}⌉`;
  return { value: Math.max(1, Math.ceil(16 / micro / world)), source: { kind: 'launcher-default', file: pathOf(script.uri), rule } };
}

/** "train.sh line 3": where a launch command starts. */
export function where(launch: LaunchFacts): string {
  return `${baseName(pathOf(launch.uri))} line ${launch.span.line}`;
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
function resolveLora(script: LaunchFacts | undefined, settings: ZeroLensSettings): TrainingContext['lora'] {
  if (script?.tuner) {
    if (!loraTuners.has(script.tuner.value.toLowerCase())) return undefined;
    const fact = script.loraRank ?? script.tuner;
    const rank = script.loraRank?.value ?? 8;
    const quantBits = quantBitsOf(script) ?? (script.tuner.value.toLowerCase() === 'qlora' ? 4 : undefined);
    return { value: { rank, quantBits }, source: factSource(script, fact) };
  }
  if (script?.loraRank && script.loraRank.value > 0) {
    return { value: { rank: script.loraRank.value, quantBits: quantBitsOf(script) }, source: factSource(script, script.loraRank) };
  }
  if (typeof settings.loraRank === 'number' && settings.loraRank > 0) {
    return { value: { rank: settings.loraRank }, source: { kind: 'setting', name: 'loraRank' } };
  }
  return undefined;
}
