/**
 * What the trainer runs where a launch is silent. transformers' TrainingArguments defaults per_device_train_batch_size
 * to 8 and gradient_accumulation_steps to 1 (transformers fd798335 src/transformers/training_args.py, the
 * `per_device_train_batch_size: int = field(default=8, …)` field); TRL's configs keep that batch and turn on
 * gradient_checkpointing and bf16 (trl f2cd5771 trl/trainer/base_config.py:61-72, :104-105); LLaMA-Factory's
 * TrainingArguments is Seq2SeqTrainingArguments unchanged (LLaMA-Factory ff6d4d12 src/llamafactory/hparams/training_args.py:143-153).
 * Before this change each silent batch below was estimated as 1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../server/src/settings';
import { describeSource } from '../../server/src/protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { estimateFeatures, memoryHosts, scriptDocument, workspaceRoot } from './context-hosts';

async function analysisOf(text: string, files: Record<string, string> = {}, name = 'train.sh', kind: 'launch-script' | 'launch-yaml' = 'launch-script') {
  const { analyses } = estimateFeatures(memoryHosts({ ...files, [name]: text }));
  return analyses.training.analyzeDocument(scriptDocument(name, text), kind, withDefaults({}));
}

const autoConfig = JSON.stringify({ train_micro_batch_size_per_gpu: 'auto', gradient_accumulation_steps: 'auto', zero_optimization: { stage: 2 } });

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/docs/source/clis.md (lines 382-387)
test('`trl sft` without a batch: SFTConfig keeps TrainingArguments\' 8; checkpointing and bf16 are TRL\'s defaults', async () => {
  const { analysis } = await analysisOf(`trl sft \\
  --model_name_or_path Qwen/Qwen2.5-0.5B \\
  --dataset_name stanfordnlp/imdb \\
  --accelerate_config zero2
`);
  const c = analysis.context;
  assert.equal(c.microBatchSize.value, 8);
  assert.match(describeSource(c.microBatchSize.source), /TrainingArguments default 8/);
  assert.equal(c.gradientCheckpointing.value, true);
  assert.match(describeSource(c.gradientCheckpointing.source), /TRL's default/);
  assert.equal(c.dtype.value, 'bf16');
  // The profile's mixed_precision: bf16 says it first.
  assert.match(describeSource(c.dtype.source), /zero2/);
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/docs/source/grpo_trainer.md (accelerate launch … grpo)
test('a TRL GRPO script under accelerate, batch not written: 8 through the config\'s "auto"; fp16 written wins over TRL\'s bf16', async () => {
  const { analysis } = await analysisOf('accelerate launch --num_processes 2 trl/scripts/grpo.py --model_name_or_path Qwen/Qwen2-0.5B-Instruct --deepspeed ds.json --fp16\n', {
    'ds.json': autoConfig,
  });
  const c = analysis.context;
  assert.equal(c.microBatchSize.value, 8);
  assert.match(describeSource(c.microBatchSize.source), /TrainingArguments default 8/);
  assert.equal(c.dtype.value, 'fp16');
  assert.match(describeSource(c.gradientCheckpointing.source), /TRL's default/);
});

// transformers examples/pytorch/language-modeling/README.md's run_clm.py command under deepspeed, the batch flag left out
// (https://github.com/huggingface/transformers/blob/fd798335c275520af034c678b35e8167820c7c80/examples/pytorch/language-modeling/README.md)
test('a plain HF Trainer script with "auto" in its config and no batch flag: TrainingArguments\' 8', async () => {
  const { analysis } = await analysisOf(`deepspeed --num_gpus 2 run_clm.py \\
    --deepspeed ds.json \\
    --model_name_or_path openai-community/gpt2 \\
    --dataset_name wikitext \\
    --dataset_config_name wikitext-2-raw-v1 \\
    --do_train \\
    --output_dir /tmp/test-clm
`, { 'ds.json': autoConfig });
  const c = analysis.context;
  assert.equal(c.microBatchSize.value, 8);
  assert.match(describeSource(c.microBatchSize.source), /TrainingArguments default 8/);
  assert.equal(c.gradientAccumulationSteps.value, 1);
  // TrainingArguments' gradient_checkpointing is False: every layer's activations stay (the editor's default was on).
  assert.equal(c.gradientCheckpointing.value, false);
  assert.match(describeSource(c.gradientCheckpointing.source), /TrainingArguments default false/);
  // Neither --bf16 nor --fp16: fp32, which the config's "auto" (unwritten here) would follow.
  assert.equal(c.dtype.value, 'fp32');
  assert.match(describeSource(c.dtype.source), /TrainingArguments default fp32/);
});

test('the config\'s own train_micro_batch_size_per_gpu decides (transformers raises when the script\'s differs)', async () => {
  const { analysis } = await analysisOf('deepspeed --num_gpus 2 run_clm.py --deepspeed ds.json --model_name_or_path gpt2 --do_train --output_dir out\n', {
    'ds.json': JSON.stringify({ train_micro_batch_size_per_gpu: 2, zero_optimization: { stage: 2 } }),
  });
  assert.equal(analysis.context.microBatchSize.value, 2);
});

test('a script that takes --deepspeed but none of the Trainer\'s flags keeps the unknown consumer\'s 1', async () => {
  const { analysis } = await analysisOf('deepspeed --num_gpus 2 my_loop.py --deepspeed ds.json --model_name_or_path gpt2\n', { 'ds.json': autoConfig });
  assert.equal(analysis.context.microBatchSize.value, 1);
  assert.doesNotMatch(describeSource(analysis.context.microBatchSize.source), /TrainingArguments/);
});

test('ms-swift keeps its own default 1', async () => {
  const { analysis } = await analysisOf('NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B --deepspeed zero2\n');
  assert.equal(analysis.context.microBatchSize.value, 1);
  assert.match(describeSource(analysis.context.microBatchSize.source), /ms-swift default/);
});

// ms-swift's per_device_train_batch_size: int = 1 (3602360a swift/trainers/arguments.py:129) is the YAML's default too:
// swift/cli/main.py turns the keys into flags (parse_yaml_args). The YAML was sourced as the editor's default.
test('an ms-swift YAML without a batch: ms-swift\'s default 1, named so (opened itself or through `swift sft x.yaml`)', async () => {
  const yaml = 'model: Qwen/Qwen2.5-7B\ntuner_type: lora\ndeepspeed: zero2\n';
  const document = TextDocument.create(URI.file(`${workspaceRoot}/sft.yaml`).toString(), 'yaml', 1, yaml);
  const opened = await estimateFeatures(memoryHosts({ 'sft.yaml': yaml })).analyses.training.analyzeDocument(document, 'launch-yaml', withDefaults({}));
  for (const run of [opened, await analysisOf('NPROC_PER_NODE=2 swift sft sft.yaml\n', { 'sft.yaml': yaml })]) {
    assert.equal(run.analysis.context.microBatchSize.value, 1);
    assert.match(describeSource(run.analysis.context.microBatchSize.source), /ms-swift default/);
  }
});

// https://github.com/hiyouga/LLaMA-Factory/blob/ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30/examples/train_full/qwen3_full_sft.yaml,
// per_device_train_batch_size left out
const qwen3FullSft = `### model
model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
trust_remote_code: true

### method
stage: sft
do_train: true
finetuning_type: full
deepspeed: ds_z3_config.json

### dataset
dataset: identity,alpaca_en_demo
template: qwen3_nothink
cutoff_len: 2048

### train
gradient_accumulation_steps: 2
learning_rate: 1.0e-5
bf16: true
`;

test('a LLaMA-Factory YAML without per_device_train_batch_size: Seq2SeqTrainingArguments\' 8', async () => {
  const ds = JSON.stringify({ train_micro_batch_size_per_gpu: 'auto', gradient_accumulation_steps: 'auto', zero_optimization: { stage: 3 } });
  const { analysis } = await analysisOf('FORCE_TORCHRUN=1 CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train sft.yaml\n', { 'sft.yaml': qwen3FullSft, 'ds_z3_config.json': ds });
  const c = analysis.context;
  assert.equal(c.microBatchSize.value, 8);
  assert.match(describeSource(c.microBatchSize.source), /TrainingArguments default 8/);
  assert.equal(c.gradientAccumulationSteps.value, 2);
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/trl/accelerate_configs/single_gpu.yaml (its launch keys)
const singleGpu = `distributed_type: "NO"
gpu_ids: all
mixed_precision: 'bf16'
num_machines: 1
num_processes: 8
`;

test('an accelerate config with distributed_type NO and num_processes 8 runs one process (accelerate launch.py:1397-1407)', async () => {
  const { analysis } = await analysisOf('accelerate launch --config_file single_gpu.yaml train.py --model_name_or_path Qwen/Qwen2.5-0.5B --output_dir out\n', {
    'single_gpu.yaml': singleGpu,
  });
  assert.equal(analysis.context.gpusPerNode?.value, 1);
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/trl/accelerate_configs/fsdp2.yaml and fsdp1.yaml
test('`trl sft --accelerate_config fsdp2` / `fsdp1`: FSDP as the profiles say, on their 8 processes', async () => {
  for (const [profile, version] of [['fsdp2', 2], ['fsdp1', 1]] as const) {
    const { analysis } = await analysisOf(`trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name stanfordnlp/imdb --accelerate_config ${profile}\n`);
    const c = analysis.context;
    assert.equal(c.workload.fsdp?.value.version, version, profile);
    assert.equal(c.workload.fsdp?.value.strategy, 'FULL_SHARD', profile);
    assert.equal(c.workload.fsdp?.value.offloadParams, false, profile);
    assert.equal(c.workload.fsdp?.value.autoWrap, 'TRANSFORMER_BASED_WRAP', profile);
    assert.equal(c.gpusPerNode?.value, 8, profile);
    assert.equal(c.microBatchSize.value, 8, profile);
  }
});

// LLaMA-Factory ff6d4d12 src/llamafactory/hparams/parser.py:118-120: the YAML merged under OmegaConf.from_cli(sys.argv[2:]).
test('`llamafactory-cli train sft.yaml per_device_train_batch_size=2 gradient_accumulation_steps=4`: the dotlist wins over the YAML', async () => {
  const ds = JSON.stringify({ train_micro_batch_size_per_gpu: 'auto', gradient_accumulation_steps: 'auto', zero_optimization: { stage: 3 } });
  const { analysis } = await analysisOf('CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train sft.yaml per_device_train_batch_size=2 gradient_accumulation_steps=4\n', {
    'sft.yaml': qwen3FullSft,
    'ds_z3_config.json': ds,
  });
  assert.equal(analysis.context.microBatchSize.value, 2);
  assert.equal(analysis.context.gradientAccumulationSteps.value, 4);
});

test('a TRL arguments file\'s per_device_train_batch_size wins over TrainingArguments\' default', async () => {
  const recipe = 'model_name_or_path: Qwen/Qwen2.5-0.5B\nper_device_train_batch_size: 4\ngradient_checkpointing: false\n';
  const { analysis } = await analysisOf('trl sft --config recipe.yaml --accelerate_config zero2\n', { 'recipe.yaml': recipe });
  assert.equal(analysis.context.microBatchSize.value, 4);
  assert.equal(analysis.context.gradientCheckpointing.value, false);
});

test('a data step that passes --output_dir is not taken for the training command for the batch default it gets', async () => {
  const { analysis } = await analysisOf('python preprocess.py --output_dir data\ntorchrun --nproc_per_node 2 train.py --model_name_or_path Qwen/Qwen2.5-0.5B --output_dir out\n');
  assert.equal(analysis.context.model?.value, 'Qwen/Qwen2.5-0.5B');
  assert.equal(analysis.context.gpusPerNode?.value, 2);
});

test('accelerate\'s --num_processes 8 over a distributed_type NO config still runs one process; --multi_gpu makes it 8 (launch.py:1214-1237)', async () => {
  const files = { 'single_gpu.yaml': singleGpu, 'ds.json': autoConfig };
  const script = (flags: string) => `accelerate launch --config_file single_gpu.yaml ${flags} train.py --model_name_or_path Qwen/Qwen2.5-0.5B --output_dir out --deepspeed ds.json\n`;
  assert.equal((await analysisOf(script('--num_processes 8'), files)).analysis.context.gpusPerNode?.value, 1);
  assert.equal((await analysisOf(script('--multi_gpu --num_processes 8'), files)).analysis.context.gpusPerNode?.value, 8);
});

// TRL's base_config.py:104-105 sets bf16 only when it is None: written false, the run is fp32, and the flag says so.
test('`--bf16 false` on a TRL script: fp32, from the flag rather than a default', async () => {
  const { analysis } = await analysisOf('python trl/scripts/sft.py --model_name_or_path Qwen/Qwen2.5-0.5B --bf16 false --output_dir out\n');
  assert.equal(analysis.context.dtype.value, 'fp32');
  assert.equal(describeSource(analysis.context.dtype.source), 'train.sh line 1');
});
