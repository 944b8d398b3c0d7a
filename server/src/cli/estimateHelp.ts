import { english, type Translate } from '../l10n';
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
      ['--optimizer <name>', t('{0} (default adamw)', optimizerNames.join(', '))],
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
    ]),
    section(t('Overheads:'), [
      ['--cuda-context <GiB>', t('CUDA context and kernels (default 1)')],
      ['--fragmentation <0..1>', t('Share added for allocator fragmentation (default 0.1)')],
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
