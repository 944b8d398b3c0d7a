import type { LaunchFacts } from '../facts';
import { classifyDeepSpeedValue } from '../deepspeedValue';
import { parseOptions, valueRange, type Option } from '../command/options';
import type { Precision } from '../../memory/types';
import type { TrainerPart } from '../command/launchCommand';
import type { Word } from '../shell/types';
import type { SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import { OptionReader, isEnvLikeWord, readCommonTrainingFacts, trainingArgumentsDefault } from './trainerArgs';
import { fsdpConfigValue, fsdpWords, trainerFsdpSettings } from '../fsdp/trainerFsdp';
import { msg } from '../../l10n';
import { builderOf, readFlagBuiltConfig } from './flagBuiltConfig';
import { readTrlTrainer, trlCommandType, trlTrainerOf } from './trlScripts';
import { baseName } from '../../util/paths';

/** A Hugging Face style training script: `python train.py --deepspeed ds.json …` (also under launchers). */
export function pythonTrainer(scriptArgs: Word[]): TrainerPart {
  const parsed = parseOptions(scriptArgs, { multiValue: true, skip: isEnvLikeWord });
  return { kind: 'python', args: scriptArgs, parsed, envAfter: [] };
}

/**
 * The option that names the DeepSpeed config: `--deepspeed <json>` for HF TrainingArguments, or, for
 * scripts using `deepspeed.add_config_arguments`, the boolean `--deepspeed` plus `--deepspeed_config <json>`.
 */
export function hfDeepSpeedOption(trainer: TrainerPart): Option | undefined {
  const options = trainer.parsed.options;
  const config = [...options].reverse().find((o) => o.name === 'deepspeed_config' || o.name === 'deepscale_config');
  const flag = [...options].reverse().find((o) => o.name === 'deepspeed');
  if (flag && (flag.inline || flag.values.length > 0)) return flag;
  return config ?? flag;
}

/**
 * Flags of the HF TrainingArguments that a training script passes and other programs taking --deepspeed (inference,
 * custom loops) rarely do; one of them says the Trainer reads the config.
 */
const trainerOnlyFlags = new Set([
  'output_dir', 'overwrite_output_dir', 'do_train', 'per_device_train_batch_size', 'gradient_accumulation_steps', 'learning_rate', 'num_train_epochs',
  'max_steps', 'lr_scheduler_type', 'warmup_ratio', 'warmup_steps', 'logging_steps', 'save_steps', 'save_strategy', 'save_total_limit', 'eval_strategy',
  'evaluation_strategy', 'bf16', 'fp16', 'gradient_checkpointing', 'report_to', 'optim', 'per_device_eval_batch_size', 'weight_decay', 'adam_beta1',
  'adam_beta2', 'adam_epsilon', 'max_grad_norm', 'eval_steps', 'save_only_model', 'torch_compile', 'ddp_timeout', 'dataloader_num_workers',
]);

export function readPythonFacts(ctx: SourceContext, env: CommandEnvironment, trainer: TrainerPart, facts: LaunchFacts): void {
  const reader = new OptionReader(ctx, env, trainer.parsed);
  // OpenRLHF names its models --pretrain / --reward_pretrain / --critic_pretrain; since its dotted flags
  // (OpenRLHF ed62d0e2 openrlhf/cli/train_sft.py:166-284) --model.model_name_or_path, --train.micro_batch_size,
  // --data.max_len, --model.gradient_checkpointing_enable, --ds.packing_samples, --ds.lora.rank, --ds.load_in_4bit.
  facts.model = reader.string('model_name_or_path', 'model', 'model_id', 'pretrain', 'model.model_name_or_path', 'actor.model_name_or_path');
  readTrainerPrecision(reader, facts);
  readCommonTrainingFacts(reader, facts);
  facts.microBatch ??= reader.integer('micro_train_batch_size', 'train.micro_batch_size');
  // DeepSpeed-Chat's --max_seq_len (DeepSpeedExamples applications/DeepSpeed-Chat/training/step1_supervised_finetuning/main.py:81; Yi, Telechat).
  facts.seqLen = reader.integer('max_length', 'max_seq_length', 'model_max_length', 'cutoff_len', 'block_size', 'max_source_length', 'max_len', 'max_seq_len', 'data.max_len');
  // The prompt bound of online RL: TRL's --max_prompt_length (GRPOConfig until trl 89070d24), OpenRLHF's
  // --prompt_max_len with --generate_max_len (OpenRLHF d0e088b6^ openrlhf/cli/train_ppo_ray.py:44, :347-349: max_len =
  // max_len or prompt_max_len + generate_max_len); its current --rollout.max_new_tokens (3c3be62 train_ppo_ray.py:381).
  facts.promptLength = reader.integer('max_prompt_length', 'prompt_max_len');
  facts.maxCompletionLength ??= reader.integer('generate_max_len', 'rollout.max_new_tokens');
  // TRL GRPO's and RLOO's reward model: --reward_model_name_or_path (trl f2cd5771 trl/scripts/grpo.py:51-57, :91-92).
  facts.rewardModel = reader.string('reward_model_path', 'reward_pretrain', 'reward_model_name_or_path');
  facts.valueModel = reader.string('critic_pretrain');
  facts.refModel = reader.string('ref_model', 'ref_pretrain');
  facts.teacherModel = reader.string('teacher_model_name_or_path', 'teacher_model');
  const flash = reader.bool('flash_attn');
  if (flash?.value) facts.attnImpl ??= { ...flash, value: 'flash' };
  facts.packing ??= reader.bool('packing_samples') ?? reader.bool('ds.packing_samples');
  facts.sleepLevel ??= reader.bool('vllm_enable_sleep') ? { ...reader.bool('vllm_enable_sleep')!, value: 1 } : undefined;
  // InternVL's internvl_chat_finetune.py names them --grad_checkpoint (default True) and --freeze_backbone (the ViT)
  // (InternVL 2410d1db internvl_chat/internvl/train/internvl_chat_finetune.py:112-115, :140-143). LLaVA's
  // --freeze_backbone freezes the LLM instead (llava/train/train.py:844-845), so only InternVL's is the ViT.
  facts.gradientCheckpointing =
    reader.bool('gradient_checkpointing') ?? reader.bool('grad_checkpoint') ?? reader.bool('model.gradient_checkpointing_enable') ?? reader.bool('actor.gradient_checkpointing_enable');
  if (/internvl/i.test(facts.script?.value ?? '')) facts.freezeVit ??= reader.bool('freeze_backbone');
  facts.loraDropout = reader.real('lora_dropout');
  readLoraSwitches(ctx, reader, facts);
  const trl = readScriptTrainer(ctx, trainer, facts);
  if (trl) readTrlDefaults(ctx, reader, facts);
  // GRPOConfig's and RLOOConfig's cap on the colocated vLLM engine (trl f2cd5771 grpo_config.py:654-660, since v0.26.0;
  // grpo_trainer.py:1090 → generation/vllm_generation.py:355), ms-swift's --vllm_max_model_len.
  if (trl) facts.vllmMaxModelLen = reader.integer('vllm_max_model_length');
  readTrainerFsdp(ctx, reader, facts);
  const ds = hfDeepSpeedOption(trainer);
  const writesTrainerFlags = trainer.parsed.options.some((o) => trainerOnlyFlags.has(o.name));
  // --deepspeed_config is deepspeed.add_config_arguments' (a plain deepspeed.initialize script): that consumer is known.
  if (ds?.name === 'deepspeed' && !writesTrainerFlags) facts.noTrainerArguments = true;
  if (ds && (ds.inline || ds.values.length > 0)) {
    const r = valueRange(ds)!;
    const written = ds.inline?.text ?? ds.values[0].value;
    facts.deepspeed = classifyDeepSpeedValue(ctx, written, reader.text(ds), r.start, r.end, ds.written);
    // HF takes a path (or a dict): a bare word is a file name, not a preset.
    if (facts.deepspeed.kind === 'unknown') facts.deepspeed = { ...facts.deepspeed, kind: 'file', path: facts.deepspeed.text, candidates: ctx.candidates(facts.deepspeed.text) };
  }
  readArgumentsFile(ctx, env, reader, trainer, facts);
  // DeepSpeed-Chat's bare `--deepspeed` (deepspeed.add_config_arguments) names no file: main.py builds the config.
  if (!facts.deepspeed) readFlagBuiltConfig(reader, facts);
  if ((trl || (writesTrainerFlags && !facts.noTrainerArguments)) && !builderOf(facts.script?.value)) {
    facts.microBatch ??= trainingArgumentsDefault(ctx, facts, 8);
    // TrainingArguments' gradient_checkpointing defaults to False (transformers fd798335 training_args.py): the
    // activations of every layer stay (TRL's own default, readTrlDefaults, came first).
    facts.gradientCheckpointing ??= trainingArgumentsDefault(ctx, facts, false);
    // Neither --bf16 nor --fp16 (nor a dtype): TrainingArguments trains in fp32 (bf16 and fp16 default to False), and
    // a DeepSpeed config's "auto" follows it; `--bf16 false` written says so itself, under accelerate only where its
    // config file sets no mixed_precision (readTrainerPrecision).
    const bf16Off = reader.bool('bf16');
    if (bf16Off?.value === false && !reader.bool('fp16')?.value) {
      const under = facts.chain.includes('accelerate') && ctx.fact<Precision>('fp32', bf16Off.span.start, bf16Off.span.end, msg("{0} false: fp32 unless accelerate's config sets mixed_precision", bf16Off.via), true);
      facts.dtype ??= under || { ...bf16Off, value: 'fp32' };
    }
    facts.dtype ??= trainingArgumentsDefault<Precision>(ctx, facts, 'fp32');
  }
}

/**
 * TrainingArguments starts from accelerate's ACCELERATE_MIXED_PRECISION (`accelerate launch --mixed_precision`, its config
 * file, a TRL profile) and replaces it only with --fp16 or --bf16 written true (transformers 00349ae8
 * src/transformers/training_args.py, __post_init__ "5. Mixed Precision"): a flag written true wins over the launcher's.
 */
function readTrainerPrecision(reader: OptionReader, facts: LaunchFacts): void {
  const fp16 = reader.bool('fp16');
  const bf16 = reader.bool('bf16');
  if (fp16?.value) facts.dtype = { ...fp16, value: 'fp16' };
  else if (bf16?.value) facts.dtype = { ...bf16, value: 'bf16' };
}

/**
 * TRL's configs turn on gradient_checkpointing and bf16 (unless fp16) (trl f2cd5771 trl/trainer/base_config.py:61-72,
 * :104-105; checkpointing since a222aeb4, v0.21), where TrainingArguments has both off.
 */
function readTrlDefaults(ctx: SourceContext, reader: OptionReader, facts: LaunchFacts): void {
  const at = <T>(value: T) => ctx.fact(value, facts.span.start, facts.span.start, msg("TRL's default"), true);
  facts.trlDefaults = true;
  facts.gradientCheckpointing ??= at(true);
  if (!reader.bool('bf16') && !reader.bool('fp16')) facts.dtype ??= at<'bf16'>('bf16');
}

/**
 * The TRL trainer the script's name says it runs (`trl/scripts/grpo.py`, `-m trl.scripts.rloo`, `trl grpo`); true when
 * the command runs TRL (also `trl sft`, trl/scripts/sft.py), not a program that builds its own config (OpenRLHF).
 */
function readScriptTrainer(ctx: SourceContext, trainer: TrainerPart, facts: LaunchFacts): boolean {
  const command = trainer.subcommandWord;
  if (command) {
    const type = trlCommandType(command.value);
    if (type) readTrlTrainer(ctx, facts, type, command, `trl ${command.value}`);
    return true;
  }
  const script = facts.script ?? (trainer.python && ctx.fact(trainer.python.runs.value, trainer.python.runs.start, trainer.python.runs.end, 'python'));
  const type = script && trlTrainerOf(script.value);
  if (script && type) readTrlTrainer(ctx, facts, type, script.span, baseName(script.value));
  return !!script && !builderOf(script.value) && (!!type || /(^|[\\/.])trl[\\/.]scripts[\\/.]/.test(script.value));
}

/**
 * The YAML a script reads as its arguments: TRL's TrlParser takes `--config x.yaml` and sets its values as the
 * defaults the command line overrides (huggingface/trl f2cd5771 trl/scripts/utils.py:303-338); alignment-handbook's
 * H4ArgumentParser read a first argument ending in .yaml, with `--key=value` after it overriding (19f03455^
 * src/alignment/configs.py:51-64, :91-98).
 */
function readArgumentsFile(ctx: SourceContext, env: CommandEnvironment, reader: OptionReader, trainer: TrainerPart, facts: LaunchFacts): void {
  const isYaml = (text: string | undefined) => text !== undefined && /\.ya?ml$/i.test(text);
  const config = reader.string('config');
  const first = trainer.args[0];
  const firstText = first && !first.raw.startsWith('-') ? env.resolve(first) : undefined;
  const file = isYaml(config?.value) ? config : isYaml(firstText) ? ctx.fact(firstText!, first!.start, first!.end, firstText!) : undefined;
  if (file) facts.argsFile = { ...file, candidates: ctx.candidates(file.value) };
}

/**
 * LoRA as training scripts switch it: a rank (`--lora_r`, `--lora_rank`), or a switch whose rank is the script's own
 * dataclass default (Qwen finetune.py:50-63 `--use_lora`/`--q_lora` with lora_r 64, LLaVA train.py:101-106
 * `--lora_enable`/`--bits`, FastChat train_lora.py:57-65, TRL ModelConfig `--use_peft`/`--load_in_4bit`, PEFT's
 * examples/sft/train.py `--use_peft_lora`/`--use_4bit_quantization`). A switch
 * written false turns LoRA off whatever rank is given (TRL reads lora_r only under use_peft). Without a rank, 64 is
 * assumed and the source says so: Qwen's and LLaVA's default (Qwen finetune.py:55, LLaVA llava/train/train.py:106),
 * the largest of the scripts' defaults (PEFT's LoraConfig 8, TRL's 16), so the estimate errs high where unsure.
 */
function readLoraSwitches(ctx: SourceContext, reader: OptionReader, facts: LaunchFacts): void {
  const qlora = reader.bool('q_lora') ?? reader.bool('qlora');
  const switches = [reader.bool('use_lora'), reader.bool('lora_enable'), reader.bool('use_peft'), reader.bool('use_peft_lora'), qlora].filter((f) => f !== undefined);
  // InternVL: --use_llm_lora N is the LLM's adapter rank (internvl_chat_finetune.py:132-135, :1007-1008).
  const llmLora = reader.integer('use_llm_lora');
  // A rank of 0 is no adapters (OpenRLHF's --lora_rank / --ds.lora.rank default, InternVL's --use_llm_lora).
  const written = reader.integer('lora_r', 'lora_rank', 'ds.lora.rank') ?? llmLora;
  const rank = written && written.value > 0 ? written : undefined;
  const on = switches.find((f) => f.value);
  const off = switches.find((f) => !f.value && f !== qlora);
  // Written off, it is full fine-tuning, also over an arguments file's `use_peft: true`: TrlParser makes the file's
  // values the defaults argv overrides (trl f2cd5771 trl/scripts/utils.py:337-343), and get_peft_config returns None
  // without use_peft (trl/trainer/utils.py:254-256).
  if (off && !on) {
    facts.tuner = { ...off, value: 'full' };
    return;
  }
  if (rank) {
    facts.loraRank = rank;
    facts.tuner = { ...rank, value: 'lora' };
  } else if (on) {
    facts.tuner = { ...on, value: 'lora' };
    facts.loraRank = ctx.fact(64, on.span.start, on.span.end, msg("rank not stated: 64 assumed, the default of Qwen's and LLaVA's scripts and the largest such default (PEFT's is 8)"), true);
  }
  const bits = reader.integer('quantization_bit', 'quant_bits', 'load_in_bits', 'bits');
  const fourBit = reader.bool('load_in_4bit') ?? reader.bool('use_4bit_quantization') ?? reader.bool('ds.load_in_4bit');
  const eightBit = reader.bool('load_in_8bit');
  facts.quantBits =
    bits && (bits.value === 4 || bits.value === 8)
      ? bits
      : fourBit?.value
        ? { ...fourBit, value: 4 }
        : eightBit?.value
          ? { ...eightBit, value: 8 }
          : qlora?.value && facts.tuner
            ? { ...qlora, value: 4 }
            : undefined;
}

/** `--fsdp "full_shard auto_wrap"` (with an inline `--fsdp_config`; a file's keys are read by the checks). */
function readTrainerFsdp(ctx: SourceContext, reader: OptionReader, facts: LaunchFacts): void {
  const option = reader.option('fsdp');
  const text = option && reader.text(option);
  const words = option ? fsdpWords(ctx, option, text).map((w) => w.word) : [];
  if (!option || words.length === 0 || words.every((w) => ['false', 'none', ''].includes(w.toLowerCase()))) return;
  const configOption = reader.option('fsdp_config');
  const config = configOption ? fsdpConfigValue(ctx, configOption, reader.text(configOption)) : undefined;
  const json = config?.kind === 'inline' ? config.json : undefined;
  const r = valueRange(option) ?? { start: option.nameStart, end: option.nameEnd };
  facts.fsdp = trainerFsdpSettings(words, json, { via: option.written, span: ctx.span(r.start, r.end) }, 1);
}
