/**
 * Facts read from real launch scripts none of us wrote (minimal excerpts, each with its upstream URL): what the run
 * holds, as the training layer reports it with its source. Each test failed before the fix it came with.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { withDefaults } from '../../server/src/settings';
import { estimateFeatures, memoryHosts, scriptDocument, shown, workspaceRoot } from './context-hosts';

async function analysisOf(name: string, text: string, files: Record<string, string> = {}) {
  const hosts = memoryHosts({ [name]: text, ...files });
  const { analyses } = estimateFeatures(hosts);
  const yaml = /\.ya?ml$/.test(name);
  const document: TextDocument = yaml ? TextDocument.create(URI.file(path.join(workspaceRoot, name)).toString(), 'yaml', 1, text) : scriptDocument(name, text);
  return analyses.training.analyzeDocument(document, yaml ? 'launch-yaml' : 'launch-script', withDefaults({}));
}

// https://github.com/lm-sys/FastChat/blob/0e6d3e4beaab66f4d3f93db72541a4abab8af28d/scripts/train_vicuna_7b.sh
const fastchatFsdp = `torchrun --nproc_per_node=4 --master_port=20001 fastchat/train/train_mem.py \\
    --model_name_or_path lmsys/vicuna-7b-v1.5  \\
    --bf16 True \\
    --output_dir output_vicuna_7b \\
    --per_device_train_batch_size 2 \\
    --gradient_accumulation_steps 16 \\
    --fsdp "full_shard auto_wrap" \\
    --fsdp_transformer_layer_cls_to_wrap 'LlamaDecoderLayer' \\
    --model_max_length 2048 \\
    --gradient_checkpointing True
`;

test('FSDP without a DeepSpeed config: the Trainer accumulates the script\'s --gradient_accumulation_steps, and no note blames DeepSpeed', async () => {
  const { analysis, hasConfig } = await analysisOf('train_vicuna_7b.sh', fastchatFsdp);
  assert.equal(hasConfig, true);
  assert.equal(analysis.engine, 'fsdp');
  assert.deepEqual(shown(analysis.context.gradientAccumulationSteps), { value: 16, source: 'train_vicuna_7b.sh line 6' });
  assert.deepEqual(analysis.notes.filter((n) => /DeepSpeed accumulates/.test(n)), []);
});

// https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/multi-gpu/ddp/train.sh
const swiftDdp = `nproc_per_node=2

CUDA_VISIBLE_DEVICES=0,1 \\
NPROC_PER_NODE=$nproc_per_node \\
swift sft \\
    --model Qwen/Qwen2.5-7B-Instruct \\
    --tuner_type lora \\
    --torch_dtype bfloat16 \\
    --per_device_train_batch_size 1 \\
    --gradient_accumulation_steps $(expr 16 / $nproc_per_node) \\
    --max_length 2048
`;

test('a launch with no DeepSpeed at all (ms-swift DDP): its context keeps the script\'s accumulation', async () => {
  const { analysis, hasConfig } = await analysisOf('train.sh', swiftDdp);
  assert.equal(hasConfig, false);
  assert.deepEqual(shown(analysis.context.gradientAccumulationSteps), { value: 8, source: 'train.sh line 10' });
  assert.deepEqual(analysis.notes.filter((n) => /DeepSpeed accumulates/.test(n)), []);
});

// https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/megatron/base_to_chat.sh
const megatronSelective = `NPROC_PER_NODE=8 \\
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \\
megatron sft \\
    --model Qwen/Qwen2.5-14B \\
    --tensor_model_parallel_size 4 \\
    --micro_batch_size 1 \\
    --global_batch_size 16 \\
    --packing true \\
    --recompute_granularity selective \\
    --max_length 8192 \\
    --sequence_parallel true
`;

test('megatron sft: --recompute_granularity decides checkpointing; selective (the default) is not full checkpointing', async () => {
  const selective = await analysisOf('base_to_chat.sh', megatronSelective);
  assert.equal(selective.analysis.engine, 'megatron');
  assert.deepEqual(shown(selective.analysis.context.gradientCheckpointing), { value: false, source: 'base_to_chat.sh line 9' });
  // https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/megatron/lora/dense.sh
  const full = await analysisOf('dense.sh', megatronSelective.replace('selective', 'full'));
  assert.deepEqual(shown(full.analysis.context.gradientCheckpointing), { value: true, source: 'dense.sh line 9' });
  const unsaid = await analysisOf('unsaid.sh', megatronSelective.replace('    --recompute_granularity selective \\\n', ''));
  const gc = unsaid.analysis.context.gradientCheckpointing;
  assert.equal(gc.value, false);
  assert.equal(gc.source.kind, 'launcher-default');
  assert.match(shown(gc)!.source, /selective/);
});

// https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/yaml/megatron/sft.yaml
const megatronYaml = `model: "Qwen/Qwen2.5-7B"
tuner_type: lora
lora_rank: 8
max_length: 2048
micro_batch_size: 1
global_batch_size: 4
expert_model_parallel_size: 1
sequence_parallel: true
recompute_granularity: full
recompute_method: uniform
recompute_num_layers: 1
`;

test('megatron sft with a config file: the file\'s recompute_granularity is read, not ms-swift\'s --gradient_checkpointing default', async () => {
  const script = 'NPROC_PER_NODE=4 \\\nCUDA_VISIBLE_DEVICES=0,1,2,3 \\\nmegatron sft sft.yaml\n';
  const { analysis } = await analysisOf('train.sh', script, { 'sft.yaml': megatronYaml });
  assert.equal(analysis.engine, 'megatron');
  assert.deepEqual(shown(analysis.context.gradientCheckpointing), { value: true, source: 'sft.yaml line 9' });
  const selective = await analysisOf('train.sh', script, { 'sft.yaml': megatronYaml.replace('full', 'selective') });
  assert.deepEqual(shown(selective.analysis.context.gradientCheckpointing), { value: false, source: 'sft.yaml line 9' });
});

// https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/multi-node/ray/sft.yaml
const swiftRayYaml = `model: Qwen/Qwen2.5-7B-Instruct
tuner_type: lora
target_modules:
  - q_proj
  - v_proj
torch_dtype: bfloat16
per_device_train_batch_size: 1
gradient_accumulation_steps: 8
deepspeed: zero3
`;

test('an ms-swift YAML with LoRA keeps ms-swift\'s lora_dropout 0.05, as the same flags on a command line do', async () => {
  const { analysis } = await analysisOf('sft.yaml', swiftRayYaml);
  assert.equal(analysis.context.lora?.value.rank, 8);
  assert.equal(analysis.context.lora?.value.dropout, 0.05);
  const written = await analysisOf('sft.yaml', swiftRayYaml + 'lora_dropout: 0.1\n');
  assert.equal(written.analysis.context.lora?.value.dropout, 0.1);
});

// https://github.com/QwenLM/Qwen/blob/2df8e8ac450fa185c421a08b0090ef81826caa6e/finetune/finetune_lora_ds.sh
const qwenLora = `torchrun --nproc_per_node 8 finetune.py \\
    --model_name_or_path Qwen/Qwen-7B \\
    --bf16 True \\
    --output_dir output_qwen \\
    --per_device_train_batch_size 2 \\
    --gradient_accumulation_steps 8 \\
    --model_max_length 512 \\
    --use_lora \\
    --gradient_checkpointing \\
    --deepspeed finetune/ds_config_zero2.json
`;

test('LoRA switched on without a rank (--use_lora, --lora_enable, --use_peft, --q_lora): adapters, with the rank said to be assumed', async () => {
  const { analysis } = await analysisOf('finetune_lora_ds.sh', qwenLora);
  const lora = analysis.context.lora;
  assert.ok(lora, '--use_lora trains adapters, not the full model');
  // Qwen's finetune.py defaults lora_r to 64, as LLaVA's train.py does: the largest in use, so the estimate errs high.
  assert.equal(lora.value.rank, 64);
  assert.equal(lora.value.quantBits, undefined);
  assert.equal(lora.source.kind, 'launcher-default');
  assert.match(shown(lora)!.source, /rank not stated/);
  // https://github.com/QwenLM/Qwen/blob/2df8e8ac450fa185c421a08b0090ef81826caa6e/finetune/finetune_qlora_ds.sh
  const qlora = await analysisOf('finetune_qlora_ds.sh', qwenLora.replace('--use_lora \\', '--use_lora \\\n    --q_lora \\'));
  assert.equal(qlora.analysis.context.lora?.value.quantBits, 4);
  // https://github.com/haotian-liu/LLaVA/blob/c121f0432da27facab705978f83c4ada465e46fd/scripts/finetune_qlora.sh
  const llava = await analysisOf('finetune_qlora.sh', qwenLora.replace('--use_lora \\', '--lora_enable True \\\n    --bits 4 \\'));
  assert.deepEqual([llava.analysis.context.lora?.value.rank, llava.analysis.context.lora?.value.quantBits], [64, 4]);
  // https://github.com/shibing624/MedicalGPT/blob/2f1008cfa49cbba69ff6f138c3b5e2fb0646bdc7/scripts/run_grpo.sh (TRL ModelConfig)
  const trl = await analysisOf('run_grpo.sh', qwenLora.replace('--use_lora \\', '--use_peft True \\\n    --qlora False \\\n    --load_in_4bit False \\\n    --lora_r 16 \\'));
  assert.deepEqual(shown(trl.analysis.context.lora), { value: { rank: 16, quantBits: undefined }, source: 'run_grpo.sh line 11' });
  const off = await analysisOf('finetune_ds.sh', qwenLora.replace('--use_lora \\', '--use_lora False \\'));
  assert.equal(off.analysis.context.lora, undefined);
  // https://github.com/huggingface/peft/blob/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/examples/sft/run_peft_qlora_deepspeed_stage3.sh
  const peft = await analysisOf('run_peft.sh', qwenLora.replace('--use_lora \\', '--use_peft_lora True \\\n    --lora_r 8 \\\n    --use_4bit_quantization True \\'));
  assert.deepEqual([peft.analysis.context.lora?.value.rank, peft.analysis.context.lora?.value.quantBits], [8, 4]);
  const peftOff = await analysisOf('run_peft.sh', qwenLora.replace('--use_lora \\', '--use_peft_lora False \\\n    --lora_r 8 \\'));
  assert.equal(peftOff.analysis.context.lora, undefined);
});

// https://github.com/Tele-AI/Telechat/blob/9faf3bc40ee0393e65712acb80067b21c9d1aadb/deepspeed-telechat/sft/run_telechat_lora.sh
const telechat = `export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
MAX_LEN=4096
MODEL_PATH=Tele-AI/telechat-7B
python -u process_data.py \\
   --data_path data.json  \\
   --tokenizer_path $MODEL_PATH \\
   --max_seq_len $MAX_LEN \\
   --num_workers 10
deepspeed --master_port 29500 main.py \\
   --model_name_or_path $MODEL_PATH \\
   --per_device_train_batch_size 1 \\
   --max_seq_len $MAX_LEN \\
   --gradient_accumulation_steps 4 \\
   --gradient_checkpointing \\
   --zero_stage 3 \\
   --deepspeed \\
   --output_dir out
`;

test('a script that prepares data before it trains: its context is the training command\'s, and DeepSpeed-Chat\'s --max_seq_len is the sequence', async () => {
  const { analysis, hasConfig } = await analysisOf('run_telechat_lora.sh', telechat);
  // main.py builds ZeRO-3 from --zero_stage 3 (DeepSpeed-Chat's get_train_ds_config; launchers/flagBuiltConfig.ts).
  assert.equal(hasConfig, true);
  assert.equal(analysis.current.stage, 3);
  assert.equal(analysis.configPath, '--zero_stage 3 (DeepSpeed-Chat builds the config)');
  const c = analysis.context;
  assert.deepEqual(shown(c.model), { value: 'Tele-AI/telechat-7B', source: 'run_telechat_lora.sh line 10' });
  assert.deepEqual(shown(c.gpusPerNode), { value: 8, source: 'run_telechat_lora.sh line 1' });
  assert.deepEqual(shown(c.gradientAccumulationSteps), { value: 4, source: 'run_telechat_lora.sh line 13' });
  assert.deepEqual(shown(c.sequenceLength), { value: 4096, source: 'run_telechat_lora.sh line 12' });
});

// https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/multi-gpu/fsdp2_lora/fsdp2.json
const swiftFsdp2Json = `{
  "compute_environment": "LOCAL_MACHINE",
  "distributed_type": "FSDP",
  "fsdp_config": {
    "fsdp_auto_wrap_policy": "TRANSFORMER_BASED_WRAP",
    "fsdp_reshard_after_forward": true,
    "fsdp_activation_checkpointing": true,
    "fsdp_version": 2
  },
  "mixed_precision": "bf16",
  "num_machines": 1,
  "num_processes": 2
}
`;
// https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/multi-gpu/fsdp2_lora/train.sh
const swiftFsdp2Script = `CUDA_VISIBLE_DEVICES=0,1 \\
accelerate launch --config_file "./fsdp2.json" \\
    swift/cli/sft.py \\
    --model Qwen/Qwen2.5-7B-Instruct \\
    --tuner_type lora \\
    --per_device_train_batch_size 1 \\
    --gradient_checkpointing false \\
    --max_length 2048
`;

test('FSDP activation checkpointing in the accelerate config checkpoints the layers, whatever the trainer\'s --gradient_checkpointing false', async () => {
  const { analysis } = await analysisOf('train.sh', swiftFsdp2Script, { 'fsdp2.json': swiftFsdp2Json });
  assert.equal(analysis.engine, 'fsdp');
  assert.deepEqual(shown(analysis.context.gradientCheckpointing), { value: true, source: 'fsdp2.json line 7' });
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/examples/accelerate_configs/context_parallel_2gpu.yaml
const trlContextParallel = `distributed_type: FSDP
fsdp_config:
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_version: 2
mixed_precision: bf16
num_machines: 1
num_processes: 2  # Number of GPUs
parallelism_config:
  parallelism_config_dp_replicate_size: 1
  parallelism_config_dp_shard_size: 1
  parallelism_config_tp_size: 1
  parallelism_config_cp_size: 2  # Context parallel size
`;

test('accelerate parallelism_config: context parallel (cp_size) and ALST sequence parallel (sp_size) split each sequence\'s activations', async () => {
  const { analysis } = await analysisOf('context_parallel_2gpu.yaml', trlContextParallel);
  assert.deepEqual(shown(analysis.context.workload.sequenceParallel), { value: 2, source: 'context_parallel_2gpu.yaml line 12' });
  const sp = await analysisOf('sp.yaml', trlContextParallel.replace('cp_size: 2', 'sp_size: 2'));
  assert.equal(sp.analysis.context.workload.sequenceParallel?.value, 2);
});

// https://github.com/OpenGVLab/InternVL/blob/2410d1dbf208f0e799459aff9376e5747dbf41a2/internvl_chat/shell/internvl2.5/2nd_finetune/internvl2_5_8b_dynamic_res_2nd_finetune_lora.sh
const internvlLora = `torchrun \\
  --nnodes=1 \\
  --nproc_per_node=2 \\
  internvl/train/internvl_chat_finetune.py \\
  --model_name_or_path "OpenGVLab/InternVL2_5-8B" \\
  --freeze_llm True \\
  --freeze_mlp True \\
  --freeze_backbone True \\
  --use_llm_lora 16 \\
  --bf16 True \\
  --per_device_train_batch_size 4 \\
  --gradient_accumulation_steps 2 \\
  --max_seq_length 8192 \\
  --grad_checkpoint True \\
  --deepspeed "zero_stage1_config.json"
`;

test('InternVL\'s own flags: --use_llm_lora N trains adapters of rank N, --grad_checkpoint and --freeze_backbone are read', async () => {
  const { analysis } = await analysisOf('finetune_lora.sh', internvlLora);
  const c = analysis.context;
  assert.deepEqual(shown(c.lora), { value: { rank: 16, quantBits: undefined }, source: 'finetune_lora.sh line 9' });
  assert.deepEqual(shown(c.gradientCheckpointing), { value: true, source: 'finetune_lora.sh line 14' });
  assert.deepEqual(shown(c.workload.freezeVit), { value: true, source: 'finetune_lora.sh line 8' });
  const full = await analysisOf('finetune_full.sh', internvlLora.replace('--use_llm_lora 16', '--use_llm_lora 0').replace('--grad_checkpoint True', '--grad_checkpoint False'));
  assert.equal(full.analysis.context.lora, undefined);
  assert.equal(full.analysis.context.gradientCheckpointing.value, false);
});

// https://github.com/haotian-liu/LLaVA/blob/c121f0432da27facab705978f83c4ada465e46fd/scripts/v1_5/finetune_lora.sh, with its
// scripts/zero3.json checked out as a Git LFS pointer (as the corpus stores it): a config DeepSpeed cannot load.
const llavaLora = `deepspeed llava/train/train.py \\
    --lora_enable True --lora_r 128 --lora_alpha 256 --mm_projector_lr 2e-5 \\
    --deepspeed ./scripts/zero3.json \\
    --model_name_or_path lmsys/vicuna-13b-v1.5 \\
    --bf16 True \\
    --per_device_train_batch_size 16 \\
    --gradient_accumulation_steps 2 \\
    --model_max_length 2048 \\
    --gradient_checkpointing True
`;
const lfsPointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:8d25d1f104be517b09152d6398a7352a8db4956f956565ec2ed8af58feba7a81\nsize 801\n';

test('a --deepspeed file that holds no JSON object is no config ZeRO Lens can read, not a run without DeepSpeed', async () => {
  const { analysis, hasConfig } = await analysisOf('finetune_lora.sh', llavaLora, { 'scripts/zero3.json': lfsPointer });
  assert.equal(hasConfig, false);
  assert.ok(analysis.missing.includes('deepspeed'));
  const readable = await analysisOf('finetune_lora.sh', llavaLora, { 'scripts/zero3.json': '{"zero_optimization": {"stage": 3}}' });
  assert.equal(readable.hasConfig, true);
  assert.equal(readable.analysis.current.stage, 3);
});

// https://github.com/OpenRLHF/OpenRLHF/blob/17b714b5992dd7e4538c21358bc051044496c05d/examples/scripts/train_sft.sh (the corpus copy)
const openrlhfSft = `set -x

read -r -d '' training_commands <<EOF
openrlhf.cli.train_sft \\
   --max_len 2048 \\
   --dataset Open-Orca/OpenOrca \\
   --train_batch_size 256 \\
   --micro_train_batch_size 2 \\
   --pretrain meta-llama/Meta-Llama-3-8B \\
   --zero_stage 2 \\
   --param_dtype bf16 \\
   --packing_samples \\
   --gradient_checkpointing
EOF
    # --wandb [WANDB_TOKENS]

if [[ \${1} != "slurm" ]]; then
    deepspeed --module $training_commands
fi
`;

test("OpenRLHF's read -r -d '' training_commands <<EOF idiom: deepspeed --module $training_commands runs the command the heredoc holds", async () => {
  const { analysis } = await analysisOf('train_sft.sh', openrlhfSft);
  const c = analysis.context;
  assert.deepEqual(shown(c.model), { value: 'meta-llama/Meta-Llama-3-8B', source: 'train_sft.sh line 9' });
  assert.deepEqual(shown(c.microBatchSize), { value: 2, source: 'train_sft.sh line 8' });
  assert.deepEqual(shown(c.sequenceLength), { value: 2048, source: 'train_sft.sh line 5' });
  assert.deepEqual(shown(c.gradientCheckpointing), { value: true, source: 'train_sft.sh line 13' });
  assert.deepEqual(shown(c.workload.packing), { value: true, source: 'train_sft.sh line 12' });
});

// https://github.com/OpenRLHF/OpenRLHF/blob/3c3be6234e0cb353e76bb8019947db9dfe99fca7/examples/scripts/train_sft_mixtral_lora.sh (dotted flags)
const openrlhfDotted = `read -r -d '' training_commands <<EOF
openrlhf.cli.train_sft \\
    --data.max_len 2048 \\
    --train.micro_batch_size 4 \\
    --model.model_name_or_path mistralai/Mixtral-8x7B-v0.1 \\
    --ds.zero_stage 3 \\
    --model.gradient_checkpointing_enable \\
    --ds.lora.rank 64 \\
    --ds.packing_samples
EOF
deepspeed --module $training_commands
`;

test('OpenRLHF\'s dotted flags (--model.model_name_or_path, --train.micro_batch_size, --data.max_len, --ds.lora.rank …) are read as the old ones were', async () => {
  const { analysis } = await analysisOf('train_sft_mixtral_lora.sh', openrlhfDotted);
  const c = analysis.context;
  assert.deepEqual(shown(c.model), { value: 'mistralai/Mixtral-8x7B-v0.1', source: 'train_sft_mixtral_lora.sh line 5' });
  assert.deepEqual(shown(c.microBatchSize), { value: 4, source: 'train_sft_mixtral_lora.sh line 4' });
  assert.deepEqual(shown(c.sequenceLength), { value: 2048, source: 'train_sft_mixtral_lora.sh line 3' });
  assert.deepEqual(shown(c.gradientCheckpointing), { value: true, source: 'train_sft_mixtral_lora.sh line 7' });
  assert.equal(c.lora?.value.rank, 64);
  assert.equal(c.workload.packing?.value, true);
  // OpenRLHF builds ZeRO-3 from --ds.zero_stage 3 (launchers/flagBuiltConfig.ts).
  assert.equal(analysis.configPath, '--ds.zero_stage 3 (OpenRLHF builds the config)');
  assert.equal(analysis.current.stage, 3);
  const full = await analysisOf('train_sft.sh', openrlhfDotted.replace('--ds.lora.rank 64', '--ds.lora.rank 0'));
  assert.equal(full.analysis.context.lora, undefined, 'rank 0 is full fine-tuning');
});

// https://github.com/hiyouga/LLaMA-Factory/blob/ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30/examples/ascend/qwen3_5moe_lora_sft_fsdp2.yaml
const llamaFactoryNoGc = `model_name_or_path: Qwen/Qwen3.5-35B-A3B
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 8
lora_target: all
cutoff_len: 2048
per_device_train_batch_size: 1
gradient_accumulation_steps: 1
bf16: true
disable_gradient_checkpointing: true
`;

test('LLaMA-Factory checkpoints unless disable_gradient_checkpointing (its loader, not the Trainer\'s flag, decides); a config-less command is completed by its YAML', async () => {
  const script = 'FORCE_TORCHRUN=1 CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train sft.yaml\n';
  const off = await analysisOf('train.sh', script, { 'sft.yaml': llamaFactoryNoGc });
  assert.equal(off.hasConfig, false);
  assert.deepEqual(shown(off.analysis.context.model), { value: 'Qwen/Qwen3.5-35B-A3B', source: 'sft.yaml line 1' });
  assert.deepEqual(shown(off.analysis.context.gradientCheckpointing), { value: false, source: 'sft.yaml line 11' });
  // gradient_checkpointing: false alone does not stop LLaMA-Factory's loader (model_utils/checkpointing.py:184).
  const on = await analysisOf('train.sh', script, { 'sft.yaml': llamaFactoryNoGc.replace('disable_gradient_checkpointing: true', 'gradient_checkpointing: false') });
  assert.equal(on.analysis.context.gradientCheckpointing.value, true);
  assert.equal(on.analysis.context.gradientCheckpointing.source.kind, 'launcher-default');
});
