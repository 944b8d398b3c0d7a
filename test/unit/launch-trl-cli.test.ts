/**
 * The `trl` console script as a launcher: `trl sft|dpo|grpo|kto|reward|rloo ARGS` runs trl/scripts/<name>.py through
 * `accelerate launch`, handing accelerate the arguments the script's parser does not know and `--accelerate_config`
 * as `--config_file` (a path, or a profile shipped in trl/accelerate_configs) (huggingface/trl f2cd5771
 * trl/cli/commands/training.py:51-71, trl/cli/accelerate_config.py:19-47, trl/cli/accelerate_launcher.py:45-47).
 * Commands from docs/source/clis.md at that commit; each test failed before the change (`trl` was no launch).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../server/src/settings';
import { describeSource } from '../../server/src/protocol';
import { estimateFeatures, memoryHosts, scriptDocument } from './context-hosts';
import { zero3 } from './trl-fixtures';

async function analysisOf(text: string, files: Record<string, string> = {}) {
  const { analyses } = estimateFeatures(memoryHosts({ ...files, 'train.sh': text }));
  return analyses.training.analyzeDocument(scriptDocument('train.sh', text), 'launch-script', withDefaults({}));
}

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/docs/source/clis.md (lines 274-279)
const grpo = `trl grpo \\
  --model_name_or_path Qwen/Qwen2.5-0.5B \\
  --dataset_name HuggingFaceH4/Polaris-Dataset-53K \\
  --reward_funcs accuracy_reward \\
  --num_processes 4
`;

test('`trl grpo … --num_processes 4`: GRPO as grpo.py runs it, on the 4 processes accelerate starts', async () => {
  const { analysis } = await analysisOf(grpo);
  const c = analysis.context;
  assert.equal(c.model?.value, 'Qwen/Qwen2.5-0.5B');
  assert.equal(c.gpusPerNode?.value, 4);
  assert.equal(c.workload.rlhf?.value.type, 'grpo');
  assert.equal(c.workload.rlhf?.value.referenceModel, undefined);
  assert.match(describeSource(c.workload.rlhf!.source), /trl grpo/);
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/docs/source/clis.md (lines 382-387)
test('`trl sft … --accelerate_config zero2`: the profile TRL ships (trl/accelerate_configs/zero2.yaml): ZeRO-2 on its 8 processes', async () => {
  const { analysis, hasConfig } = await analysisOf(`trl sft \\
  --model_name_or_path Qwen/Qwen2.5-0.5B \\
  --dataset_name stanfordnlp/imdb \\
  --accelerate_config zero2  # or path/to/my/accelerate/config.yaml
`);
  assert.equal(hasConfig, true);
  assert.equal(analysis.current.stage, 2);
  assert.equal(analysis.context.model?.value, 'Qwen/Qwen2.5-0.5B');
  assert.equal(analysis.context.gpusPerNode?.value, 8);
  assert.equal(analysis.context.workload.rlhf, undefined);
});

test('`trl dpo` with an accelerate config file, --num_processes and a batch: ZeRO-3 from the file, DPO against a frozen copy', async () => {
  const { analysis, hasConfig } = await analysisOf(
    'trl dpo --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name anthropic/hh-rlhf --accelerate_config configs/zero3.yaml --num_processes 2 --per_device_train_batch_size 4\n',
    { 'configs/zero3.yaml': zero3 },
  );
  assert.equal(hasConfig, true);
  assert.equal(analysis.current.stage, 3);
  assert.equal(analysis.context.gpusPerNode?.value, 2);
  assert.equal(analysis.context.microBatchSize.value, 4);
  assert.equal(analysis.context.workload.rlhf?.value.type, 'dpo');
  assert.equal(analysis.context.workload.rlhf?.value.referenceModel, 'Qwen/Qwen2.5-0.5B');
});

test('`trl env` and `trl vllm-serve` train nothing', async () => {
  for (const text of ['trl env\n', 'trl vllm-serve --model Qwen/Qwen2.5-0.5B\n']) {
    const { analysis } = await analysisOf(text);
    assert.equal(analysis.context.model, undefined, text);
  }
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/docs/source/clis.md (lines 283-296, 392-403)
test('`trl grpo --config grpo_config.yaml` whose YAML holds num_processes, and `trl sft --config` whose YAML holds accelerate_config: accelerate gets them', async () => {
  const grpoConfig = `# grpo_config.yaml
model_name_or_path: Qwen/Qwen2.5-0.5B
dataset_name: HuggingFaceH4/Polaris-Dataset-53K
reward_funcs:
  - accuracy_reward
num_processes: 4
`;
  const grpoRun = await analysisOf('trl grpo --config grpo_config.yaml\n', { 'grpo_config.yaml': grpoConfig });
  assert.equal(grpoRun.analysis.context.model?.value, 'Qwen/Qwen2.5-0.5B');
  assert.equal(grpoRun.analysis.context.gpusPerNode?.value, 4);
  assert.equal(grpoRun.analysis.context.workload.rlhf?.value.type, 'grpo');
  // The command line's --num_processes comes after the file's (training.py:61-64): it wins.
  const overridden = await analysisOf('trl grpo --config grpo_config.yaml --num_processes 2\n', { 'grpo_config.yaml': grpoConfig });
  assert.equal(overridden.analysis.context.gpusPerNode?.value, 2);

  const sftConfig = `# sft_config.yaml
model_name_or_path: Qwen/Qwen2.5-0.5B
dataset_name: stanfordnlp/imdb
accelerate_config: zero2  # or path/to/my/accelerate/config.yaml
`;
  const sft = await analysisOf('trl sft --config sft_config.yaml\n', { 'sft_config.yaml': sftConfig });
  assert.equal(sft.hasConfig, true);
  assert.equal(sft.analysis.current.stage, 2);
  assert.equal(sft.analysis.context.gpusPerNode?.value, 8);
  // A python script's arguments file does not launch: the same YAML under `python sft.py --config` keeps one process.
  const python = await analysisOf('python trl/scripts/sft.py --config sft_config.yaml\n', { 'sft_config.yaml': sftConfig });
  assert.equal(python.hasConfig, false);
  assert.equal(python.analysis.context.gpusPerNode?.value, 1);
});

test("`--accelerate_config multi_gpu` / `single_gpu`: the profiles' process counts without DeepSpeed (multi_gpu.yaml's 8; single_gpu.yaml's distributed_type NO runs one)", async () => {
  const run = (profile: string) => analysisOf(`trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name stanfordnlp/imdb --accelerate_config ${profile}\n`);
  const multi = await run('multi_gpu');
  assert.equal(multi.hasConfig, false);
  assert.equal(multi.analysis.context.gpusPerNode?.value, 8);
  const single = await run('single_gpu');
  assert.equal(single.analysis.context.gpusPerNode?.value, 1);
});

/**
 * Which precision runs: every profile TRL ships says mixed_precision bf16 (trl f2cd5771 trl/accelerate_configs/multi_gpu.yaml:8,
 * single_gpu.yaml:8, zero2.yaml:13, fsdp2.yaml:17), which accelerate launch hands the script as ACCELERATE_MIXED_PRECISION
 * (accelerate 16cb6eb8 src/accelerate/utils/launch.py:175, :284, :557). TrainingArguments starts from that variable and
 * replaces it only with a flag that is true (transformers 00349ae8 src/transformers/training_args.py, __post_init__
 * "5. Mixed Precision": `self.mixed_precision = os.environ.get("ACCELERATE_MIXED_PRECISION", "no")`, then fp16, then bf16).
 */
test("`--bf16 false` leaves the profile's or config's mixed_precision bf16; `--fp16` written wins over it", async () => {
  const sft = (args: string, files: Record<string, string> = {}) =>
    analysisOf(`trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name stanfordnlp/imdb ${args}\n`, files);
  const multi = (await sft('--bf16 false --accelerate_config multi_gpu')).analysis.context;
  assert.equal(multi.dtype.value, 'bf16');
  assert.match(describeSource(multi.dtype.source), /multi_gpu/);
  assert.equal((await sft('--bf16 false --accelerate_config fsdp2')).analysis.context.dtype.value, 'bf16');
  assert.equal((await sft('--fp16 --accelerate_config zero2')).analysis.context.dtype.value, 'fp16');
  // A config file of one's own: its mixed_precision the same way.
  const config = 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 2\n';
  const own = (await sft('--bf16 false --accelerate_config configs/ddp.yaml', { 'configs/ddp.yaml': config })).analysis.context;
  assert.equal(own.dtype.value, 'bf16');
  // Without a launcher's mixed precision, --bf16 false is fp32 (TrainingArguments' "no").
  assert.equal((await analysisOf('torchrun --nproc_per_node 2 trl/scripts/sft.py --model_name_or_path Qwen/Qwen2.5-0.5B --bf16 false\n')).analysis.context.dtype.value, 'fp32');
});

/**
 * `--accelerate_config single_gpu --num_processes 8`: TRL passes `--config_file <single_gpu.yaml>` before the rest
 * (trl f2cd5771 trl/cli/accelerate_config.py:47); with a config file accelerate takes multi_gpu from its distributed_type
 * NO unless a distributed flag is written (accelerate 16cb6eb8 src/accelerate/commands/launch.py:1212-1233) and promotes a
 * count above one only without a config file (:1301-1340), so simple_launcher runs one process (:1397-1407).
 */
test('`--accelerate_config single_gpu --num_processes 8` still runs one process; `--multi_gpu` written starts 8', async () => {
  const sft = (args: string) => analysisOf(`trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name stanfordnlp/imdb ${args}\n`);
  assert.equal((await sft('--accelerate_config single_gpu --num_processes 8')).analysis.context.gpusPerNode?.value, 1);
  assert.equal((await sft('--accelerate_config single_gpu --multi_gpu --num_processes 8')).analysis.context.gpusPerNode?.value, 8);
  assert.equal((await sft('--accelerate_config multi_gpu --num_processes 4')).analysis.context.gpusPerNode?.value, 4);
});
