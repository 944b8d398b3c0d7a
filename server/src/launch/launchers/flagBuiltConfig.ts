import type { ConfigBuilder, LaunchFacts } from '../facts';
import type { OptionReader } from './trainerArgs';
import type { ZeroStage } from '../../memory/types';
import { readDeepSpeedChatFacts } from './deepspeedChat';
import { msg } from '../../l10n';

/**
 * The program, when it is one that builds its DeepSpeed config from `--zero_stage` itself: DeepSpeed-Chat's main.py
 * (step1/2/3 and the scripts copied from it: Yi finetune/sft, Telechat deepspeed-telechat/sft), OpenRLHF's
 * `openrlhf.cli.*` modules. Only these: an ordinary script's `--zero_stage` is its own business.
 */
export function builderOf(script = ''): ConfigBuilder | undefined {
  return /^(\.\/)?openrlhf[./]cli[./]/.test(script) ? 'OpenRLHF' : /(^|\/)main\.py$/.test(script) ? 'DeepSpeed-Chat' : undefined;
}

/**
 * The config such a program builds, as stage/offload settings (referencedConfig.ts writes the JSON).
 * - DeepSpeed-Chat (DeepSpeedExamples 83757d9c applications/DeepSpeed-Chat/training/step1_supervised_finetuning/
 *   main.py; step2's main.py the same at :144-156, :225): get_train_ds_config(offload=args.offload,
 *   dtype=args.dtype, stage=args.zero_stage) (:225), then train_micro_batch_size_per_gpu =
 *   --per_device_train_batch_size (:232; default 16, :69-71) and train_batch_size = that × world size ×
 *   --gradient_accumulation_steps (:234-235; default 1, :102-104). --offload :145, --dtype fp16|bf16 default fp16
 *   :148-151, --zero_stage default 0 :154-156. dschat/utils/ds_utils.py:27 `device = "cpu" if offload else "none"`
 *   for offload_param and offload_optimizer alike (:37-42); fp16 or bfloat16 (:28-33). Copies without --dtype
 *   write fp16 (Yi finetune/utils/ds_utils.py:40); Telechat's passes --precision fp16|bf16 instead (Tele-AI/Telechat
 *   bcdced4e deepspeed-telechat/sft/main.py: get_train_ds_config(offload=args.offload, stage=args.zero_stage,
 *   precision=args.precision), then the same batch keys). Step 3 builds the actor's the same way from --actor_zero_stage
 *   (dschat/rlhf/rlhf_engine.py:67-87); its other models: deepspeedChat.ts.
 * - OpenRLHF: DeepspeedStrategy.get_ds_train_config (openrlhf/utils/deepspeed/deepspeed.py) passes offload=False and
 *   adam_offload=args.adam_offload, so deepspeed_utils.py (0a3fbcef) :20-26 gives offload_param "none" and
 *   offload_optimizer "cpu" with --adam_offload; bf16/fp16 from the precision (:48-53); it sets
 *   train_micro_batch_size_per_gpu = --micro_train_batch_size and train_batch_size = --train_batch_size, from which
 *   DeepSpeed derives the accumulation. --zero_stage defaults to 2 (openrlhf/cli/train_sft.py). Its dotted flags
 *   (--ds.zero_stage, --ds.adam_offload, --train.batch_size) are the same settings.
 */
export function readFlagBuiltConfig(reader: OptionReader, facts: LaunchFacts): void {
  const builtBy = builderOf(facts.script?.value);
  // Step 3 builds the actor's config from --actor_zero_stage (deepspeedChat.ts).
  const stage = reader.integer('zero_stage', 'ds.zero_stage') ?? (builtBy === 'DeepSpeed-Chat' ? reader.integer('actor_zero_stage') : undefined);
  // A stage DeepSpeed refuses is no run to estimate.
  if (!builtBy || !stage || stage.value < 0 || stage.value > 3) return;
  if (builtBy === 'DeepSpeed-Chat') readDeepSpeedChatFacts(reader, facts, stage);
  const offload = builtBy === 'DeepSpeed-Chat' ? reader.bool('offload') : reader.bool('adam_offload') ?? reader.bool('ds.adam_offload');
  const dtype = reader.string('dtype', 'precision', 'param_dtype', 'ds.param_dtype');
  const bf16 = reader.bool('bf16');
  const precision = dtype?.value === 'bf16' || dtype?.value === 'fp16' ? dtype.value : bf16?.value ? 'bf16' : builtBy === 'DeepSpeed-Chat' ? 'fp16' : undefined;
  const device = offload?.value ? 'cpu' : 'none';
  // DeepSpeed-Chat hands deepspeed.initialize its own Adam: DeepSpeedCPUAdam with --offload, else FusedAdam (step1
  // main.py:321-324, dschat/rlhf/rlhf_engine.py:108, :238).
  if (builtBy === 'DeepSpeed-Chat') facts.optim ??= reader.ctx.fact(offload?.value ? 'DeepSpeedCPUAdam' : 'FusedAdam', stage.span.start, stage.span.end, msg('DeepSpeed-Chat main.py'), true);
  const flags = [`${stage.via} ${stage.value}`, offload?.value ? offload.via : '', dtype ? `${dtype.via} ${dtype.value}` : bf16?.value ? bf16.via : ''].filter(Boolean).join(' ');
  facts.deepspeed = {
    kind: 'settings',
    via: stage.via,
    text: String(stage.value),
    span: stage.span,
    stage: stage.value as ZeroStage,
    offloadOptimizer: device,
    // OpenRLHF trains with offload=False: parameters stay on the GPU whatever --adam_offload says. DeepSpeed-Chat's
    // --offload goes into offload_param too, which DeepSpeed reads at ZeRO-3 only: written as it runs.
    offloadParam: builtBy === 'DeepSpeed-Chat' && stage.value === 3 ? device : 'none',
    builtBy,
    precision,
    flags,
    batch:
      builtBy === 'DeepSpeed-Chat'
        ? { micro: facts.microBatch ? undefined : 16, accumulation: facts.gradientAccumulation ? undefined : 1 }
        : { train: reader.integer('train_batch_size', 'train.batch_size')?.value },
  };
  // deepspeed.initialize with the dict it built: not the HF Trainer, whatever Trainer-like flags it takes.
  facts.noTrainerArguments = true;
}
