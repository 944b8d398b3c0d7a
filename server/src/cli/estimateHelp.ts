import { optimizerNames } from '../memory/optimizers';

/** `zero-lens estimate --help`. */
export const estimateHelp = `Usage: zero-lens estimate [FILE] [options]

Estimates GPU, CPU and NVMe memory for DeepSpeed ZeRO training, for every stage.

FILE (a ds_config.json, a launch script or launcher YAML) is estimated from its own context, exactly as the
editor does: the script's model, GPUs, batch and sequence; the config it names (or, for a config, the launch
scripts in the current folder that use it); zeroLens.* in .vscode/settings.json of the current folder.
Every option below overrides what the file says. Without FILE the estimate is made from the options alone.

Model (without FILE, one of --model / --params is needed):
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
  --config <ds_config.json>        Without FILE: read stage, offload, precision, optimizer, micro-batch, gradient
                                   accumulation and buckets from it (no launch scripts are looked for)
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
  --gradient-checkpointing         Full activation checkpointing (default off without FILE)
  --no-gradient-checkpointing
  --lora-rank <N>                  Train LoRA adapters of this rank instead of all weights
  --lora-targets <list>            Comma-separated modules (default all-linear)
  --qlora                          Frozen base weights in 4-bit NF4 with double quantisation
Overheads:
  --cuda-context <GiB>             Override: GPU memory outside PyTorch (CUDA context, kernels, NCCL;
                                   default modelled: 0.92 GiB, + 0.55 GiB NCCL on several GPUs)
  --fragmentation <0..1>           Override: reserved = allocated × (1 + this) (default modelled per phase)
Mode and output:
  --mode full|deepspeed            deepspeed = DeepSpeed's own estimator, to the byte (model states only)
  --zero-init / --no-zero-init     deepspeed mode: model built under zero.Init (default yes)
  --legacy-zero2                   deepspeed mode: the ZeRO-2 formula from before June 2024
  --additional-buffer-factor <x>   deepspeed mode: DeepSpeed's additional_buffer_factor (default 1.5)
  --format text|json               (default text; JSON carries schemaVersion)
  -h, --help

Exit status: 0 estimate printed, 2 usage error, unreadable FILE / --config / --model, or a FILE whose
context lacks the model or GPU count (the message names the option that gives it).
`;
