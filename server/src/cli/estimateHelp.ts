import { english, joinList, type Translate } from '../l10n';
import { optimizerNames } from '../memory/optimizers';
import { helpRows, type HelpRow } from './help';

const column = 35;

/** `zero-lens estimate --help`, in the reader's language. */
export function estimateHelp(t: Translate = english): string {
  const section = (title: string, rows: HelpRow[]) => `${title}\n${helpRows(rows, column)}`;
  return [
    `${t('Usage: {0}', 'zero-lens estimate [FILE] [options]')}\n\n`,
    `${t('Estimates GPU, CPU and NVMe memory for DeepSpeed ZeRO training, for every stage.')}\n\n`,
    `${t(
      "FILE (a ds_config.json, a launch script or launcher YAML) is estimated from its own context, exactly as the\neditor does: the script's model, GPUs, batch and sequence; the config it names (or, for a config, the launch\nscripts in the current folder that use it); zeroLens.* in .vscode/settings.json of the current folder.\nEvery option below overrides what the file says. Without FILE the estimate is made from the options alone.",
    )}\n\n`,
    section(t('Model (without FILE, one of --model / --params is needed):'), [
      ['--model <id|folder|config.json>', t('Hub or ModelScope id (Qwen/Qwen3-8B), local model folder, or config.json.\nLooked up in the built-in catalog and the HF/ModelScope caches; never online.')],
      ['--params <N>', t('Total parameters: 7e9, 7B, 7000M, 6.5b')],
      ['--largest-layer-params <N>', t('Largest single layer (ZeRO-3 gathers it whole, ZeRO-1/2 offload buffers it);\ndefault from the model')],
    ]),
    section(t('Hardware:'), [
      ['--gpus-per-node <N>', t('GPUs per node (default 1)')],
      ['--nodes <N>', t('Nodes (default 1)')],
      ['--gpu-memory <GiB>', t('Memory of one GPU, e.g. 80; without it "fits" is unknown')],
    ]),
    section(t('ZeRO and precision:'), [
      ['--config <ds_config.json>', t('Without FILE: read stage, offload, precision, optimizer, micro-batch, gradient\naccumulation and buckets from it (no launch scripts are looked for)')],
      ['--stage 0|1|2|3', t('ZeRO stage (default: from --config, else 0)')],
      ['--offload-optimizer none|cpu|nvme', ''],
      ['--offload-param none|cpu|nvme', t('Stage 3 only')],
      ['--dtype bf16|fp16|fp32', t('Training precision (default: from --config, else bf16)')],
      ['--optimizer <name>', t("{0}, or the trainer's (adamw_torch_fused, paged_adamw_8bit, …) (default adamw)", joinList(t, optimizerNames))],
    ]),
    section(t('FSDP and model parallelism (instead of ZeRO):'), [
      ['--fsdp full_shard|shard_grad_op|no_shard|hybrid_shard|hybrid_shard_zero2', t('PyTorch FSDP with this sharding strategy (wrap units: one decoder layer each)')],
      ['--fsdp-offload', t('FSDP CPU offload: parameter and gradient shards in CPU RAM, the optimizer step on the CPU')],
      ['--fsdp-version 1|2', t('FSDP1 (FullyShardedDataParallel) or FSDP2 (fully_shard) (default 1)')],
      ['--fsdp-mixed-precision bf16|fp16|no', t('accelerate mixed_precision: bf16/fp16 keeps trainable weights in fp32 and computes in 16-bit (default bf16)')],
      ['--tp, --pp, --cp, --ep <N>', t('Megatron-Core tensor, pipeline, context and expert parallel sizes; --tp alone with --stage or --config is DeepSpeed AutoTP')],
      ['--no-sequence-parallel-tp', t("Megatron without sequence parallel: only attention and MLP activations split over TP")],
      ['--no-distributed-optimizer', t("Megatron without the distributed optimizer: every data-parallel rank keeps all optimizer states")],
      ['--megatron-offload-optimizer', t("Megatron's optimizer_cpu_offload: master weights and optimizer states in CPU RAM")],
    ]),
    section(t('Workload:'), [
      ['--micro-batch <N>', t('Micro-batch per GPU (default: from --config, else 1)')],
      ['--grad-accum <N>', t('Gradient accumulation steps (default: from --config, else 1); above 1, ZeRO-2\noptimizer offload keeps the gradients in a CPU buffer between micro-steps')],
      ['--seq-len <N>', t('Tokens per sample (default 2048)')],
      ['--gradient-checkpointing', t('Full activation checkpointing (default off without FILE)')],
      ['--no-gradient-checkpointing', ''],
      ['--lora-rank <N>', t('Train LoRA adapters of this rank instead of all weights')],
      ['--lora-targets <list>', t('Comma-separated modules (default all-linear)')],
      ['--qlora', t('Frozen base weights in 4-bit NF4 with double quantisation')],
      ['--lora-dropout <p>', t('LoRA dropout (a dropout mask is kept per adapted input)')],
      ['--torch-dtype bf16|fp16|fp32', t('Dtype the model is loaded in, apart from the training precision')],
      ['--ddp', t('Plain PyTorch DDP instead of DeepSpeed (full replicas, pure 16-bit optimizer states)')],
      ['--use-liger-kernel', t("Liger's fused linear cross-entropy (no logits held)")],
      ['--chunked-loss', t('A chunked cross-entropy (logits computed a chunk at a time)')],
      ['--attn-impl eager|sdpa|flash', t('Attention kernel (eager keeps the attention matrix)')],
      ['--packing, --padding-free', t('Samples packed into one sequence / no padding')],
      ['--fixed-length', t('Every sample is --seq-len long (default: samples up to --seq-len)')],
      ['--sequence-parallel <N>', t('Sequence parallel size: activations split N ways')],
      ['--freeze-vit / --no-freeze-vit', t('Vision tower frozen or trained (multimodal models)')],
    ]),
    section(t('RLHF and distillation:'), [
      ['--rlhf dpo|orpo|simpo|kto|cpo|rm|ppo|grpo|gkd', t('The preference, RL or distillation method')],
      ['--ref-model, --reward-model, --value-model, --teacher-model <id>', t('Extra models held on each GPU')],
      ['--teacher-offload', t('Teacher sharded by ZeRO-3 and offloaded')],
      ['--vllm-gpu-memory-utilization <x>', t("Colocated vLLM's share of the GPU during rollouts")],
      ['--vllm-sleep-level 0|1|2', t('vLLM releases its memory during training (1: weights kept in CPU, 2: dropped)')],
      ['--rollout-offload', t('Model and optimizer moved to CPU during rollouts')],
      ['--num-generations <N>, --max-completion-length <N>', t('Rollout batch: completions per prompt and their length (default 512)')],
    ]),
    section(t('Overheads:'), [
      ['--cuda-context <GiB>', t('Override: GPU memory outside PyTorch (CUDA context, kernels, NCCL;\ndefault modelled: 0.92 GiB, + 0.55 GiB NCCL on several GPUs)')],
      ['--fragmentation <0..1>', t('Override: reserved = allocated × (1 + this) (default modelled per phase)')],
    ]),
    section(t('Mode and output:'), [
      ['--mode full|deepspeed', t("deepspeed = DeepSpeed's own estimator, to the byte (model states only)")],
      ['--zero-init / --no-zero-init', t('deepspeed mode: model built under zero.Init (default yes)')],
      ['--legacy-zero2', t('deepspeed mode: the ZeRO-2 formula from before June 2024')],
      ['--additional-buffer-factor <x>', t("deepspeed mode: DeepSpeed's additional_buffer_factor (default 1.5)")],
      ['--format text|json', t('(default text; JSON carries schemaVersion)')],
      ['--lang en|zh-cn', t('language of the output (default: from LC_ALL, LC_MESSAGES or LANG)')],
      ['-h, --help', ''],
    ]),
    `\n${t('Exit status: 0 estimate printed, 2 usage error, unreadable FILE / --config / --model, or a FILE whose\ncontext lacks the model or GPU count (the message names the option that gives it).')}\n`,
  ].join('');
}
