import { sameAsTrainedModel, type Fact, type LaunchFacts } from '../facts';
import { msg } from '../../l10n';
import type { OptionReader } from './trainerArgs';

/**
 * What DeepSpeed-Chat's main.py trains besides the config it builds (microsoft/DeepSpeedExamples 83757d9c,
 * applications/DeepSpeed-Chat; paths below are under it).
 *
 * LoRA (dschat/utils/module/lora.py): --lora_dim N > 0 wraps every nn.Linear whose module name contains
 * --lora_module_name (default "decoder.layers.", step1 main.py:159-166; :260-265) with r·(d_in + d_out) adapters and
 * freezes the wrapped weight (lora.py:96, :36-39, :49). Only --only_optimize_lora freezes the rest too (lora.py:134-141,
 * main.py:263-264); without it the embeddings, norms, head and unwrapped linears train with the adapters.
 *
 * Step 3 (training/step3_rlhf_finetuning/main.py, dschat/rlhf/rlhf_engine.py) holds four models: the actor
 * (--actor_model_name_or_path) trained with the built config at --actor_zero_stage (default 0, main.py:253-256;
 * rlhf_engine.py:67-81), a frozen reference copy of it (:50-51, :135-159), the critic
 * (--critic_model_name_or_path) trained at --critic_zero_stage (:191-261) and a frozen reward model loaded from
 * the critic's path (:58-59, :263-296); --enable_ema adds a frozen copy of the actor (:53-55, :161-189). The frozen
 * models run ZeRO-3 when their trained partner does and stage 0 otherwise (:138-141, :266-269), with
 * offload_param from --offload_reference_model / --offload_reward_model (ds_utils.py:78-94), which DeepSpeed reads
 * at ZeRO-3 only. The actor trains on --per_device_training_batch_size (default 16, main.py:118-120) sequences of
 * --max_prompt_seq_len + --max_answer_seq_len tokens (256 each, :133-139) that it generated itself.
 */
export function readDeepSpeedChatFacts(reader: OptionReader, facts: LaunchFacts, anchor: Fact<unknown>): void {
  // main.py's own defaults where the command says nothing (its store_true checkpointing is off).
  const byDefault = <T>(value: T): Fact<T> => reader.ctx.fact(value, anchor.span.start, anchor.span.end, msg('DeepSpeed-Chat main.py'), true);
  // Step 3 is the command that names an actor, readable or not (its scripts pass `$1`).
  const actorOption = reader.option('actor_model_name_or_path');
  const actor = reader.string('actor_model_name_or_path');
  if (actor) facts.model = actor;
  readLora(reader, facts, actorOption ? 'actor_' : '');
  if (!actorOption) {
    // step1 main.py:81-84 (--max_seq_len 512), :135-137 (--gradient_checkpointing).
    facts.seqLen ??= byDefault(512);
    facts.gradientCheckpointing ??= byDefault(false);
    return;
  }
  // A path the script leaves to its caller: the reference is the actor's copy, whatever the model; the critic and
  // reward model are counted at the actor's size (analyze.ts says so; they are smaller in most examples).
  const unread = (names: string): Fact<string> | undefined => {
    const option = reader.option(names);
    return option && reader.ctx.fact(sameAsTrainedModel, option.nameStart, option.nameEnd, option.written);
  };
  const named = actor ?? unread('actor_model_name_or_path')!;
  facts.rlhfType = { ...named, value: 'ppo' };
  facts.refModel = actor ?? named;
  const critic = reader.string('critic_model_name_or_path') ?? unread('critic_model_name_or_path');
  if (critic) {
    facts.rewardModel = critic;
    facts.valueModel = critic;
  }
  facts.microBatch = reader.integer('per_device_training_batch_size');
  const prompt = reader.integer('max_prompt_seq_len') ?? byDefault(256);
  const answer = reader.integer('max_answer_seq_len') ?? byDefault(256);
  facts.seqLen = { ...(prompt.isDefault ? answer : prompt), value: prompt.value + answer.value, via: `${prompt.via} + ${answer.via}` };
  facts.maxCompletionLength = answer;
  facts.gradientCheckpointing = reader.bool('actor_gradient_checkpointing') ?? byDefault(false);
  const criticStage = reader.integer('critic_zero_stage');
  facts.criticStage = criticStage;
  // The reference follows the actor's stage, so it moves with each stage the estimate compares; the reward, the critic's.
  facts.extraPlacement = {
    reference: { offloaded: reader.bool('offload_reference_model')?.value === true },
    reward: { sharded: criticStage?.value === 3, offloaded: reader.bool('offload_reward_model')?.value === true },
  };
  if (reader.bool('enable_ema')?.value) facts.emaModel = actor ?? named;
  const hybrid = reader.bool('enable_hybrid_engine');
  if (hybrid?.value) facts.hybridEngine = hybrid;
}

/**
 * --lora_dim / --actor_lora_dim with its module-name scope as target_modules: a scope the decoder blocks' names all
 * contain ("layers." of Llama-style models, "decoder.layers." of OPT's) is every linear in them; "self_attn" or
 * "mlp" alone is that part's. Any other scope, or OPT's on a model not named OPT, is not known: [].
 */
function readLora(reader: OptionReader, facts: LaunchFacts, prefix: string): void {
  const dim = reader.integer(`${prefix}lora_dim`);
  if (!dim || dim.value <= 0) return;
  facts.loraRank = dim;
  facts.tuner = { ...dim, value: 'lora' };
  const scope = reader.string(`${prefix}lora_module_name`);
  const name = scope?.value ?? 'decoder.layers.';
  const opt = /(^|[/_-])opt[-_]/i.test(facts.model?.value ?? '');
  const targets = /^(model\.)?layers\.?$/.test(name) || (/^(model\.)?decoder\.layers\.?$/.test(name) && opt)
    ? ['all-linear']
    : /^(self_)?attn$|^self_attn\.?$/.test(name)
      ? ['q_proj', 'k_proj', 'v_proj', 'o_proj']
      : /^mlp\.?$/.test(name)
        ? ['gate_proj', 'up_proj', 'down_proj']
        : [];
  facts.loraTargets = { ...(scope ?? dim), value: targets };
  const only = reader.bool('only_optimize_lora');
  if (!only?.value) facts.loraBaseTrains = { ...dim, value: true };
}
