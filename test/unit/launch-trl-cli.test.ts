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
