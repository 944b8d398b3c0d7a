import type { ContextValue } from '../protocol';
import type { Precision } from '../memory/types';
import type { ZeroLensSettings } from '../settings';
import type { Fact, LaunchFacts } from '../launch/facts';
import { baseName, pathOf } from '../classify';
import { derivedGradientAccumulation, derivedMicroBatch } from '../memory/configFacts';
import { deepspeedSubcommands } from '../launch/launchers/swift';
import { pluginReader } from '../launch/deepspeedPlugin';
import { gpuCount } from './present';

/**
 * The training context of a config: which model, how many GPUs, what batch and sequence. Resolved from, in
 * order, a launch script that references the config, the zeroLens.* settings, and the config itself, with
 * the origin of every value recorded so the user can see (and fix) where a number came from.
 */

/** What the config itself says about the context; "auto" means a launcher fills it. */
export interface ConfigContextFacts {
  microBatch?: number | 'auto';
  /** Explicit numbers, from which DeepSpeed derives the micro-batch when the config does not give it. */
  trainBatchSize?: number;
  gradientAccumulationSteps?: number | 'auto';
  precision?: Precision | 'auto';
}

export interface ResolvedContext {
  /** The model as the user named it (hub id or folder); resolved to a size elsewhere. */
  model?: ContextValue<string>;
  /** Folder relative model paths are resolved against (the script's folder). */
  modelBaseDir?: string;
  gpusPerNode?: ContextValue<number>;
  nodes: ContextValue<number>;
  gpuMemoryGiB?: ContextValue<number>;
  sequenceLength: ContextValue<number>;
  microBatchSize: ContextValue<number>;
  gradientAccumulationSteps: ContextValue<number>;
  gradientCheckpointing: ContextValue<boolean>;
  /** Present when adapters are trained instead of the full model. */
  lora?: ContextValue<{ rank: number; quantBits?: 4 | 8 }>;
  dtype: ContextValue<Precision>;
  /** The script the context came from, when one references the config. */
  script?: string;
  /** What is unknown and needed for numbers: "model", "gpusPerNode" (blocking) and "gpuMemoryGiB" (no fit check). */
  missing: string[];
  /** Plain-language remarks, e.g. that several scripts reference the config. */
  notes: string[];
}

/** Assumed when nothing says otherwise; each is shown with the source "default". */
export const contextDefaults = {
  sequenceLength: 2048,
  microBatchSize: 1,
  // ms-swift and LLaMA-Factory turn gradient checkpointing on unless told otherwise.
  gradientCheckpointing: true,
  dtype: 'bf16' as Precision,
  nodes: 1,
};

const loraTuners = new Set(['lora', 'qlora', 'longlora', 'adalora', 'lora_llm', 'dora', 'pissa', 'olora', 'vera', 'loha', 'lokr']);

/** "train.sh line 6", or "ms-swift default (train.sh)" when the script leaves it to the launcher. */
export function factSource(launch: LaunchFacts, fact: Fact<unknown>): string {
  const file = baseName(pathOf(fact.span.uri || launch.uri));
  // A default's `via` says what decides it (`torchrun default`, `python swift/cli/sft.py runs one process`).
  return fact.isDefault ? `${fact.via} (${file})` : `${file} line ${fact.span.line}`;
}

function settingSource(name: string): string {
  return `settings (zeroLens.${name})`;
}

function fromScript<T>(script: LaunchFacts | undefined, fact: Fact<T> | undefined): ContextValue<T> | undefined {
  return script && fact ? { value: fact.value, source: factSource(script, fact) } : undefined;
}

function fromSetting<T>(name: keyof ZeroLensSettings, value: T | undefined, valid: (v: T) => boolean): ContextValue<T> | undefined {
  return value !== undefined && value !== null && valid(value) ? { value, source: settingSource(name) } : undefined;
}

const positiveInteger = (n: number): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 1;
const positiveNumber = (n: number): boolean => typeof n === 'number' && Number.isFinite(n) && n > 0;

/**
 * Resolves the context of one config. `scripts` are the launch files that reference it; the first by path
 * wins, and the others are named in a note so the choice is never silent.
 */
export function resolveTrainingContext(params: {
  configPath: string;
  scripts: LaunchFacts[];
  settings: ZeroLensSettings;
  config: ConfigContextFacts;
}): ResolvedContext {
  const { settings, config } = params;
  const configName = baseName(params.configPath);
  const scripts = [...params.scripts].sort(byPathThenCommand);
  const script = scripts[0];
  const notes: string[] = [];
  if (scripts.length > 1) {
    const others = [...new Set(scripts.slice(1).map((s) => where(s)))].filter((w) => w !== where(script));
    notes.push(`${scripts.length} launch commands reference ${configName}; using ${where(script)} (first by path)${others.length ? `, not ${others.join(', ')}` : ''}.`);
  }

  const model =
    fromScript(script, script?.model) ?? fromSetting('model', settings.model?.trim() || undefined, (m: string) => m.length > 0);
  const gpusPerNode = fromScript(script, script?.gpusPerNode) ?? fromSetting('gpusPerNode', settings.gpusPerNode, positiveInteger);
  const nodes = fromScript(script, script?.nodes) ??
    fromSetting('nodes', settings.nodes, positiveInteger) ?? { value: contextDefaults.nodes, source: 'default' };
  const gpuMemoryGiB = fromSetting('gpuMemoryGiB', settings.gpuMemoryGiB, positiveNumber);
  const sequenceLength = fromScript(script, script?.seqLen) ??
    fromSetting('sequenceLength', settings.sequenceLength, positiveInteger) ?? { value: contextDefaults.sequenceLength, source: 'default' };
  // An explicit number in the config is what DeepSpeed uses; "auto" is filled from the launcher's arguments.
  const world = gpusPerNode ? gpusPerNode.value * nodes.value : undefined;
  const configSteps = typeof config.gradientAccumulationSteps === 'number' ? config.gradientAccumulationSteps : undefined;
  const derived = config.microBatch === undefined && world ? derivedMicroBatch(config.trainBatchSize, configSteps, world) : undefined;
  const microBatchSize =
    (typeof config.microBatch === 'number' && positiveInteger(config.microBatch)
      ? { value: config.microBatch, source: `${configName} (train_micro_batch_size_per_gpu)` }
      : undefined) ??
    (derived !== undefined
      ? { value: derived, source: `${configName} (train_batch_size ${config.trainBatchSize} ÷ ${gpuCount(world!, 1)} ÷ ${configSteps ?? 1} accumulation)` }
      : undefined) ??
    fromScript(script, script?.microBatch) ??
    fromSetting('microBatchSize', settings.microBatchSize, positiveInteger) ?? {
      value: contextDefaults.microBatchSize,
      source: config.microBatch === 'auto' ? 'default (for "auto")' : 'default',
    };
  const gradientAccumulationSteps = resolveAccumulation(config, configName, script, microBatchSize.value, world);
  const ignored = script?.gradientAccumulation;
  if (config.gradientAccumulationSteps === undefined && ignored && !ignored.isDefault && ignored.value !== gradientAccumulationSteps.value) {
    // accelerate writes 1 into a config without the key (utils/dataclasses.py:1274-1275); plain DeepSpeed never sees the flag.
    notes.push(`${configName} has no gradient_accumulation_steps, so DeepSpeed accumulates ${gradientAccumulationSteps.value}, not the ${ignored.value} of ${factSource(script!, ignored)}; "auto" would take the script's value.`);
  }
  const gradientCheckpointing = fromScript(script, script?.gradientCheckpointing) ??
    fromSetting('gradientCheckpointing', settings.gradientCheckpointing, (b: boolean) => typeof b === 'boolean') ?? {
      value: contextDefaults.gradientCheckpointing,
      source: 'default',
    };
  const dtype =
    (config.precision && config.precision !== 'auto' ? { value: config.precision, source: `${configName} (bf16/fp16)` } : undefined) ??
    fromScript(script, script?.dtype) ??
    fromSetting('dtype', settings.dtype, (d: string) => d === 'bf16' || d === 'fp16' || d === 'fp32') ?? {
      value: contextDefaults.dtype,
      source: config.precision === 'auto' ? 'default (for "auto")' : 'default',
    };

  const lora = resolveLora(script, settings);

  const missing: string[] = [];
  if (!model) missing.push('model');
  if (!gpusPerNode) missing.push('gpusPerNode');
  if (!gpuMemoryGiB) missing.push('gpuMemoryGiB');
  return {
    model,
    modelBaseDir: script ? pathOf(script.uri).replace(/[\\/][^\\/]*$/, '') : undefined,
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
 * gradient_accumulation_steps as DeepSpeed runs it: the config's number; for "auto", the launcher's (the script's
 * flag, else its default); without the key, 1 where accelerate hands the config on, else what DeepSpeed derives
 * from train_batch_size, else its default 1.
 */
function resolveAccumulation(config: ConfigContextFacts, configName: string, script: LaunchFacts | undefined, micro: number, world: number | undefined): ContextValue<number> {
  const steps = config.gradientAccumulationSteps;
  if (typeof steps === 'number' && positiveInteger(steps)) return { value: steps, source: `${configName} (gradient_accumulation_steps)` };
  if (steps === 'auto') {
    return fromScript(script, script?.gradientAccumulation) ?? swiftDefaultAccumulation(script, world) ?? { value: 1, source: 'default (for "auto")' };
  }
  // accelerate's DeepSpeedPlugin writes 1 into a config without the key (utils/dataclasses.py:1274-1275) before
  // DeepSpeed could derive it: the HF Trainer, ms-swift, LLaMA-Factory and deepspeed_config_file go through it.
  if (steps === undefined && script && pluginReader(script)) {
    return { value: 1, source: `accelerate's 1 for a config without it (${baseName(pathOf(script.uri))})` };
  }
  const derived = steps === undefined && world ? derivedGradientAccumulation(config.trainBatchSize, micro, world) : undefined;
  if (derived !== undefined) return { value: derived, source: `${configName} (train_batch_size ${config.trainBatchSize} ÷ ${gpuCount(world!, 1)} ÷ micro-batch ${micro})` };
  return { value: 1, source: 'default' };
}

/**
 * ms-swift's default when its command gives no --gradient_accumulation_steps: max(1, ⌈16 ÷ per_device_train_batch_size
 * ÷ world size⌉) (swift/trainers/arguments.py:283-286, TrainArgumentsMixin). GRPO's 1 is a script fact already.
 */
function swiftDefaultAccumulation(script: LaunchFacts | undefined, world: number | undefined): ContextValue<number> | undefined {
  const swift = script?.chain.some((l) => l === 'swift' || l === 'swift-yaml');
  if (!script || !swift || !world || (script.subcommand !== undefined && !deepspeedSubcommands.includes(script.subcommand))) return undefined;
  const micro = script.microBatch?.value ?? 1;
  return { value: Math.max(1, Math.ceil(16 / micro / world)), source: `ms-swift default ⌈16 ÷ ${micro} ÷ ${gpuCount(world, 1)}⌉ (${baseName(pathOf(script.uri))})` };
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
function resolveLora(script: LaunchFacts | undefined, settings: ZeroLensSettings): ResolvedContext['lora'] {
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
    return { value: { rank: settings.loraRank }, source: settingSource('loraRank') };
  }
  return undefined;
}
