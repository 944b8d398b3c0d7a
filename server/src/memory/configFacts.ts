import { optimizerFromName } from './optimizers';
import type { BufferSettings, EstimateInput, OffloadDevice, OptimizerName, Precision, ZeroStage } from './types';

/**
 * The bridge from a parsed ds_config (any JS value, e.g. from jsonc-parser's `parse`) to the estimator:
 * the settings that change memory, each with the JSON path it came from. Values DeepSpeed would reject
 * and "auto" placeholders are left out (the latter listed in `auto`), so callers fall back to their
 * own defaults and can say why.
 */
export interface Fact<T> {
  value: T;
  /** Dotted JSON path, e.g. "zero_optimization.offload_optimizer.device". */
  path: string;
  /** The same path as segments, for jsonc-parser's findNodeAtLocation. */
  segments: string[];
  /** True when the value follows from what the config leaves out (no fp16/bf16 section → fp32). */
  implicit?: boolean;
}

export interface ConfigFacts {
  stage?: Fact<ZeroStage>;
  offloadOptimizer?: Fact<OffloadDevice>;
  offloadParam?: Fact<OffloadDevice>;
  pinMemory?: Fact<boolean>;
  precision?: Fact<Precision>;
  bf16MasterWeightsAndGrads?: Fact<boolean>;
  bf16OptimizerStates?: Fact<boolean>;
  fp32GradAccum?: Fact<boolean>;
  microBatch?: Fact<number>;
  gradientAccumulationSteps?: Fact<number>;
  trainBatchSize?: Fact<number>;
  optimizer?: Fact<OptimizerName> & { rawType: string };
  /** tensor_parallel.autotp_size: DeepSpeed AutoTP splits the decoder's linear layers over this many GPUs. */
  autotpSize?: Fact<number>;
  buffers: { [K in keyof BufferSettings]?: Fact<NonNullable<BufferSettings[K]>> };
  /** Paths whose value is "auto" (filled in by the HF Trainer or accelerate at launch). */
  auto: string[];
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fact<T>(value: T, segments: string[], implicit?: boolean): Fact<T> {
  const f: Fact<T> = { value, path: segments.join('.'), segments };
  if (implicit) f.implicit = true;
  return f;
}

const deviceNames: Record<string, OffloadDevice> = { none: 'none', cpu: 'cpu', nvme: 'nvme' };

export function extractConfigFacts(config: unknown): ConfigFacts {
  const facts: ConfigFacts = { buffers: {}, auto: [] };
  if (!isObject(config)) return facts;

  /** The value at `segments`, recording "auto" and returning undefined for it. */
  const read = (segments: string[]): unknown => {
    let node: unknown = config;
    for (const s of segments) {
      if (!isObject(node)) return undefined;
      node = node[s];
    }
    if (node === 'auto') {
      facts.auto.push(segments.join('.'));
      return undefined;
    }
    return node;
  };
  const number = (segments: string[]): Fact<number> | undefined => {
    const v = read(segments);
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? fact(v, segments) : undefined;
  };
  const bool = (segments: string[]): Fact<boolean> | undefined => {
    const v = read(segments);
    return typeof v === 'boolean' ? fact(v, segments) : undefined;
  };
  /** First present of several spellings (DeepSpeed aliases). */
  const firstNumber = (...paths: string[][]) => paths.map(number).find((f) => f !== undefined);

  const zero = ['zero_optimization'];
  const stage = read([...zero, 'stage']);
  if (stage === 0 || stage === 1 || stage === 2 || stage === 3) facts.stage = fact(stage, [...zero, 'stage']);
  // The legacy boolean form: true is ZeRO stage 1 (zero/config.py, read_zero_config_deprecated).
  else if (read(zero) === true) facts.stage = fact(1, zero);

  const device = (section: string): Fact<OffloadDevice> | undefined => {
    const segments = [...zero, section, 'device'];
    const v = read(segments);
    if (typeof v === 'string' && deviceNames[v.toLowerCase()]) return fact(deviceNames[v.toLowerCase()], segments);
    // A section without "device" means DeepSpeed's default, none.
    if (v === undefined && isObject(read([...zero, section]))) return fact<OffloadDevice>('none', segments, true);
    return undefined;
  };
  facts.offloadOptimizer = device('offload_optimizer');
  facts.offloadParam = device('offload_param');
  // Deprecated booleans from before the offload sections existed.
  if (!facts.offloadOptimizer) {
    const legacy = bool([...zero, 'cpu_offload']);
    if (legacy) facts.offloadOptimizer = fact<OffloadDevice>(legacy.value ? 'cpu' : 'none', legacy.segments);
  }
  if (!facts.offloadParam) {
    const legacy = bool([...zero, 'cpu_offload_params']) ?? bool([...zero, 'cpu_offload_param']);
    if (legacy) facts.offloadParam = fact<OffloadDevice>(legacy.value ? 'cpu' : 'none', legacy.segments);
  }
  const autotp = number(['tensor_parallel', 'autotp_size']);
  if (autotp && Number.isInteger(autotp.value) && autotp.value > 1) facts.autotpSize = autotp;
  facts.pinMemory = bool([...zero, 'offload_optimizer', 'pin_memory']) ?? bool([...zero, 'offload_param', 'pin_memory']);

  // Precision: fp16.enabled / bf16.enabled (also the "bfloat16" spelling); "auto" leaves it unknown.
  const bf16Key = isObject(read(['bf16'])) ? 'bf16' : isObject(read(['bfloat16'])) ? 'bfloat16' : 'bf16';
  const fp16 = read(['fp16', 'enabled']);
  const bf16 = read([bf16Key, 'enabled']);
  if (fp16 === true) facts.precision = fact<Precision>('fp16', ['fp16', 'enabled']);
  else if (bf16 === true) facts.precision = fact<Precision>('bf16', [bf16Key, 'enabled']);
  else if (!facts.auto.some((p) => p.endsWith('.enabled'))) {
    const explicit = fp16 === false ? ['fp16', 'enabled'] : bf16 === false ? [bf16Key, 'enabled'] : [];
    facts.precision = fact<Precision>('fp32', explicit, explicit.length === 0);
  }
  facts.bf16MasterWeightsAndGrads = bool([bf16Key, 'bf16_master_weights_and_grads']);
  facts.bf16OptimizerStates = bool([bf16Key, 'bf16_optimizer_states']);

  const accum = read(['data_types', 'grad_accum_dtype']);
  if (typeof accum === 'string') {
    const a = accum.toLowerCase();
    // DtypeEnum's spellings, with or without the torch. prefix.
    const dtype = a.replace(/^torch\./, '');
    if (['fp32', 'float32', 'float'].includes(dtype)) facts.fp32GradAccum = fact(true, ['data_types', 'grad_accum_dtype']);
    else if (['fp16', 'float16', 'half', 'bf16', 'bfloat16'].includes(dtype)) facts.fp32GradAccum = fact(false, ['data_types', 'grad_accum_dtype']);
  }

  const micro = number(['train_micro_batch_size_per_gpu']);
  if (micro && micro.value >= 1) facts.microBatch = micro;
  facts.gradientAccumulationSteps = number(['gradient_accumulation_steps']);
  facts.trainBatchSize = number(['train_batch_size']);

  const type = read(['optimizer', 'type']);
  if (typeof type === 'string') {
    const name = optimizerFromName(type);
    // SGD keeps a momentum buffer only when momentum is set.
    const momentum = read(['optimizer', 'params', 'momentum']);
    const withMomentum = name === 'sgd' && typeof momentum === 'number' && momentum > 0 ? 'sgd-momentum' : name;
    if (withMomentum) facts.optimizer = { ...fact(withMomentum, ['optimizer', 'type']), rawType: type };
  }

  const b = facts.buffers;
  b.reduceBucketSize = number([...zero, 'reduce_bucket_size']);
  b.allgatherBucketSize = number([...zero, 'allgather_bucket_size']);
  b.overlapComm = bool([...zero, 'overlap_comm']);
  b.prefetchBucketSize = firstNumber([...zero, 'stage3_prefetch_bucket_size'], [...zero, 'prefetch_bucket_size']);
  b.maxLiveParameters = firstNumber([...zero, 'stage3_max_live_parameters'], [...zero, 'max_live_parameters']);
  b.subGroupSize = number([...zero, 'sub_group_size']);
  b.maxParamsInCpu = number([...zero, 'offload_param', 'max_in_cpu']);
  b.maxReuseDistance = firstNumber([...zero, 'stage3_max_reuse_distance'], [...zero, 'max_reuse_distance']);
  b.gather16BitOnSave = bool([...zero, 'stage3_gather_16bit_weights_on_model_save']) ?? bool([...zero, 'gather_16bit_weights_on_model_save']) ?? bool([...zero, 'stage3_gather_fp16_weights_on_model_save']);
  for (const key of Object.keys(b) as Array<keyof BufferSettings>) if (b[key] === undefined) delete b[key];
  for (const key of Object.keys(facts) as Array<keyof ConfigFacts>) if (facts[key] === undefined) delete facts[key];
  return facts;
}

/**
 * The estimator inputs a ds_config decides, ready to spread into an EstimateInput
 * (`{ ...defaults, ...estimateInputFromFacts(facts) }`).
 */
export function estimateInputFromFacts(f: ConfigFacts): Partial<EstimateInput> {
  const out: Partial<EstimateInput> = {};
  if (f.stage) out.stage = f.stage.value;
  if (f.offloadOptimizer) out.offloadOptimizer = f.offloadOptimizer.value;
  if (f.offloadParam) out.offloadParam = f.offloadParam.value;
  if (f.pinMemory) out.pinMemory = f.pinMemory.value;
  if (f.precision) out.precision = f.precision.value;
  if (f.bf16MasterWeightsAndGrads) out.bf16MasterWeightsAndGrads = f.bf16MasterWeightsAndGrads.value;
  if (f.bf16OptimizerStates) out.bf16OptimizerStates = f.bf16OptimizerStates.value;
  if (f.fp32GradAccum) out.fp32GradAccum = f.fp32GradAccum.value;
  if (f.microBatch) out.microBatch = f.microBatch.value;
  if (f.optimizer) out.optimizer = f.optimizer.value;
  const buffers: BufferSettings = {};
  for (const [key, value] of Object.entries(f.buffers)) (buffers as Record<string, unknown>)[key] = value.value;
  if (Object.keys(buffers).length > 0) out.buffers = buffers;
  return out;
}

/**
 * What the HF Trainer writes for ZeRO "auto" buffer sizes (transformers integrations/deepspeed.py):
 * reduce_bucket_size = h², stage3_prefetch_bucket_size = 0.9·h² (h = hidden_size).
 */
export function hfAutoBuffers(hiddenSize: number): Pick<BufferSettings, 'reduceBucketSize' | 'prefetchBucketSize'> {
  return { reduceBucketSize: hiddenSize * hiddenSize, prefetchBucketSize: Math.floor(0.9 * hiddenSize * hiddenSize) };
}

/** train_batch_size as a total the micro-batch can be derived from: not while the Trainer fills the accumulation ("auto"). */
export function derivableBatchTotal(facts: ConfigFacts): Fact<number> | undefined {
  return facts.auto.includes('gradient_accumulation_steps') ? undefined : facts.trainBatchSize;
}

/**
 * The micro-batch DeepSpeed derives when the config gives train_batch_size but no micro-batch
 * (config.py, _set_batch_related_parameters): train_batch_size ÷ world size ÷ gradient_accumulation_steps
 * (1 when that is unset too). Undefined unless it divides exactly: otherwise DeepSpeed refuses the config.
 */
export function derivedMicroBatch(trainBatchSize: number | undefined, gradientAccumulationSteps: number | undefined, worldSize: number): number | undefined {
  if (trainBatchSize === undefined || !Number.isInteger(trainBatchSize) || trainBatchSize < 1 || worldSize < 1) return undefined;
  const accumulation = gradientAccumulationSteps ?? 1;
  if (!Number.isInteger(accumulation) || accumulation < 1) return undefined;
  const micro = trainBatchSize / (worldSize * accumulation);
  return Number.isInteger(micro) && micro >= 1 ? micro : undefined;
}

/**
 * The gradient_accumulation_steps DeepSpeed derives when the config gives train_batch_size and the micro-batch
 * but not the accumulation (config.py:955-958): train_batch_size ÷ micro-batch ÷ world size. Undefined unless it
 * divides exactly: otherwise _batch_assertion refuses the config.
 */
export function derivedGradientAccumulation(trainBatchSize: number | undefined, microBatch: number, worldSize: number): number | undefined {
  if (trainBatchSize === undefined || !Number.isInteger(trainBatchSize) || microBatch < 1 || worldSize < 1) return undefined;
  const steps = trainBatchSize / (microBatch * worldSize);
  return Number.isInteger(steps) && steps >= 1 ? steps : undefined;
}
