import type { Word } from '../shell/types';
import type { CommandEnvironment } from '../shell/variables';
import type { Fact, LaunchFacts } from '../facts';
import { attentionImplOf, precisionOf } from '../facts';
import type { SourceContext } from '../command/context';
import { parseBool, parseInteger } from '../command/context';
import type { Option, ParsedOptions } from '../command/options';
import { lastOption, valueRange } from '../command/options';
import { msg } from '../../l10n';

/** Reads option values with the command's variables resolved; helpers shared by the launcher models. */
export class OptionReader {
  constructor(
    readonly ctx: SourceContext,
    readonly env: CommandEnvironment,
    readonly parsed: ParsedOptions,
  ) {}

  option(...names: string[]): Option | undefined {
    return lastOption(this.parsed, ...names);
  }

  /** Resolved value text of an option ('' for a bare flag), undefined when it cannot be resolved. */
  text(option: Option): string | undefined {
    if (option.inline) {
      const whole = this.env.resolve(option.word);
      if (whole === undefined) return undefined;
      const eq = whole.indexOf('=');
      return eq >= 0 ? whole.slice(eq + 1) : undefined;
    }
    const first = option.values[0];
    return first ? this.env.resolve(first) : '';
  }

  private located<T>(option: Option, value: T): Fact<T> {
    const r = valueRange(option) ?? { start: option.nameStart, end: option.nameEnd };
    return this.ctx.fact(value, r.start, r.end, option.written);
  }

  string(...names: string[]): Fact<string> | undefined {
    const o = this.option(...names);
    const t = o && this.text(o);
    return o && t ? this.located(o, t) : undefined;
  }

  /** A decimal number (`--vllm_gpu_memory_utilization 0.4`). */
  real(...names: string[]): Fact<number> | undefined {
    const o = this.option(...names);
    const t = o ? this.text(o) : undefined;
    const n = t !== undefined && t !== '' ? Number(t) : NaN;
    return o && Number.isFinite(n) ? this.located(o, n) : undefined;
  }

  integer(...names: string[]): Fact<number> | undefined {
    const o = this.option(...names);
    const n = o ? parseInteger(this.text(o)) : undefined;
    return o && n !== undefined ? this.located(o, n) : undefined;
  }

  /** `--flag` alone is true; `--flag false` is false; `--no_flag` is false. */
  bool(name: string): Fact<boolean> | undefined {
    const o = this.option(name, `no_${name}`);
    if (!o) return undefined;
    if (o.name === `no_${name}`) return this.located(o, false);
    const t = this.text(o);
    const b = t === '' ? true : parseBool(t);
    return b === undefined ? undefined : this.located(o, b);
  }
}

/**
 * TrainingArguments' per_device_train_batch_size when the command is silent: 8 (transformers fd798335
 * src/transformers/training_args.py, `per_device_train_batch_size: int = field(default=8, …)`), which TRL's configs
 * keep (trl f2cd5771 trl/trainer/base_config.py overrides no batch) and the DeepSpeed config's "auto" takes.
 */
export function trainingArgumentsDefault<T extends number | boolean | string>(ctx: SourceContext, facts: LaunchFacts, value: T): Fact<T> {
  return ctx.fact(value, facts.span.start, facts.span.start, msg('TrainingArguments default {0}', value), true);
}

/** Environment-looking words among arguments (`NPROC_PER_NODE=2` after `swift sft`). */
export function isEnvLikeWord(word: Word): boolean {
  return !word.quoted && /^[A-Z][A-Z0-9_]*=/.test(word.raw);
}

/** Fills the facts HF-style trainer arguments share (ms-swift builds on HfArgumentParser). */
export function readCommonTrainingFacts(reader: OptionReader, facts: LaunchFacts): void {
  facts.microBatch ??= reader.integer('per_device_train_batch_size');
  facts.gradientAccumulation ??= reader.integer('gradient_accumulation_steps');
  const bf16 = reader.bool('bf16');
  const fp16 = reader.bool('fp16');
  if (bf16?.value) facts.dtype ??= { ...bf16, value: 'bf16' };
  else if (fp16?.value) facts.dtype ??= { ...fp16, value: 'fp16' };
  const dtype = reader.string('torch_dtype', 'dtype');
  const precision = precisionOf(dtype?.value);
  if (dtype && precision) {
    facts.dtype ??= { ...dtype, value: precision };
    facts.torchDtype ??= { ...dtype, value: precision };
  }
  readWorkloadFacts(reader, facts);
}

/**
 * Workload facts HF TrainingArguments and the trainers built on it (TRL, ms-swift) name the same way:
 * `--use_liger_kernel`, `--optim`, `--attn_implementation`, TRL's `--packing`, `--padding_free`, `--beta`,
 * `--use_vllm`, `--vllm_mode`, `--vllm_gpu_memory_utilization`, `--num_generations`, `--max_completion_length`
 * (`--response_length`), `--steps_per_generation`.
 */
export function readWorkloadFacts(reader: OptionReader, facts: LaunchFacts): void {
  facts.ligerKernel ??= reader.bool('use_liger_kernel') ?? reader.bool('use_liger');
  facts.optim ??= reader.string('optim');
  const attn = reader.string('attn_implementation', 'attn_impl');
  const impl = attentionImplOf(attn?.value);
  if (attn && impl) facts.attnImpl ??= { ...attn, value: impl };
  facts.packing ??= reader.bool('packing');
  facts.paddingFree ??= reader.bool('padding_free');
  facts.sequenceParallel ??= reader.integer('sequence_parallel_size');
  facts.beta ??= reader.real('beta');
  facts.useVllm ??= reader.bool('use_vllm');
  facts.vllmMode ??= reader.string('vllm_mode');
  facts.vllmGpuMemoryUtilization ??= reader.real('vllm_gpu_memory_utilization');
  facts.numGenerations ??= reader.integer('num_generations');
  facts.stepsPerGeneration ??= reader.integer('steps_per_generation');
  // TRL PPO's --response_length (trl f2cd577 trl/experimental/ppo/ppo_config.py:151), ms-swift's compat name for it (rlhf_args.py:471).
  facts.maxCompletionLength ??= reader.integer('max_completion_length', 'response_length');
}
