/**
 * `zero-lens estimate`'s command line, read into what the training layer takes: overrides of the training
 * context and of the estimate, each with its flag as source. No file is read here.
 */
import type { Sourced, ZeroOption } from '../protocol';
import type { OptimizerName, Precision } from '../memory/types';
import { optimizerFromName, optimizerNames } from '../memory/optimizers';
import { parseCount } from '../memory/units';
import type { ContextOverrides, LoraContext, RlhfContext, WorkloadContext } from '../training/context';
import type { AttentionImpl, FsdpSpec, ModelParallelSpec, OptimizerKernel } from '../memory/types';
import type { EstimateOverrides } from '../training/analyze';
import { english, GiB, joinList, type Translate } from '../protocol';

export class UsageError extends Error {}

type Option = { flag: string; value: string };

const valueFlags = new Set([
  '--config', '--model', '--params', '--largest-layer-params', '--gpus-per-node', '--nodes', '--gpu-memory', '--stage',
  '--offload-optimizer', '--offload-param', '--dtype', '--optimizer', '--micro-batch', '--grad-accum', '--seq-len', '--lora-rank',
  '--lora-targets', '--mode', '--format', '--cuda-context', '--fragmentation', '--additional-buffer-factor',
  '--attn-impl', '--sequence-parallel', '--lora-dropout', '--torch-dtype', '--rlhf', '--ref-model', '--reward-model', '--value-model', '--teacher-model',
  '--vllm-gpu-memory-utilization', '--vllm-sleep-level', '--num-generations', '--max-completion-length',
  '--fsdp', '--fsdp-version', '--fsdp-mixed-precision', '--tp', '--pp', '--cp', '--ep',
]);
const booleanFlags = new Set([
  '--gradient-checkpointing', '--no-gradient-checkpointing', '--zero-init', '--no-zero-init', '--legacy-zero2', '--qlora', '--help', '-h',
  '--use-liger-kernel', '--chunked-loss', '--packing', '--padding-free', '--fixed-length', '--rollout-offload', '--freeze-vit', '--no-freeze-vit', '--ddp', '--teacher-offload',
  '--fsdp-offload', '--no-sequence-parallel-tp', '--no-distributed-optimizer', '--megatron-offload-optimizer',
]);

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

function parseOptions(args: string[], t: Translate): { options: Map<string, Option>; positional: string[] } {
  const options = new Map<string, Option>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (booleanFlags.has(flag)) {
      if (eq > 0) throw new UsageError(t('{0} takes no value.', flag));
      options.set(flag, { flag, value: 'true' });
    } else if (valueFlags.has(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value.trim() === '' || (eq < 0 && value.startsWith('--'))) throw new UsageError(t('{0} needs a value.', flag));
      options.set(flag, { flag, value });
    } else if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(t("unknown option '{0}'.", arg));
    } else {
      positional.push(arg);
    }
  }
  return { options, positional };
}

function count(o: Option | undefined, min: number, t: Translate): (Option & { count: number }) | undefined {
  if (!o) return undefined;
  const n = parseCount(o.value);
  if (n === undefined || n < min) {
    throw new UsageError(
      min > 0
        ? t("{0} '{1}' is not a number ≥ {2} (forms like 7e9, 7B, 7000M work).", o.flag, o.value, min)
        : t("{0} '{1}' is not a number (forms like 7e9, 7B, 7000M work).", o.flag, o.value),
    );
  }
  return { ...o, count: n };
}

function integer(o: Option | undefined, min: number, t: Translate): number | undefined {
  if (!o) return undefined;
  const n = Number(o.value);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(t("{0} '{1}' must be a whole number ≥ {2}.", o.flag, o.value, min));
  return n;
}

function real(o: Option | undefined, t: Translate, min: number, max = Infinity): number | undefined {
  if (!o) return undefined;
  const n = Number(o.value);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(
      max === Infinity ? t("{0} '{1}' must be a number ≥ {2}.", o.flag, o.value, min) : t("{0} '{1}' must be a number between {2} and {3}.", o.flag, o.value, min, max),
    );
  return n;
}

function choice<T extends string>(o: Option | undefined, allowed: readonly T[], t: Translate): T | undefined {
  if (!o) return undefined;
  const v = o.value.toLowerCase() as T;
  if (!allowed.includes(v)) throw new UsageError(t("{0} '{1}' must be one of: {2}.", o.flag, o.value, joinList(t, allowed)));
  return v;
}

const devices = ['none', 'cpu', 'nvme'] as const;

/** The command line; its usage errors in the reader's language (`t`). */
export function parseEstimateArgs(args: string[], t: Translate = english): EstimateArgs {
  const { options: o, positional } = parseOptions(args, t);
  if (positional.length > 1) throw new UsageError(t('one file at a time (got {0}: {1}).', positional.length, joinList(t, positional)));
  const help = o.has('--help') || o.has('-h');
  const format = choice(o.get('--format'), ['text', 'json'] as const, t) ?? 'text';
  const mode = choice(o.get('--mode'), ['full', 'deepspeed'] as const, t) ?? 'full';
  const deepspeedOnly = ['--zero-init', '--no-zero-init', '--legacy-zero2', '--additional-buffer-factor'].find((f) => o.has(f));
  if (deepspeedOnly && mode !== 'deepspeed') throw new UsageError(t('{0} needs --mode deepspeed.', deepspeedOnly));

  const optimizerOption = o.get('--optimizer');
  const optimizer = optimizerOption ? optimizerFromName(optimizerOption.value) : undefined;
  if (optimizerOption && !optimizer) throw new UsageError(t("--optimizer '{0}' is not known; use one of: {1}.", optimizerOption.value, joinList(t, optimizerNames)));
  const stage = integer(o.get('--stage'), 0, t);
  if (stage !== undefined && stage > 3) throw new UsageError(t('--stage must be 0, 1, 2 or 3.'));
  const gc = o.has('--gradient-checkpointing') ? true : o.has('--no-gradient-checkpointing') ? false : undefined;
  const gpuMemory = real(o.get('--gpu-memory'), t, 0.001);
  const cudaContext = real(o.get('--cuda-context'), t, 0);

  const option: EstimateOverrides['option'] = {};
  if (stage !== undefined) option.stage = { value: stage as ZeroOption['stage'], source: cli('--stage') };
  const offloadOptimizer = choice(o.get('--offload-optimizer'), devices, t);
  if (offloadOptimizer) option.offloadOptimizer = { value: offloadOptimizer, source: cli('--offload-optimizer') };
  const offloadParam = choice(o.get('--offload-param'), devices, t);
  if (offloadParam) option.offloadParam = { value: offloadParam, source: cli('--offload-param') };

  const context: ContextOverrides = {
    model: sourced(o.get('--model')?.value, '--model'),
    gpusPerNode: sourced(integer(o.get('--gpus-per-node'), 1, t), '--gpus-per-node'),
    nodes: sourced(integer(o.get('--nodes'), 1, t), '--nodes'),
    gpuMemoryGiB: sourced(gpuMemory, '--gpu-memory'),
    sequenceLength: sourced(integer(o.get('--seq-len'), 1, t), '--seq-len'),
    microBatchSize: sourced(integer(o.get('--micro-batch'), 1, t), '--micro-batch'),
    gradientAccumulationSteps: sourced(integer(o.get('--grad-accum'), 1, t), '--grad-accum'),
    gradientCheckpointing: sourced(gc, gc ? '--gradient-checkpointing' : '--no-gradient-checkpointing'),
    dtype: sourced(choice(o.get('--dtype'), ['bf16', 'fp16', 'fp32'] as const, t) as Precision | undefined, '--dtype'),
    lora: loraOverride(o, t),
    workload: workloadOverride(o, t),
  };
  const estimate: EstimateOverrides = {
    option,
    optimizer: sourced<OptimizerName>(optimizer, '--optimizer'),
    cudaContextBytes: sourced(cudaContext === undefined ? undefined : Math.round(cudaContext * GiB), '--cuda-context'),
    fragmentation: sourced(real(o.get('--fragmentation'), t, 0, 1), '--fragmentation'),
    engine: o.has('--ddp') ? { value: 'torch', source: cli('--ddp') } : undefined,
    optimizerKernel: optimizerOption ? sourced<OptimizerKernel>(kernelOf(optimizerOption.value), '--optimizer') : undefined,
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
      additionalBufferFactor: sourced(real(o.get('--additional-buffer-factor'), t, 0), '--additional-buffer-factor') ?? { value: 1.5, source: { kind: 'default' } },
    },
    model: { spec: o.get('--model')?.value, params: count(o.get('--params'), 1, t), largestLayer: count(o.get('--largest-layer-params'), 0, t) },
    context,
    estimate,
  };
}

/** The kernel a trainer's optimizer name implies: torch's fused AdamW and bitsandbytes' 8-bit ones need no step workspace. */
function kernelOf(name: string): OptimizerKernel | undefined {
  const n = name.toLowerCase();
  if (/fused|8bit|bnb/.test(n)) return 'fused';
  if (/adamw_torch|adamw_hf|foreach/.test(n)) return 'foreach';
  return undefined;
}

const rlhfTypes = ['dpo', 'orpo', 'simpo', 'kto', 'cpo', 'rm', 'ppo', 'grpo', 'gkd'] as const;

/** The workload facts of the run, each flag its own source (`--use-liger-kernel`, `--attn-impl`, …, `--rlhf`). */
function workloadOverride(o: Map<string, Option>, t: Translate): WorkloadContext {
  const w: WorkloadContext = {};
  const flag = (name: string) => o.has(name);
  if (flag('--use-liger-kernel') && flag('--chunked-loss')) throw new UsageError(t('--use-liger-kernel and --chunked-loss are two ways to compute the loss; give one.'));
  if (flag('--use-liger-kernel')) w.loss = { value: 'liger', source: cli('--use-liger-kernel') };
  if (flag('--chunked-loss')) w.loss = { value: 'chunked', source: cli('--chunked-loss') };
  const attn = choice(o.get('--attn-impl'), ['eager', 'sdpa', 'flash'] as const, t);
  if (attn) w.attention = { value: attn as AttentionImpl, source: cli('--attn-impl') };
  if (flag('--packing')) w.packing = { value: true, source: cli('--packing') };
  if (flag('--padding-free')) w.paddingFree = { value: true, source: cli('--padding-free') };
  if (flag('--fixed-length')) w.fixedLength = { value: true, source: cli('--fixed-length') };
  const sp = integer(o.get('--sequence-parallel'), 1, t);
  if (sp !== undefined) w.sequenceParallel = { value: sp, source: cli('--sequence-parallel') };
  const torchDtype = choice(o.get('--torch-dtype'), ['bf16', 'fp16', 'fp32'] as const, t);
  if (torchDtype) w.torchDtype = { value: torchDtype, source: cli('--torch-dtype') };
  if (flag('--freeze-vit') || flag('--no-freeze-vit')) w.freezeVit = { value: flag('--freeze-vit'), source: cli(flag('--freeze-vit') ? '--freeze-vit' : '--no-freeze-vit') };
  if (flag('--ddp')) w.ddp = { value: true, source: cli('--ddp') };
  // Plain PyTorch and FSDP have no ZeRO stage or offload: with one, the table showed their figures under "ZeRO-3 *".
  const withoutDeepSpeed = flag('--ddp') ? '--ddp' : flag('--fsdp') ? '--fsdp' : undefined;
  const zeroOption = ['--stage', '--offload-optimizer', '--offload-param'].find((f) => flag(f) && !(withoutDeepSpeed === '--fsdp' && f === '--stage'));
  if (withoutDeepSpeed && zeroOption) throw new UsageError(t('{0} trains without DeepSpeed, and {1} is a DeepSpeed ZeRO option: give one.', withoutDeepSpeed, zeroOption));
  const fsdp = fsdpOverride(o, t);
  if (fsdp) w.fsdp = fsdp;
  const parallel = parallelOverride(o, t);
  if (parallel) w.modelParallel = parallel;
  if (fsdp && (flag('--ddp') || parallel?.value.kind === 'megatron')) throw new UsageError(t('--fsdp is one way to train; --ddp and Megatron sizes (--pp, --cp, --ep) are others: give one.'));
  const optimizer = o.get('--optimizer');
  if (optimizer) w.optimizer = { value: optimizer.value, source: cli('--optimizer') };
  const type = choice(o.get('--rlhf'), rlhfTypes, t);
  const extras = [
    '--ref-model', '--reward-model', '--value-model', '--teacher-model', '--teacher-offload', '--vllm-gpu-memory-utilization', '--vllm-sleep-level',
    '--rollout-offload', '--num-generations', '--max-completion-length',
  ].filter(flag);
  if (!type && extras.length) throw new UsageError(t('{0} needs --rlhf ({1}).', extras[0], joinList(t, rlhfTypes)));
  if (type) {
    const rlhf: RlhfContext = { type };
    rlhf.referenceModel = o.get('--ref-model')?.value;
    rlhf.rewardModel = o.get('--reward-model')?.value;
    rlhf.valueModel = o.get('--value-model')?.value ?? (type === 'ppo' ? rlhf.rewardModel : undefined);
    rlhf.teacherModel = o.get('--teacher-model')?.value;
    if (flag('--teacher-offload')) Object.assign(rlhf, { teacherSharded: true, teacherOffloaded: true });
    const util = real(o.get('--vllm-gpu-memory-utilization'), t, 0.01, 1);
    if (['grpo', 'ppo', 'gkd'].includes(type)) {
      rlhf.rollout = {
        engine: util !== undefined ? 'vllm-colocate' : 'generate',
        gpuMemoryUtilization: util,
        sleepLevel: integer(o.get('--vllm-sleep-level'), 0, t),
        offloadModel: flag('--rollout-offload') || undefined,
        offloadOptimizer: flag('--rollout-offload') || undefined,
        completionLength: integer(o.get('--max-completion-length'), 1, t) ?? 512,
        completionStated: o.has('--max-completion-length'),
        generations: integer(o.get('--num-generations'), 1, t),
      };
    }
    for (const key of Object.keys(rlhf) as Array<keyof RlhfContext>) if (rlhf[key] === undefined) delete rlhf[key];
    w.rlhf = { value: rlhf, source: cli('--rlhf') };
  }
  return w;
}

const fsdpStrategies = ['full_shard', 'shard_grad_op', 'no_shard', 'hybrid_shard', 'hybrid_shard_zero2'] as const;

/** `--fsdp STRATEGY [--fsdp-offload] [--fsdp-version 1|2] [--fsdp-mixed-precision bf16|fp16|no]`: PyTorch FSDP instead of DeepSpeed. */
function fsdpOverride(o: Map<string, Option>, t: Translate): Sourced<FsdpSpec> | undefined {
  const strategy = choice(o.get('--fsdp'), fsdpStrategies, t);
  const extras = ['--fsdp-offload', '--fsdp-version', '--fsdp-mixed-precision'].filter((f) => o.has(f));
  if (!strategy) {
    if (extras.length) throw new UsageError(t('{0} needs --fsdp ({1}).', extras[0], joinList(t, fsdpStrategies)));
    return undefined;
  }
  if (o.has('--stage')) throw new UsageError(t('--fsdp and --stage choose between FSDP and DeepSpeed ZeRO: give one.'));
  const version = integer(o.get('--fsdp-version'), 1, t);
  if (version !== undefined && version > 2) throw new UsageError(t('--fsdp-version must be 1 or 2.'));
  const precision = choice(o.get('--fsdp-mixed-precision'), ['bf16', 'fp16', 'no'] as const, t);
  const value: FsdpSpec = {
    strategy: strategy.toUpperCase() as FsdpSpec['strategy'],
    version: version === 2 ? 2 : 1,
    offloadParams: o.has('--fsdp-offload'),
    mixedPrecision: precision !== 'no',
    autoWrap: 'TRANSFORMER_BASED_WRAP',
  };
  return { value, source: cli('--fsdp') };
}

/**
 * `--tp/--pp/--cp/--ep N`: Megatron-Core's sizes; `--tp` alone beside a ZeRO `--stage` or `--config` is DeepSpeed
 * AutoTP (`tensor_parallel.autotp_size`).
 */
function parallelOverride(o: Map<string, Option>, t: Translate): Sourced<ModelParallelSpec> | undefined {
  const tp = integer(o.get('--tp'), 1, t);
  const pp = integer(o.get('--pp'), 1, t);
  const cp = integer(o.get('--cp'), 1, t);
  const ep = integer(o.get('--ep'), 1, t);
  const first = ['--tp', '--pp', '--cp', '--ep'].find((f) => o.has(f));
  const megatronOnly = ['--no-sequence-parallel-tp', '--no-distributed-optimizer', '--megatron-offload-optimizer'].find((f) => o.has(f));
  if (!first) {
    if (megatronOnly) throw new UsageError(t('{0} needs Megatron sizes (--tp, --pp, --cp or --ep).', megatronOnly));
    return undefined;
  }
  const deepspeed = (o.has('--stage') || o.has('--config')) && pp === undefined && cp === undefined && ep === undefined && !megatronOnly;
  if (deepspeed) return { value: { kind: 'autotp', tp: tp ?? 1, pp: 1, cp: 1, ep: 1 }, source: cli('--tp') };
  const value: ModelParallelSpec = {
    kind: 'megatron',
    tp: tp ?? 1,
    pp: pp ?? 1,
    cp: cp ?? 1,
    ep: ep ?? 1,
    sequenceParallel: !o.has('--no-sequence-parallel-tp'),
    distributedOptimizer: !o.has('--no-distributed-optimizer'),
    offloadOptimizer: o.has('--megatron-offload-optimizer') || undefined,
  };
  return { value, source: cli(first) };
}

/** `--lora-rank N [--lora-targets a,b] [--qlora]`; a rank of 0 means full fine-tuning, also over a script's LoRA. */
function loraOverride(o: Map<string, Option>, t: Translate): Sourced<LoraContext> | undefined {
  const rank = integer(o.get('--lora-rank'), 0, t);
  if (rank === undefined) {
    const loraOnly = ['--qlora', '--lora-targets', '--lora-dropout'].find((f) => o.has(f));
    if (loraOnly) throw new UsageError(t('{0} needs --lora-rank.', loraOnly));
    return undefined;
  }
  const targetModules = (o.get('--lora-targets')?.value ?? 'all-linear').split(',').map((t) => t.trim()).filter(Boolean);
  const lora: LoraContext = { rank, targetModules };
  const dropout = real(o.get('--lora-dropout'), t, 0, 1);
  if (dropout) lora.dropout = dropout;
  if (o.has('--qlora')) Object.assign(lora, { quantBits: 4, doubleQuant: true });
  return { value: lora, source: cli('--lora-rank') };
}
