/**
 * One-line documentation of the flags ZeRO Lens knows, per program, for hover and completion.
 * Facts from launchers-and-models.md (ms-swift 4.x, DeepSpeed runner.py, torch run.py, accelerate launch.py).
 */
import { msg, type Phrase } from '../l10n';

/** A flag's documentation, worded where it is shown (hover, completion) in the reader's language: `say(t, doc)`. */
export interface FlagDoc {
  doc: Phrase;
  /** Allowed values, offered as completions. */
  values?: FlagValue[];
}

export interface FlagValue {
  value: string;
  doc?: Phrase;
}

const bools: FlagValue[] = [{ value: 'true' }, { value: 'false' }];
const devices: FlagValue[] = [
  { value: 'none', doc: msg('keep on the GPU') },
  { value: 'cpu', doc: msg('offload to CPU RAM') },
  { value: 'nvme', doc: msg('offload to NVMe (needs the nvme path)') },
];

export const swiftFlags: Record<string, FlagDoc> = {
  deepspeed: { doc: msg('DeepSpeed config: a preset (zero0, zero1, zero2, zero2_offload, zero3, zero3_offload), a JSON path (relative to the working directory) or inline JSON. sft/pt/rlhf only.') },
  teacher_deepspeed: {
    doc: msg('DeepSpeed config of the teacher model (swift rlhf, GKD and GRPO with --teacher_model): the same values as --deepspeed, which it defaults to. Used only when the training runs under --deepspeed; below ZeRO-3 the teacher runs at stage 0, whole on every GPU.'),
  },
  model: { doc: msg('Model id (ModelScope by default, Hugging Face with --use_hf true) or a local folder.') },
  tuner_type: {
    doc: msg('What is trained (3.x: --train_type). Default lora. QLoRA = lora + --quant_method bnb --quant_bits 4.'),
    values: ['lora', 'full', 'longlora', 'adalora', 'llamapro', 'adapter', 'vera', 'boft', 'fourierft', 'reft', 'bone', 'ia3', 'lora_llm'].map((v): FlagValue => (v === 'full' ? { value: v, doc: msg('full-parameter fine-tuning') } : v === 'lora' ? { value: v, doc: msg('LoRA adapters (default)') } : { value: v })),
  },
  torch_dtype: {
    doc: msg('Model dtype: bfloat16, float16 or float32 (bf16/fp16 are not accepted). Also decides fp16/bf16 AMP for the presets\' "auto".'),
    values: [
      { value: 'bfloat16', doc: msg('bf16 AMP') },
      { value: 'float16', doc: msg('fp16 AMP') },
      { value: 'float32', doc: msg('fp32 weights (ms-swift still turns on fp16 AMP)') },
    ],
  },
  per_device_train_batch_size: { doc: msg('Micro-batch per GPU (default 1); fills train_micro_batch_size_per_gpu "auto".') },
  gradient_accumulation_steps: { doc: msg('Default: max(1, ceil(16 / per_device_train_batch_size / WORLD_SIZE)).') },
  max_length: { doc: msg('Maximum tokens per sample after tokenization (default: the model\'s max_model_len).') },
  gradient_checkpointing: { doc: msg('Recompute activations in the backward pass. ms-swift default: true.'), values: bools },
  lora_rank: { doc: msg('LoRA rank (default 8).') },
  quant_method: {
    doc: msg('Load-time quantization for training. Without it, --quant_bits does nothing.'),
    values: ['bnb', 'hqq', 'eetq', 'quanto', 'fp8'].map((v): FlagValue => (v === 'bnb' ? { value: v, doc: msg('bitsandbytes (QLoRA), 4 or 8 bits') } : { value: v })),
  },
  quant_bits: { doc: msg('Bits for --quant_method: bnb 4/8, hqq 1/2/3/4/8, quanto 2/4/8/float8, eetq 8.'), values: ['4', '8'].map((v) => ({ value: v })) },
  fsdp: { doc: msg('FSDP instead of DeepSpeed (fsdp2 preset or a JSON path). Cannot be combined with --deepspeed.') },
  zero_hpz_partition_size: { doc: msg('ZeRO++ hierarchical partitioning: sets zero_optimization.zero_hpz_partition_size.') },
  deepspeed_autotp_size: { doc: msg('DeepSpeed AutoTP size (zero0/1/2 with full training only).') },
  train_type: { doc: msg('ms-swift 3.x name of --tuner_type; rejected from 4.1 on.') },
};

export const deepspeedLauncherFlags: Record<string, FlagDoc> = {
  hostfile: { doc: msg('MPI-style hostfile (`host slots=N` per line). Default /job/hostfile.') },
  include: { doc: msg('Hosts and GPUs to use: NAME[:SLOT,…][@NAME…], e.g. localhost:0,1. Not with --exclude/--num_gpus/--num_nodes.') },
  exclude: { doc: msg('Hosts and GPUs to leave out, same format as --include. Not with --include/--num_gpus/--num_nodes.') },
  num_nodes: { doc: msg('Use the first N hosts of the hostfile. Not with --include/--exclude; >1 needs a hostfile.') },
  num_gpus: { doc: msg('Use GPUs [0, N) on each node. Not with --include/--exclude.') },
  num_accelerators: { doc: msg('Alias of --num_gpus.') },
  master_port: { doc: msg('Rendezvous port (default 29500).') },
  master_addr: { doc: msg('Rendezvous address (default: first host, from `hostname -I`).') },
  node_rank: { doc: msg('Rank of this node; only with --no_ssh.') },
  launcher: { doc: msg('Multi-node backend: pdsh (default), openmpi, mvapich, slurm, mpich, impi, jsrun.') },
  no_local_rank: { doc: msg('Do not pass --local_rank to the script.') },
  module: { doc: msg('Run the script as a Python module.') },
};

export const torchrunFlags: Record<string, FlagDoc> = {
  nproc_per_node: {
    doc: msg('Processes (GPUs) per node: an integer, or auto/cpu/gpu/xpu. Default 1.'),
    values: ['8', '4', '2', 'gpu', 'auto'].map((v): FlagValue => (v === 'gpu' ? { value: v, doc: msg('one process per visible GPU') } : { value: v })),
  },
  nnodes: { doc: msg('Number of nodes: N or MIN:MAX (elastic). Default 1:1.') },
  node_rank: { doc: msg('Rank of this node (default 0).') },
  master_addr: { doc: msg('Address of rank 0 (static rendezvous; default 127.0.0.1).') },
  master_port: { doc: msg('Port of rank 0 (default 29500).') },
  standalone: { doc: msg('Single-node run with an automatic local rendezvous.') },
  rdzv_backend: { doc: msg('Rendezvous backend (default static).') },
  rdzv_endpoint: { doc: msg('Rendezvous host:port.') },
  max_restarts: { doc: msg('Restarts before failing (default 0).') },
};

export const accelerateFlags: Record<string, FlagDoc> = {
  config_file: { doc: msg('accelerate config YAML (from `accelerate config`).') },
  use_deepspeed: { doc: msg('Use DeepSpeed (store_true).') },
  zero_stage: {
    doc: msg('ZeRO stage; default 2 when unset.'),
    values: [
      { value: '0', doc: msg('ZeRO off (plain data parallelism)') },
      { value: '1', doc: msg('optimizer states sharded') },
      { value: '2', doc: msg('optimizer states and gradients sharded') },
      { value: '3', doc: msg('optimizer states, gradients and parameters sharded') },
    ],
  },
  offload_optimizer_device: { doc: msg('Where optimizer states live; default none.'), values: devices },
  offload_param_device: { doc: msg('Where parameters live (stage 3); default none.'), values: devices },
  zero3_init_flag: { doc: msg('Build the model directly partitioned (stage 3 only); default true.'), values: bools },
  zero3_save_16bit_model: { doc: msg('Gather 16-bit weights on save (stage 3); default false.'), values: bools },
  deepspeed_config_file: { doc: msg('DeepSpeed JSON config. The accelerate config YAML may then not set the other DeepSpeed keys or mixed_precision (accelerate refuses them); the same flags on the command line only fill "auto" values in the JSON.') },
  gradient_accumulation_steps: { doc: msg('Default 1.') },
  gradient_clipping: { doc: msg('Default 1.0.') },
  num_processes: { doc: msg('Total processes over all machines.') },
  num_machines: { doc: msg('Number of machines (nodes).') },
  machine_rank: { doc: msg('Rank of this machine.') },
  mixed_precision: {
    doc: msg('Mixed precision: no, fp16, bf16 or fp8.'),
    values: ['no', 'fp16', 'bf16', 'fp8'].map((v) => ({ value: v })),
  },
  deepspeed_multinode_launcher: {
    doc: msg('How DeepSpeed starts other nodes; default pdsh.'),
    values: ['pdsh', 'standard', 'openmpi', 'mvapich', 'mpich', 'slurm', 'nossh'].map((v) => ({ value: v })),
  },
};

export const hfFlags: Record<string, FlagDoc> = {
  deepspeed: { doc: msg('Hugging Face TrainingArguments.deepspeed: the path of a DeepSpeed JSON config (or a dict). ms-swift preset names are not accepted here.') },
  deepspeed_config: { doc: msg('DeepSpeed JSON config for scripts using deepspeed.add_config_arguments (where --deepspeed is a plain switch).') },
  per_device_train_batch_size: { doc: msg('Micro-batch per GPU; fills train_micro_batch_size_per_gpu "auto".') },
  gradient_accumulation_steps: { doc: msg('Fills gradient_accumulation_steps "auto".') },
  gradient_checkpointing: { doc: msg('Recompute activations in the backward pass (HF default: off).') },
  bf16: { doc: msg('bf16 mixed precision; fills bf16.enabled "auto".') },
  fp16: { doc: msg('fp16 mixed precision; fills fp16.enabled "auto".') },
};

export const llamaFactoryKeys: Record<string, FlagDoc> = {
  deepspeed: { doc: msg('Path of a DeepSpeed JSON config, relative to the working directory (passed to TrainingArguments.deepspeed). No preset names.') },
  finetuning_type: { doc: msg('What is trained.'), values: ['lora', 'oft', 'freeze', 'full'].map((v) => ({ value: v })) },
  lora_rank: { doc: msg('LoRA rank.') },
  quantization_bit: { doc: msg('Load-time quantization bits (QLoRA: 4), with quantization_method.') },
  per_device_train_batch_size: { doc: msg('Micro-batch per GPU; fills train_micro_batch_size_per_gpu "auto".') },
  gradient_accumulation_steps: { doc: msg('Fills gradient_accumulation_steps "auto".') },
  cutoff_len: { doc: msg('Maximum tokens per sample (LLaMA-Factory\'s name for max_length).') },
  bf16: { doc: msg('bf16 mixed precision; fills bf16.enabled "auto".') },
  model_name_or_path: { doc: msg('Hub id or local folder of the model.') },
};
