import type { Fact, LaunchFacts } from '../facts';
import { classifyDeepSpeedValue } from '../deepspeedValue';
import { lastOption, parseOptions, valueRange } from '../command/options';
import type { TrainerPart } from '../command/launchCommand';
import type { Word } from '../shell/types';
import { OptionReader, isEnvLikeWord, readCommonTrainingFacts } from './trainerArgs';
import type { SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import { visibleDevices } from './devices';
import { fsdpConfigValue, swiftFsdpParts, trainerFsdpSettings } from '../fsdp/trainerFsdp';
import { swiftFsdpPreset } from '../fsdp/options';
import { readMegatronSizes } from './megatron';
import { english, msg, say, type Phrase } from '../../l10n';

/** `swift` subcommands (ROUTE_MAPPING, 3.x/4.x; `_` normalised to `-`). */
export const swiftSubcommands = ['pt', 'sft', 'infer', 'merge-lora', 'web-ui', 'deploy', 'rollout', 'rlhf', 'sample', 'export', 'eval', 'app'];
export const megatronSubcommands = ['pt', 'sft', 'rlhf', 'export'];
/** Only these build on SftArguments (HF Seq2SeqTrainingArguments), which owns `--deepspeed`. */
export const deepspeedSubcommands = ['sft', 'pt', 'rlhf'];
/** Only RLHFArguments mixes in TeacherModelArguments (swift/arguments/rlhf_args.py:175). */
export const teacherDeepspeedSubcommands = ['rlhf'];
/** ms-swift flags whose value is a DeepSpeed config, each with the fact it fills and the subcommands that take it. */
export const swiftDeepSpeedFlags = [
  { name: 'deepspeed', fact: 'deepspeed', subcommands: deepspeedSubcommands },
  { name: 'teacher_deepspeed', fact: 'teacherDeepspeed', subcommands: teacherDeepspeedSubcommands },
] as const;
export type SwiftDeepSpeedFlag = (typeof swiftDeepSpeedFlags)[number];
/** Subcommands that swift re-launches under torchrun when NPROC_PER_NODE or NNODES is set. */
export const torchrunSubcommands = ['pt', 'sft', 'rlhf', 'infer'];

export function normaliseSubcommand(word: string): string {
  return word.replace(/_/g, '-');
}

/** Builds the trainer part for `swift <sub> args…` (or `swift/cli/<sub>.py args…` under a launcher). */
export function swiftTrainer(kind: 'swift' | 'megatron', subcommand: string | undefined, subcommandWord: Word | undefined, args: Word[]): TrainerPart {
  const parsed = parseOptions(args, { multiValue: true, skip: isEnvLikeWord });
  return { kind, subcommand, subcommandWord, args, parsed, envAfter: args.filter(isEnvLikeWord) };
}

/**
 * The first argument when it names a config file (`.yaml`, `.yml`, `.json`): swift/cli/main.py turns its keys
 * into flags before it runs the sub-command (parse_yaml_args, main.py:38-71, called at :92).
 */
export function swiftConfigArgument(env: CommandEnvironment, trainer: TrainerPart): { word: Word; text: string } | undefined {
  const first = trainer.args[0];
  const text = first && !first.value.startsWith('-') ? env.resolve(first) : undefined;
  return first && text && /\.(ya?ml|json)$/i.test(text) ? { word: first, text } : undefined;
}

/** ms-swift facts: arguments, its defaults, and NPROC_PER_NODE / NNODES from the environment. */
export function readSwiftFacts(ctx: SourceContext, env: CommandEnvironment, trainer: TrainerPart, facts: LaunchFacts, launched: boolean): void {
  const reader = new OptionReader(ctx, env, trainer.parsed);
  const commandStart = facts.span.start;
  const defaultAt = <T>(value: T, via: Phrase) => ctx.fact(value, commandStart, commandStart, via, true);

  facts.model = reader.string('model', 'model_id_or_path');
  facts.tuner = reader.string('tuner_type', 'train_type', 'sft_type') ?? defaultAt(trainer.kind === 'megatron' ? 'full' : 'lora', msg('ms-swift default'));
  if (facts.tuner.value !== 'full') {
    facts.loraRank = reader.integer('lora_rank') ?? defaultAt(8, msg('ms-swift default'));
    // swift/arguments/tuner_args.py:135, lora_dropout: float = 0.05.
    facts.loraDropout = reader.real('lora_dropout') ?? defaultAt(0.05, msg('ms-swift default'));
  }
  // ms-swift's optimizer plugin (swift/optimizers/mapping.py:9-16); --use_galore picks galore when --optimizer is
  // not given (swift/arguments/sft_args.py:213-217, at ms-swift 3602360a).
  const galore = reader.bool('use_galore');
  facts.swiftOptimizer = reader.string('optimizer') ?? (galore?.value ? { ...galore, value: 'galore' } : undefined);
  facts.quantBits = reader.integer('quant_bits', 'quantization_bit');
  facts.quantMethod = reader.string('quant_method');
  readCommonTrainingFacts(reader, facts);
  // ms-swift trains a float32 (or float16) model with fp16 AMP unless --fp16/--bf16 say otherwise
  // (model_args.py, _init_mixed_precision), and DeepSpeed then holds the weights in fp16.
  if (facts.dtype?.value === 'fp32' && facts.dtype.via.includes('torch_dtype') && !reader.bool('fp16') && !reader.bool('bf16')) {
    const via = msg('{0} (ms-swift turns on fp16 AMP)', facts.dtype.via);
    facts.dtype = { ...facts.dtype, value: 'fp16', via: say(english, via), viaText: via };
  }
  facts.microBatch ??= reader.integer('batch_size', 'micro_batch_size') ?? defaultAt(1, msg('ms-swift default'));
  // GRPO accumulates one step by default (swift/arguments/rlhf_args.py:527-530); the context works out the others'.
  if (trainer.subcommand === 'rlhf' && reader.string('rlhf_type')?.value === 'grpo') facts.gradientAccumulation ??= defaultAt(1, msg('ms-swift default'));
  facts.seqLen = reader.integer('max_length', 'seq_length');
  facts.gradientCheckpointing =
    trainer.kind === 'megatron' ? megatronRecompute(reader, defaultAt) : reader.bool('gradient_checkpointing') ?? defaultAt(true, msg('ms-swift default'));
  // Vision towers are frozen unless --freeze_vit false (swift/arguments/tuner_args.py:123, freeze_vit: bool = True).
  facts.freezeVit = reader.bool('freeze_vit') ?? defaultAt(true, msg('ms-swift default'));
  // The aligner (projector) stays frozen unless --freeze_aligner false, whatever --freeze_vit says
  // (ms-swift 3602360 swift/arguments/tuner_args.py:124 freeze_aligner: bool = True; :212-215).
  facts.freezeAligner = reader.bool('freeze_aligner') ?? defaultAt(true, msg('ms-swift default'));
  // --freeze_llm freezes the language model in multimodal full fine-tuning (3602360a tuner_args.py:122, :208-209).
  facts.freezeLlm = reader.bool('freeze_llm');
  const targets = reader.option('target_modules')?.values.map((w) => env.resolve(w) ?? w.value);
  facts.loraSkipsLlm = loraSkipsLlm(facts, targets, !!reader.option('target_regex'));
  // ms-swift chunks the loss under sequence parallelism when CELOSS_PARALLEL_SIZE is set.
  if (env.envBinding('CELOSS_PARALLEL_SIZE')) {
    const b = env.envBinding('CELOSS_PARALLEL_SIZE')!;
    facts.chunkedLoss = ctx.fact(true, b.assignment.start, b.assignment.end, 'CELOSS_PARALLEL_SIZE');
  }
  if (trainer.subcommand === 'rlhf') {
    // swift/arguments/rlhf_args.py:232, rlhf_type defaults to dpo; the reference model is the model itself for
    // full-parameter DPO/KTO/PPO/GRPO (rlhf_args.py:289-295).
    facts.rlhfType = reader.string('rlhf_type') ?? defaultAt('dpo', msg('ms-swift default'));
    // GRPO/PPO encode the prompt under --max_length (left-truncated, rlhf_args.py:350-351) and train on it with the
    // completion, the template's max_length unset (ms-swift 3602360 grpo_trainer.py:753, rollout_mixin.py:1722-1738).
    if (['grpo', 'ppo'].includes(facts.rlhfType.value)) facts.promptLength = facts.seqLen;
    facts.refModel = reader.string('ref_model');
    facts.rewardModel = reader.string('reward_model');
    facts.teacherModel = reader.string('teacher_model');
    facts.sleepLevel = reader.integer('sleep_level');
    facts.offloadModelDuringRollout = reader.bool('offload_model');
    facts.offloadOptimizerDuringRollout = reader.bool('offload_optimizer');
    // The colocated engine's max_model_len (3602360a swift/rlhf_trainers/rollout_mixin.py:518).
    facts.vllmMaxModelLen = reader.integer('vllm_max_model_len');
  }
  const dtype2x = reader.string('dtype');
  if (!facts.dtype && dtype2x && /^(bf16|fp16|fp32)$/.test(dtype2x.value)) facts.dtype = { ...dtype2x, value: dtype2x.value as 'bf16' | 'fp16' | 'fp32' };

  // `swift sft config.yaml`: the config file as the first argument (its keys are flags). A sub-command's
  // own script never reads it (see swiftConfigArgument).
  const config = swiftConfigArgument(env, trainer);
  if (config && !trainer.subcommandScript) {
    facts.configFile = { ...ctx.fact(config.text, config.word.start, config.word.end, `swift ${trainer.subcommand ?? ''}`.trim()), candidates: ctx.candidates(config.text) };
  }

  facts.deepspeedAutotpSize = reader.integer('deepspeed_autotp_size');
  readSwiftFsdp(ctx, reader, facts);
  if (trainer.kind === 'megatron') readMegatronSizes(reader, facts);
  for (const flag of swiftDeepSpeedFlags) {
    const ds = lastOption(trainer.parsed, flag.name);
    if (!ds) continue;
    const r = valueRange(ds);
    const written = ds.inline?.text ?? ds.values[0]?.value ?? '';
    // ms-swift's json_parse_to_dict repairs inline JSON that json.loads rejects (swift/utils/utils.py:422-432);
    // --teacher_deepspeed goes through it too (rlhf_args.py:745).
    facts[flag.fact] = classifyDeepSpeedValue(ctx, written, reader.text(ds), r?.start ?? ds.nameEnd, r?.end ?? ds.nameEnd, ds.written, { repairsJson: true });
  }

  // swift itself starts torchrun from these variables (only when no outer launcher did).
  if (!launched) {
    const nproc = env.envBinding('NPROC_PER_NODE');
    const n = nproc?.value !== undefined ? Number(nproc.value) : NaN;
    if (nproc && Number.isInteger(n) && n > 0) facts.gpusPerNode = ctx.fact(n, nproc.assignment.start, nproc.assignment.end, 'NPROC_PER_NODE');
    const nnodes = env.envBinding('NNODES');
    const nn = nnodes?.value !== undefined ? Number(nnodes.value) : NaN;
    if (nnodes && Number.isInteger(nn) && nn > 0) facts.nodes = ctx.fact(nn, nnodes.assignment.start, nnodes.assignment.end, 'NNODES');
    // Neither set: ms-swift runs one process (main.py, use_torchrun). With one visible GPU that is the whole run;
    // a config file's ENV: may still start torchrun, so it decides then.
    const devices = visibleDevices(env);
    if (!nproc && !nnodes && !facts.configFile && devices?.ids.length === 1) {
      const a = devices.binding.assignment;
      facts.gpusPerNode = ctx.fact(1, a.start, a.end, msg('{0} (one GPU, one process)', devices.name));
    }
  }
}

/**
 * LoRA under --freeze_llm: all-linear, target_modules' default (ms-swift 3602360a swift/arguments/tuner_args.py:126),
 * becomes a regex over a multimodal model's unfrozen parts only (swift/pipelines/train/tuner.py:93-104 →
 * swift/utils/transformers_utils.py:219-220), so the language model gets no adapters; named modules and
 * --target_regex (tuner_args.py:202) are matched everywhere.
 */
export function loraSkipsLlm(facts: LaunchFacts, targets: string[] | undefined, regex: boolean): Fact<boolean> | undefined {
  const allLinear = !targets?.length || targets.includes('all-linear');
  return facts.freezeLlm?.value && facts.tuner?.value !== 'full' && allLinear && !regex ? facts.freezeLlm : undefined;
}

/**
 * Megatron checkpoints whole layers only with `--recompute_granularity full`; `selective`, Megatron-SWIFT's default
 * (ms-swift 3602360a swift/megatron/arguments/megatron_args.py:484, recompute_modules ['core_attn'] at :487), recomputes
 * the attention core, which FlashAttention does not keep anyway (docs/memory-model.md, Megatron), and `none` nothing.
 * `--gradient_checkpointing` is not Megatron's flag.
 */
function megatronRecompute(reader: OptionReader, defaultAt: <T>(value: T, via: Phrase) => Fact<T>): Fact<boolean> {
  const granularity = reader.string('recompute_granularity');
  if (granularity) return { ...granularity, value: granularity.value === 'full' };
  return defaultAt(false, msg('Megatron-SWIFT default: selective recompute (the attention core only)'));
}

/** ms-swift's `--fsdp`: its preset or inline JSON (a file's content is read by the checks). */
function readSwiftFsdp(ctx: SourceContext, reader: OptionReader, facts: LaunchFacts): void {
  const option = reader.option('fsdp');
  if (!option) return;
  const value = fsdpConfigValue(ctx, option, reader.text(option), true);
  if (!value || (value.kind !== 'preset' && value.kind !== 'inline')) return;
  const file = value.kind === 'preset' ? swiftFsdpPreset(value.name) : value.json;
  const parts = swiftFsdpParts(file as Record<string, unknown> | undefined);
  facts.fsdp = trainerFsdpSettings(parts.words, parts.config, { via: option.written, span: ctx.span(value.start, value.end) }, parts.version);
}
