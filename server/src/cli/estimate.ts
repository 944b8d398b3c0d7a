/**
 * `zero-lens estimate`: per-GPU, per-node CPU and NVMe memory for every ZeRO stage.
 * Thin: parses options, reads the config and model through the FileSystemHost, calls the memory core.
 */
import type { FileSystemHost } from '../host';
import { parseConfigText } from '../dsconfig/parse';
import {
  estimate,
  estimateDeepSpeedResult,
  estimateDefaults,
  estimateInputFromFacts,
  extractConfigFacts,
  factSource,
  formatCount,
  formatDeepSpeedTable,
  formatGiB,
  GiB,
  derivableBatchTotal,
  derivedGradientAccumulation,
  derivedMicroBatch,
  hfAutoBuffers,
  optimizerFromName,
  optimizerNames,
  parseCount,
  resolveModel,
  stageOptionLabel,
  type ConfigFacts,
  type EstimateInput,
  type EstimateResult,
  type Fact,
  type ModelInfo,
  type OffloadDevice,
  type Precision,
  type ValueSource,
  type ZeroStage,
} from '../memory';
import { resolveBuffers } from '../memory/buffers';
import { fitMark, formatStageTable } from '../memory/report';
import { resolvePath } from '../memory/paths';
import { nodeFileSystem } from '../nodeHost';
import { ExitCode, type CliIO } from './io';

const help = `Usage: zero-lens estimate [options]

Estimates GPU, CPU and NVMe memory for DeepSpeed ZeRO training, for every stage.

Model (one of --model / --params is needed unless --config names nothing else):
  --model <id|folder|config.json>  Hub or ModelScope id (Qwen/Qwen3-8B), local model folder, or config.json.
                                   Looked up in the built-in catalog and the HF/ModelScope caches; never online.
  --params <N>                     Total parameters: 7e9, 7B, 7000M, 6.5b
  --largest-layer-params <N>       Largest single layer (ZeRO-3 gathers it whole, ZeRO-1/2 offload buffers it);
                                   default from the model
Hardware:
  --gpus-per-node <N>              GPUs per node (default 1)
  --nodes <N>                      Nodes (default 1)
  --gpu-memory <GiB>               Memory of one GPU, e.g. 80; without it "fits" is unknown
ZeRO and precision:
  --config <ds_config.json>        Read stage, offload, precision, optimizer, micro-batch, gradient accumulation
                                   and buckets from it
  --stage 0|1|2|3                  ZeRO stage (default: from --config, else 0)
  --offload-optimizer none|cpu|nvme
  --offload-param none|cpu|nvme    Stage 3 only
  --dtype bf16|fp16|fp32           Training precision (default: from --config, else bf16)
  --optimizer <name>               ${optimizerNames.join(', ')} (default adamw)
Workload:
  --micro-batch <N>                Micro-batch per GPU (default: from --config, else 1)
  --grad-accum <N>                 Gradient accumulation steps (default: from --config, else 1); above 1, ZeRO-2
                                   optimizer offload keeps the gradients in a CPU buffer between micro-steps
  --seq-len <N>                    Tokens per sample (default 2048)
  --gradient-checkpointing         Full activation checkpointing (default off)
  --lora-rank <N>                  Train LoRA adapters of this rank instead of all weights
  --lora-targets <list>            Comma-separated modules (default all-linear)
  --qlora                          Frozen base weights in 4-bit NF4 with double quantisation
Overheads:
  --cuda-context <GiB>             CUDA context and kernels (default 1)
  --fragmentation <0..1>           Share added for allocator fragmentation (default 0.1)
Mode and output:
  --mode full|deepspeed            deepspeed = DeepSpeed's own estimator, to the byte (model states only)
  --zero-init / --no-zero-init     deepspeed mode: model built under zero.Init (default yes)
  --legacy-zero2                   deepspeed mode: the ZeRO-2 formula from before June 2024
  --additional-buffer-factor <x>   deepspeed mode: DeepSpeed's additional_buffer_factor (default 1.5)
  --format text|json               (default text)
  -h, --help

Exit status: 0 estimate printed, 2 usage error or unreadable --config / --model.
`;

class UsageError extends Error {}

type Option = { flag: string; value: string };

const valueFlags = new Set([
  '--config', '--model', '--params', '--largest-layer-params', '--gpus-per-node', '--nodes', '--gpu-memory', '--stage',
  '--offload-optimizer', '--offload-param', '--dtype', '--optimizer', '--micro-batch', '--grad-accum', '--seq-len', '--lora-rank',
  '--lora-targets', '--mode', '--format', '--cuda-context', '--fragmentation', '--additional-buffer-factor',
]);
const booleanFlags = new Set(['--gradient-checkpointing', '--no-gradient-checkpointing', '--zero-init', '--no-zero-init', '--legacy-zero2', '--qlora', '--help', '-h']);

function parseArgs(args: string[]): Map<string, Option> {
  const options = new Map<string, Option>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (booleanFlags.has(flag)) {
      if (eq > 0) throw new UsageError(`${flag} takes no value.`);
      options.set(flag, { flag, value: 'true' });
    } else if (valueFlags.has(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value.trim() === '' || (eq < 0 && value.startsWith('--'))) throw new UsageError(`${flag} needs a value.`);
      options.set(flag, { flag, value });
    } else {
      throw new UsageError(`unknown option '${arg}'.`);
    }
  }
  return options;
}

function count(o: Option | undefined, min: number): number | undefined {
  if (!o) return undefined;
  const n = parseCount(o.value);
  if (n === undefined || n < min) throw new UsageError(`${o.flag} '${o.value}' is not a number${min > 0 ? ` ≥ ${min}` : ''} (forms like 7e9, 7B, 7000M work).`);
  return n;
}

function integer(o: Option | undefined, min: number): number | undefined {
  if (!o) return undefined;
  const n = Number(o.value);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${o.flag} '${o.value}' must be a whole number ≥ ${min}.`);
  return n;
}

function real(o: Option | undefined, min: number, max = Infinity): number | undefined {
  if (!o) return undefined;
  const n = Number(o.value);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`${o.flag} '${o.value}' must be a number between ${min} and ${max}.`);
  return n;
}

function choice<T extends string>(o: Option | undefined, allowed: readonly T[]): T | undefined {
  if (!o) return undefined;
  const v = o.value.toLowerCase() as T;
  if (!allowed.includes(v)) throw new UsageError(`${o.flag} '${o.value}' must be one of: ${allowed.join(', ')}.`);
  return v;
}

/** One input as reported in JSON: what was used and where it came from. */
interface Reported {
  value: unknown;
  source: ValueSource;
}

const cli = (flag: string): ValueSource => ({ kind: 'cli', flag });
const byDefault: ValueSource = { kind: 'default' };

/** The first of: the CLI flag, the config fact, the default — with its source. */
function pick<T>(flagValue: T | undefined, flag: string, configFact: { value: T; source: ValueSource } | undefined, fallback: T): Reported & { value: T } {
  if (flagValue !== undefined) return { value: flagValue, source: cli(flag) };
  if (configFact) return configFact;
  return { value: fallback, source: byDefault };
}

function fromFact<T>(f: Fact<T> | undefined, file: string): { value: T; source: ValueSource } | undefined {
  if (!f) return undefined;
  const source = factSource(f);
  return { value: f.value, source: source.kind === 'config' ? { kind: 'config', path: `${file}#${f.path}` } : source };
}

/** The micro-batch DeepSpeed derives from the config's train_batch_size for this world size, with its source. */
function derivedMicro(facts: ConfigFacts | undefined, worldSize: number, file: string): { value: number; source: ValueSource } | undefined {
  const total = facts && derivableBatchTotal(facts);
  if (!total) return undefined;
  const value = derivedMicroBatch(total.value, facts.gradientAccumulationSteps?.value, worldSize);
  return value === undefined ? undefined : { value, source: { kind: 'config', path: `${file}#${total.path}` } };
}

/**
 * The config's gradient_accumulation_steps, or the one DeepSpeed derives from train_batch_size for this micro-batch
 * and world size (config.py:955-958, 973-975), with its source; undefined for "auto" and for no train_batch_size.
 */
function configAccumulation(facts: ConfigFacts | undefined, microBatch: number, worldSize: number, file: string): { value: number; source: ValueSource } | undefined {
  const steps = facts?.gradientAccumulationSteps;
  if (steps) return Number.isInteger(steps.value) && steps.value >= 1 ? fromFact(steps, file) : undefined;
  const total = facts && derivableBatchTotal(facts);
  const value = total && derivedGradientAccumulation(total.value, microBatch, worldSize);
  return total && value ? { value, source: { kind: 'config', path: `${file}#${total.path}` } } : undefined;
}

/** Where `offset` is in `text`, as the editor and `zero-lens check` show it: "line 3, column 7". */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** Why a path cannot be read as a file, in words: missing, a folder, or unreadable. */
async function unreadableReason(fs: FileSystemHost, file: string): Promise<string> {
  if (!(await fs.exists(file))) return 'no such file';
  if ((await fs.listDir(file)) !== undefined) return 'it is a folder; give the ds_config.json inside it';
  return 'it cannot be read';
}

/** The config as DeepSpeed would read it (the same parse as `zero-lens check`: BOM, comments, any depth). */
async function readConfig(fs: FileSystemHost, spec: string, cwd: string): Promise<{ facts: ConfigFacts; file: string }> {
  const file = resolvePath(spec, cwd, fs.homeDir) ?? spec;
  const text = await fs.readFile(file);
  if (text === undefined) throw new UsageError(`cannot read config '${spec}': ${await unreadableReason(fs, file)}.`);
  const parsed = parseConfigText(text);
  const limit = parsed.limits[0];
  const error = parsed.syntaxErrors[0];
  const why = limit
    ? limit.message
    : error
      ? `${lineColumn(text, error.offset)}: ${error.message} ('zero-lens check ${spec}' lists every problem.)`
      : typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)
        ? `a DeepSpeed config is one JSON object { ... }, not ${Array.isArray(parsed.value) ? 'a list' : typeof parsed.value === 'object' ? 'null' : `a ${typeof parsed.value}`}.`
        : undefined;
  if (why) throw new UsageError(`config '${spec}' is not a valid ds_config: ${why}`);
  return { facts: extractConfigFacts(parsed.value), file: spec };
}

/** Why `--model` named nothing ZeRO Lens can size: a folder or file it cannot read a model from, or an unknown id. */
async function unknownModelMessage(spec: string, fs: FileSystemHost, cwd: string): Promise<string> {
  const file = resolvePath(spec, cwd, fs.homeDir);
  const unreadable = 'ZeRO Lens found neither a config.json with the model\'s sizes (hidden_size, num_hidden_layers, …) nor *.safetensors weights';
  if (file && (await fs.exists(file))) {
    if ((await fs.listDir(file)) !== undefined) return `model folder '${spec}': ${unreadable} in it. Give --params (e.g. --params 7B).`;
    return `model '${spec}' is a file, and ${unreadable} next to it. Give the model folder, or --params (e.g. --params 7B).`;
  }
  return `unknown model '${spec}': not a local folder, not in the built-in catalog, not in the Hugging Face or ModelScope cache. Give --params (e.g. --params 7B).`;
}

/** A rough largest layer when only a count is known: vocab 128k × hidden size of a 32-layer model that size. */
function guessLargestLayer(totalParams: number): number {
  return Math.round(128_000 * Math.sqrt(totalParams / (12 * 32)));
}

async function resolveModelInput(o: Map<string, Option>, fs: FileSystemHost, cwd: string): Promise<{ model: ModelInfo; reported: Record<string, Reported>; notes: string[] }> {
  const notes: string[] = [];
  const modelSpec = o.get('--model');
  const params = count(o.get('--params'), 1);
  const largest = count(o.get('--largest-layer-params'), 0);
  let model: ModelInfo | undefined;
  if (modelSpec) {
    model = await resolveModel(modelSpec.value, fs, cwd);
    if (!model && params === undefined) throw new UsageError(await unknownModelMessage(modelSpec.value, fs, cwd));
  }
  if (!model && params === undefined) throw new UsageError('say which model: --model <id|folder> or --params <N>.');
  const base: ModelInfo = model ?? { id: 'custom', displayName: `${formatCount(params!)} params`, totalParams: params!, largestLayerParams: 0, source: cli('--params') };
  const totalSource = params !== undefined ? cli('--params') : base.source;
  let largestSource: ValueSource = base.source;
  let largestValue = base.largestLayerParams;
  if (largest !== undefined) {
    largestValue = largest;
    largestSource = cli('--largest-layer-params');
  } else if (!largestValue || params !== undefined) {
    largestValue = params !== undefined && model ? Math.min(model.largestLayerParams || guessLargestLayer(params), params) : guessLargestLayer(params ?? base.totalParams);
    if (!model || !model.largestLayerParams) {
      largestSource = byDefault;
      notes.push(`Largest layer guessed as ${formatCount(largestValue)} params; give --largest-layer-params for ZeRO-3 and ZeRO-1/2 offload precision.`);
    }
  }
  const resolved: ModelInfo = { ...base, totalParams: params ?? base.totalParams, largestLayerParams: largestValue };
  return {
    model: resolved,
    notes,
    reported: {
      model: { value: resolved.id, source: modelSpec ? base.source : cli('--params') },
      totalParams: { value: resolved.totalParams, source: totalSource },
      largestLayerParams: { value: resolved.largestLayerParams, source: largestSource },
    },
  };
}

interface Plan {
  input: EstimateInput;
  inputs: Record<string, Reported>;
  notes: string[];
  mode: 'full' | 'deepspeed';
  zeroInit: boolean;
  legacyZero2: boolean;
  additionalBufferFactor: number;
  format: 'text' | 'json';
}

async function plan(o: Map<string, Option>, fs: FileSystemHost, cwd: string): Promise<Plan> {
  const format = choice(o.get('--format'), ['text', 'json'] as const) ?? 'text';
  const mode = choice(o.get('--mode'), ['full', 'deepspeed'] as const) ?? 'full';
  const config = o.get('--config') ? await readConfig(fs, o.get('--config')!.value, cwd) : undefined;
  const facts = config?.facts;
  const file = config?.file ?? '';
  const f = <T>(fact: Fact<T> | undefined) => fromFact(fact, file);

  const { model, reported, notes } = await resolveModelInput(o, fs, cwd);
  const optimizerOption = o.get('--optimizer');
  const optimizer = optimizerOption ? optimizerFromName(optimizerOption.value) : undefined;
  if (optimizerOption && !optimizer) throw new UsageError(`--optimizer '${optimizerOption.value}' is not known; use one of: ${optimizerNames.join(', ')}.`);
  const gc = o.has('--gradient-checkpointing') ? true : o.has('--no-gradient-checkpointing') ? false : undefined;
  const loraRank = integer(o.get('--lora-rank'), 0);
  const gpuMemory = real(o.get('--gpu-memory'), 0.001);
  const devices = ['none', 'cpu', 'nvme'] as const;

  const inputs: Record<string, Reported> = { ...reported };
  const take = <T>(name: string, r: Reported & { value: T }): T => {
    inputs[name] = r;
    return r.value;
  };
  const stage = take<ZeroStage>('stage', pick(integer(o.get('--stage'), 0) as ZeroStage | undefined, '--stage', f(facts?.stage), estimateDefaults.stage));
  if (stage > 3) throw new UsageError(`--stage must be 0, 1, 2 or 3.`);
  const gpusPerNode = take('gpusPerNode', pick(integer(o.get('--gpus-per-node'), 1), '--gpus-per-node', undefined, estimateDefaults.gpusPerNode));
  const nodes = take('nodes', pick(integer(o.get('--nodes'), 1), '--nodes', undefined, estimateDefaults.nodes));
  const microBatch = take('microBatch', pick(integer(o.get('--micro-batch'), 1), '--micro-batch', f(facts?.microBatch) ?? derivedMicro(facts, gpusPerNode * nodes, file), estimateDefaults.microBatch));
  const accumulation = configAccumulation(facts, microBatch, gpusPerNode * nodes, file);
  const input: EstimateInput = {
    model,
    stage,
    offloadOptimizer: take<OffloadDevice>('offloadOptimizer', pick(choice(o.get('--offload-optimizer'), devices), '--offload-optimizer', f(facts?.offloadOptimizer), 'none')),
    offloadParam: take<OffloadDevice>('offloadParam', pick(choice(o.get('--offload-param'), devices), '--offload-param', f(facts?.offloadParam), 'none')),
    precision: take<Precision>('precision', pick(choice(o.get('--dtype'), ['bf16', 'fp16', 'fp32'] as const), '--dtype', f(facts?.precision), estimateDefaults.precision)),
    optimizer: take('optimizer', pick(optimizer, '--optimizer', f(facts?.optimizer), estimateDefaults.optimizer)),
    gpusPerNode,
    nodes,
    microBatch,
    gradientAccumulationSteps: take('gradientAccumulationSteps', pick(integer(o.get('--grad-accum'), 1), '--grad-accum', accumulation, estimateDefaults.gradientAccumulationSteps)),
    seqLen: take('seqLen', pick(integer(o.get('--seq-len'), 1), '--seq-len', undefined, estimateDefaults.seqLen)),
    gradientCheckpointing: take('gradientCheckpointing', pick(gc, gc ? '--gradient-checkpointing' : '--no-gradient-checkpointing', undefined, estimateDefaults.gradientCheckpointing)),
    flashAttention: take('flashAttention', pick<boolean>(undefined, '', undefined, estimateDefaults.flashAttention)),
    cudaContextBytes: take('cudaContextBytes', pick(realBytes(o.get('--cuda-context')), '--cuda-context', undefined, estimateDefaults.cudaContextBytes)),
    fragmentation: take('fragmentation', pick(real(o.get('--fragmentation'), 0, 1), '--fragmentation', undefined, estimateDefaults.fragmentation)),
  };
  if (gpuMemory !== undefined) input.gpuMemoryBytes = take('gpuMemoryBytes', { value: Math.round(gpuMemory * GiB), source: cli('--gpu-memory') });
  else inputs.gpuMemoryBytes = { value: null, source: byDefault };

  if (facts) {
    const fromConfig = estimateInputFromFacts(facts);
    for (const key of ['bf16MasterWeightsAndGrads', 'bf16OptimizerStates', 'fp32GradAccum', 'pinMemory'] as const) {
      const fact = facts[key];
      if (fact && fromConfig[key] !== undefined) {
        input[key] = fact.value;
        inputs[key] = fromFact(fact, file)!;
      }
    }
    input.buffers = { ...fromConfig.buffers };
    for (const [key, fact] of Object.entries(facts.buffers)) inputs[key] = fromFact<unknown>(fact, file)!;
    // "auto" bucket sizes are what the HF Trainer writes from the model's hidden size.
    const hidden = model.architecture?.hiddenSize;
    if (hidden) {
      const auto = hfAutoBuffers(hidden);
      for (const [suffix, key] of [['.reduce_bucket_size', 'reduceBucketSize'], ['prefetch_bucket_size', 'prefetchBucketSize']] as const) {
        // stage3_prefetch_bucket_size or its short alias prefetch_bucket_size
        const path = facts.auto.find((p) => p.startsWith('zero_optimization.') && p.endsWith(suffix));
        if (path) {
          input.buffers[key] = auto[key];
          inputs[key] = { value: auto[key], source: { kind: 'config', path: `${file}#${path}` } };
          notes.push(`${path} is "auto": the HF Trainer fills ${formatCount(auto[key]!)} from hidden_size ${hidden}.`);
        }
      }
    }
    const mattersHere = new Set(['fp16.enabled', 'bf16.enabled', 'bfloat16.enabled', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps']);
    for (const path of facts.auto) if (mattersHere.has(path)) notes.push(`${path} is "auto" (filled by the trainer at launch); the default or command-line value is used.`);
  }
  if (loraRank !== undefined && loraRank > 0) {
    const targets = (o.get('--lora-targets')?.value ?? 'all-linear').split(',').map((t) => t.trim()).filter(Boolean);
    input.lora = { rank: loraRank, targetModules: targets };
    if (o.has('--qlora')) Object.assign(input.lora, { quantBits: 4, doubleQuant: true });
    inputs.lora = { value: input.lora, source: cli('--lora-rank') };
  } else if (o.has('--qlora')) {
    throw new UsageError('--qlora needs --lora-rank.');
  }

  if (mode === 'deepspeed' && stage === 0) throw new UsageError('--mode deepspeed: DeepSpeed has estimators for ZeRO-2 and ZeRO-3 only (stage 1 uses the ZeRO-2 one); choose --stage 1, 2 or 3.');
  const zeroInit = !o.has('--no-zero-init');
  const legacyZero2 = o.has('--legacy-zero2');
  const bufferFactor = real(o.get('--additional-buffer-factor'), 0);
  inputs.mode = { value: mode, source: o.has('--mode') ? cli('--mode') : byDefault };
  if (mode === 'deepspeed') {
    inputs.zeroInit = { value: zeroInit, source: o.has('--no-zero-init') ? cli('--no-zero-init') : o.has('--zero-init') ? cli('--zero-init') : byDefault };
    inputs.legacyZero2 = { value: legacyZero2, source: legacyZero2 ? cli('--legacy-zero2') : byDefault };
    inputs.additionalBufferFactor = pick(bufferFactor, '--additional-buffer-factor', undefined, 1.5);
  } else {
    // Buffer sizes not given by the config are DeepSpeed's defaults (overlap_comm's depends on the stage).
    const resolved = resolveBuffers(stage, input.buffers);
    for (const [key, value] of Object.entries(resolved)) inputs[key] ??= { value, source: byDefault };
  }
  return { input, inputs, notes, mode, zeroInit, legacyZero2, additionalBufferFactor: bufferFactor ?? 1.5, format };
}

function realBytes(o: Option | undefined): number | undefined {
  const gib = real(o, 0);
  return gib === undefined ? undefined : Math.round(gib * GiB);
}

function run(p: Plan, stage: ZeroStage): EstimateResult | undefined {
  const input: EstimateInput = { ...p.input, stage };
  return p.mode === 'deepspeed' ? estimateDeepSpeedResult(input, { zeroInit: p.zeroInit, legacyZero2: p.legacyZero2, additionalBufferFactor: p.additionalBufferFactor }) : estimate(input);
}

const stages: ZeroStage[] = [0, 1, 2, 3];

export async function runEstimate(args: string[], io: CliIO, fs: FileSystemHost = nodeFileSystem): Promise<number> {
  let p: Plan;
  try {
    const options = parseArgs(args);
    if (options.has('--help') || options.has('-h')) {
      io.stdout(help);
      return ExitCode.ok;
    }
    p = await plan(options, fs, io.cwd);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`zero-lens estimate: ${error.message}\nRun 'zero-lens estimate --help' for the options.\n`);
    return ExitCode.usage;
  }

  const selected = run(p, p.input.stage)!;
  const perStage = stages.map((stage) => ({ stage, result: run(p, stage) }));
  const notes = [...p.notes, ...selected.notes];

  if (p.format === 'json') {
    const output = {
      mode: p.mode,
      model: { id: p.input.model.id, displayName: p.input.model.displayName },
      perGpu: selected.perGpu,
      perCpu: selected.perCpu,
      nvme: selected.nvme,
      fits: selected.fits,
      stages: perStage.map((s) => ({ stage: s.stage, label: stageOptionLabel(s.stage, s.stage > 0 ? p.input.offloadOptimizer : 'none', s.stage === 3 ? p.input.offloadParam : 'none'), perGpuTotal: s.result ? s.result.perGpu.total : null, fits: s.result ? s.result.fits : null })),
      inputs: p.inputs,
      notes,
    };
    io.stdout(JSON.stringify(output, null, 2) + '\n');
    return ExitCode.ok;
  }

  io.stdout(textReport(p, selected, perStage, notes));
  return ExitCode.ok;
}

function textReport(p: Plan, selected: EstimateResult, perStage: Array<{ stage: ZeroStage; result: EstimateResult | undefined }>, notes: string[]): string {
  const i = p.input;
  const m = i.model;
  const out: string[] = [];
  const gpus = i.gpusPerNode * i.nodes;
  out.push(`Model: ${m.displayName} — ${formatCount(m.totalParams)} params (${m.totalParams.toLocaleString('en-US')}), largest layer ${formatCount(m.largestLayerParams)}`);
  out.push(`Setup: ${i.nodes} node${i.nodes > 1 ? 's' : ''} × ${i.gpusPerNode} GPU${i.gpusPerNode > 1 ? 's' : ''} = ${gpus}; ${i.precision}, ${i.optimizer}` + (i.gpuMemoryBytes ? `; ${formatGiB(i.gpuMemoryBytes)} GiB per GPU` : '; GPU size unknown (--gpu-memory)'));
  if (p.mode === 'deepspeed') {
    out.push('', "DeepSpeed's estimator (model states only: no activations, buffers or CUDA context):", '');
    for (const stage of [2, 3] as const) {
      out.push(formatDeepSpeedTable({ totalParams: m.totalParams, largestLayerParams: m.largestLayerParams, gpusPerNode: i.gpusPerNode, nodes: i.nodes, stage, legacyZero2: p.legacyZero2, additionalBufferFactor: p.additionalBufferFactor }));
    }
    out.push(`Selected (${stageOptionLabel(i.stage, i.offloadOptimizer, i.stage === 3 ? i.offloadParam : 'none')}, zero_init=${p.zeroInit ? 1 : 0}): ` +
      `${formatGiB(selected.perGpu.total)} GiB per GPU, ${formatGiB(selected.perCpu.total)} GiB per CPU — ${fitMark(selected.fits)}`);
  } else {
    out.push(`Workload: micro-batch ${i.microBatch}, gradient accumulation ${i.gradientAccumulationSteps}, sequence ${i.seqLen}, gradient checkpointing ${i.gradientCheckpointing ? 'on' : 'off'}` + (i.lora ? `, LoRA rank ${i.lora.rank}${i.lora.quantBits ? ' (QLoRA 4-bit)' : ''}` : ', full fine-tuning'), '');
    const columns = perStage.map((s) => ({
      stage: s.stage,
      label: stageOptionLabel(s.stage, s.stage > 0 ? i.offloadOptimizer : 'none', s.stage === 3 ? i.offloadParam : 'none'),
      result: s.result,
    }));
    out.push(formatStageTable(columns, i.stage).trimEnd());
    out.push('', `* selected stage: ${fitMark(selected.fits)}`);
  }
  if (notes.length) out.push('', 'Notes:', ...[...new Set(notes)].map((n) => `  - ${n}`));
  return out.join('\n') + '\n';
}
