/**
 * `zero-lens estimate`'s command line, read into what the training layer takes: overrides of the training
 * context and of the estimate, each with its flag as source. No file is read here.
 */
import type { Sourced, ZeroOption } from '../protocol';
import type { OptimizerName, Precision } from '../memory/types';
import { optimizerFromName, optimizerNames } from '../memory/optimizers';
import { parseCount } from '../memory/units';
import type { ContextOverrides, LoraContext } from '../training/context';
import type { EstimateOverrides } from '../training/analyze';
import { GiB } from '../protocol';

export class UsageError extends Error {}

type Option = { flag: string; value: string };

const valueFlags = new Set([
  '--config', '--model', '--params', '--largest-layer-params', '--gpus-per-node', '--nodes', '--gpu-memory', '--stage',
  '--offload-optimizer', '--offload-param', '--dtype', '--optimizer', '--micro-batch', '--grad-accum', '--seq-len', '--lora-rank',
  '--lora-targets', '--mode', '--format', '--cuda-context', '--fragmentation', '--additional-buffer-factor',
]);
const booleanFlags = new Set(['--gradient-checkpointing', '--no-gradient-checkpointing', '--zero-init', '--no-zero-init', '--legacy-zero2', '--qlora', '--help', '-h']);

export interface EstimateArgs {
  /** The config, script or launcher YAML to estimate from, as written on the command line. */
  file?: string;
  /** `--config`: a ds_config read on its own (no workspace search), for the flags-only form. */
  config?: string;
  help: boolean;
  format: 'text' | 'json';
  mode: 'full' | 'deepspeed';
  deepspeed: { zeroInit: Sourced<boolean>; legacyZero2: Sourced<boolean>; additionalBufferFactor: Sourced<number> };
  /** `--model`, `--params`, `--largest-layer-params` as given; the CLI resolves them. */
  model: { spec?: string; params?: Option & { count: number }; largestLayer?: Option & { count: number } };
  context: ContextOverrides;
  estimate: EstimateOverrides;
}

const cli = (flag: string) => ({ kind: 'cli', flag }) as const;
const sourced = <T>(value: T | undefined, flag: string): Sourced<T> | undefined => (value === undefined ? undefined : { value, source: cli(flag) });

function parseOptions(args: string[]): { options: Map<string, Option>; positional: string[] } {
  const options = new Map<string, Option>();
  const positional: string[] = [];
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
    } else if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option '${arg}'.`);
    } else {
      positional.push(arg);
    }
  }
  return { options, positional };
}

function count(o: Option | undefined, min: number): (Option & { count: number }) | undefined {
  if (!o) return undefined;
  const n = parseCount(o.value);
  if (n === undefined || n < min) throw new UsageError(`${o.flag} '${o.value}' is not a number${min > 0 ? ` ≥ ${min}` : ''} (forms like 7e9, 7B, 7000M work).`);
  return { ...o, count: n };
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

const devices = ['none', 'cpu', 'nvme'] as const;

export function parseEstimateArgs(args: string[]): EstimateArgs {
  const { options: o, positional } = parseOptions(args);
  if (positional.length > 1) throw new UsageError(`one file at a time (got ${positional.length}: ${positional.join(', ')}).`);
  const help = o.has('--help') || o.has('-h');
  const format = choice(o.get('--format'), ['text', 'json'] as const) ?? 'text';
  const mode = choice(o.get('--mode'), ['full', 'deepspeed'] as const) ?? 'full';

  const optimizerOption = o.get('--optimizer');
  const optimizer = optimizerOption ? optimizerFromName(optimizerOption.value) : undefined;
  if (optimizerOption && !optimizer) throw new UsageError(`--optimizer '${optimizerOption.value}' is not known; use one of: ${optimizerNames.join(', ')}.`);
  const stage = integer(o.get('--stage'), 0);
  if (stage !== undefined && stage > 3) throw new UsageError('--stage must be 0, 1, 2 or 3.');
  const gc = o.has('--gradient-checkpointing') ? true : o.has('--no-gradient-checkpointing') ? false : undefined;
  const gpuMemory = real(o.get('--gpu-memory'), 0.001);
  const cudaContext = real(o.get('--cuda-context'), 0);

  const option: EstimateOverrides['option'] = {};
  if (stage !== undefined) option.stage = { value: stage as ZeroOption['stage'], source: cli('--stage') };
  const offloadOptimizer = choice(o.get('--offload-optimizer'), devices);
  if (offloadOptimizer) option.offloadOptimizer = { value: offloadOptimizer, source: cli('--offload-optimizer') };
  const offloadParam = choice(o.get('--offload-param'), devices);
  if (offloadParam) option.offloadParam = { value: offloadParam, source: cli('--offload-param') };

  const context: ContextOverrides = {
    model: sourced(o.get('--model')?.value, '--model'),
    gpusPerNode: sourced(integer(o.get('--gpus-per-node'), 1), '--gpus-per-node'),
    nodes: sourced(integer(o.get('--nodes'), 1), '--nodes'),
    gpuMemoryGiB: sourced(gpuMemory, '--gpu-memory'),
    sequenceLength: sourced(integer(o.get('--seq-len'), 1), '--seq-len'),
    microBatchSize: sourced(integer(o.get('--micro-batch'), 1), '--micro-batch'),
    gradientAccumulationSteps: sourced(integer(o.get('--grad-accum'), 1), '--grad-accum'),
    gradientCheckpointing: sourced(gc, gc ? '--gradient-checkpointing' : '--no-gradient-checkpointing'),
    dtype: sourced(choice(o.get('--dtype'), ['bf16', 'fp16', 'fp32'] as const) as Precision | undefined, '--dtype'),
    lora: loraOverride(o),
  };
  const estimate: EstimateOverrides = {
    option,
    optimizer: sourced<OptimizerName>(optimizer, '--optimizer'),
    cudaContextBytes: sourced(cudaContext === undefined ? undefined : Math.round(cudaContext * GiB), '--cuda-context'),
    fragmentation: sourced(real(o.get('--fragmentation'), 0, 1), '--fragmentation'),
  };
  return {
    file: positional[0],
    config: o.get('--config')?.value,
    help,
    format,
    mode,
    deepspeed: {
      zeroInit: { value: !o.has('--no-zero-init'), source: o.has('--no-zero-init') ? cli('--no-zero-init') : o.has('--zero-init') ? cli('--zero-init') : { kind: 'default' } },
      legacyZero2: { value: o.has('--legacy-zero2'), source: o.has('--legacy-zero2') ? cli('--legacy-zero2') : { kind: 'default' } },
      additionalBufferFactor: sourced(real(o.get('--additional-buffer-factor'), 0), '--additional-buffer-factor') ?? { value: 1.5, source: { kind: 'default' } },
    },
    model: { spec: o.get('--model')?.value, params: count(o.get('--params'), 1), largestLayer: count(o.get('--largest-layer-params'), 0) },
    context,
    estimate,
  };
}

/** `--lora-rank N [--lora-targets a,b] [--qlora]`; a rank of 0 means full fine-tuning, also over a script's LoRA. */
function loraOverride(o: Map<string, Option>): Sourced<LoraContext> | undefined {
  const rank = integer(o.get('--lora-rank'), 0);
  if (rank === undefined) {
    if (o.has('--qlora')) throw new UsageError('--qlora needs --lora-rank.');
    return undefined;
  }
  const targetModules = (o.get('--lora-targets')?.value ?? 'all-linear').split(',').map((t) => t.trim()).filter(Boolean);
  const lora: LoraContext = { rank, targetModules };
  if (o.has('--qlora')) Object.assign(lora, { quantBits: 4, doubleQuant: true });
  return { value: lora, source: cli('--lora-rank') };
}
