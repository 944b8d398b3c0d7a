/**
 * A ds_config named only through a TRL recipe's `deepspeed:` key (TrainingArguments.deepspeed, transformers 00349ae8
 * src/transformers/training_args.py `# --- DeepSpeed ---`; TrlParser takes it from the YAML, trl f2cd5771
 * trl/scripts/utils.py:359-379): from the config's side, the script that launches it through the recipe gives the
 * training context, as a script that names the config itself does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../server/src/settings';
import { configDocument, estimateFeatures, memoryHosts, shown } from './context-hosts';

// The layout of alignment-handbook (scripts/, recipes/<model>/sft/), with a recipe that names its DeepSpeed config:
// https://github.com/huggingface/alignment-handbook/blob/925acdfe4b2b4e38c3dabd1851bc418f0b656351/recipes/zephyr-7b-beta/sft/config_full.yaml
const recipe = `model_name_or_path: mistralai/Mistral-7B-v0.1
torch_dtype: bfloat16
bf16: true
deepspeed: recipes/ds_z3.json
gradient_checkpointing: true
max_seq_length: 2048
per_device_train_batch_size: 4
`;
const ds = JSON.stringify({ train_micro_batch_size_per_gpu: 'auto', zero_optimization: { stage: 3 }, bf16: { enabled: 'auto' } }, null, 2);
const files = {
  'recipes/ds_z3.json': ds,
  'recipes/zephyr-7b-beta/sft/config_ds.yaml': recipe,
  'train.sh': 'torchrun --nproc_per_node 4 scripts/sft.py --config recipes/zephyr-7b-beta/sft/config_ds.yaml\n',
};

test("a ds_config named by a recipe's deepspeed: key takes its GPU count from the script and its model from the recipe", async () => {
  const { analyzeConfig } = estimateFeatures(memoryHosts(files));
  const { context } = await analyzeConfig(configDocument('recipes/ds_z3.json', ds), withDefaults({}));
  assert.deepEqual(shown(context.gpusPerNode), { value: 4, source: 'train.sh line 1' });
  assert.deepEqual(shown(context.model), { value: 'mistralai/Mistral-7B-v0.1', source: 'config_ds.yaml line 1' });
  assert.equal(context.microBatchSize.value, 4);
});

test('the command line\'s own --deepspeed wins: the recipe\'s config is not launched by that script', async () => {
  const other = { ...files, 'recipes/ds_z2.json': ds, 'train.sh': files['train.sh'].replace('\n', ' --deepspeed recipes/ds_z2.json\n') };
  const { analyzeConfig } = estimateFeatures(memoryHosts(other));
  const { context } = await analyzeConfig(configDocument('recipes/ds_z3.json', ds), withDefaults({}));
  assert.notEqual(context.gpusPerNode?.source.kind, 'script');
  const z2 = await analyzeConfig(configDocument('recipes/ds_z2.json', ds), withDefaults({}));
  assert.deepEqual(shown(z2.context.gpusPerNode), { value: 4, source: 'train.sh line 1' });
});

test('a LLaMA-Factory YAML a script runs is part of that launch: the config sees the script\'s GPU count, not the YAML alone first by path', async () => {
  const yaml = 'model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\nfinetuning_type: full\ndeepspeed: ds.json\n';
  const launch = { 'ds.json': ds, 'a/sft.yaml': yaml, 'train.sh': 'FORCE_TORCHRUN=1 NPROC_PER_NODE=4 llamafactory-cli train a/sft.yaml\n' };
  const { analyzeConfig } = estimateFeatures(memoryHosts(launch));
  const { context } = await analyzeConfig(configDocument('ds.json', ds), withDefaults({}));
  assert.deepEqual(shown(context.gpusPerNode), { value: 4, source: 'train.sh line 1' });
  assert.deepEqual(context.notes, []);
  // Alone (no script runs it), the YAML still stands for its launch.
  const alone = estimateFeatures(memoryHosts({ 'ds.json': ds, 'a/sft.yaml': yaml }));
  assert.equal((await alone.analyzeConfig(configDocument('ds.json', ds), withDefaults({}))).context.model?.value, 'Qwen/Qwen2.5-7B');
});
