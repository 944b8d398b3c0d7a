/**
 * TRL recipes: the training arguments live in a YAML the script's parser reads (TrlParser `--config x.yaml`,
 * alignment-handbook's H4ArgumentParser `script.py x.yaml`), with the command line over it
 * (huggingface/trl f2cd5771 trl/scripts/utils.py:303-338; alignment-handbook 19f03455^ src/alignment/configs.py:51-64,
 * :91-98). Excerpts of the real recipes, each with its URL; each test failed before the change (the recipe unread).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { withDefaults } from '../../server/src/settings';
import { describeSource } from '../../server/src/protocol';
import { estimateFeatures, memoryHosts, scriptDocument, shown } from './context-hosts';
import { runCli } from './cli-helpers';
import { zero3 } from './trl-fixtures';

// https://github.com/huggingface/alignment-handbook/blob/925acdfe4b2b4e38c3dabd1851bc418f0b656351/recipes/zephyr-7b-beta/sft/config_full.yaml
// (the dataset mixture and the chat template left out)
const sftFull = `# Model arguments
model_name_or_path: mistralai/Mistral-7B-v0.1
model_revision: main
torch_dtype: bfloat16
attn_implementation: flash_attention_2

# SFT trainer config
bf16: true
do_eval: true
eval_strategy: epoch
gradient_accumulation_steps: 1
gradient_checkpointing: true
gradient_checkpointing_kwargs:
  use_reentrant: False
hub_model_id: zephyr-7b-sft-full
learning_rate: 2.0e-05
lr_scheduler_type: cosine
max_seq_length: 2048
max_steps: -1
num_train_epochs: 1
output_dir: data/zephyr-7b-sft-full
per_device_eval_batch_size: 8
per_device_train_batch_size: 16
warmup_ratio: 0.1
`;

// https://github.com/huggingface/alignment-handbook/blob/925acdfe4b2b4e38c3dabd1851bc418f0b656351/recipes/zephyr-7b-beta/sft/config_qlora.yaml
// (the same, with its LoRA arguments)
const sftQlora = `model_name_or_path: mistralai/Mistral-7B-v0.1
torch_dtype: bfloat16
attn_implementation: flash_attention_2

# LoRA arguments
load_in_4bit: true
use_peft: true
lora_r: 16
lora_alpha: 16
lora_dropout: 0.05
lora_target_modules:
- q_proj
- k_proj
- v_proj
- o_proj
- gate_proj
- up_proj
- down_proj

bf16: true
gradient_accumulation_steps: 2
gradient_checkpointing: true
max_seq_length: 2048
per_device_train_batch_size: 4
`;

// https://github.com/huggingface/alignment-handbook/blob/925acdfe4b2b4e38c3dabd1851bc418f0b656351/recipes/zephyr-7b-beta/README.md (lines 18, 40)
const fullLaunch = 'ACCELERATE_LOG_LEVEL=info accelerate launch --config_file recipes/accelerate_configs/zero3.yaml scripts/sft.py --config recipes/zephyr-7b-beta/sft/config_full.yaml\n';
const qloraLaunch =
  'ACCELERATE_LOG_LEVEL=info accelerate launch --config_file recipes/accelerate_configs/zero3.yaml scripts/sft.py recipes/zephyr-7b-beta/sft/config_qlora.yaml --load_in_4bit=true --per_device_train_batch_size=2\n';

const files = { 'recipes/accelerate_configs/zero3.yaml': zero3, 'recipes/zephyr-7b-beta/sft/config_full.yaml': sftFull, 'recipes/zephyr-7b-beta/sft/config_qlora.yaml': sftQlora };

async function analysisOf(text: string, more: Record<string, string> = {}) {
  const { analyses } = estimateFeatures(memoryHosts({ ...files, ...more, 'train.sh': text }));
  return analyses.training.analyzeDocument(scriptDocument('train.sh', text), 'launch-script', withDefaults({}));
}

test("alignment-handbook's `scripts/sft.py --config recipe.yaml` under accelerate's zero3.yaml: model, batch, sequence, checkpointing and dtype from the recipe", async () => {
  const { analysis, hasConfig } = await analysisOf(fullLaunch);
  assert.equal(hasConfig, true);
  assert.equal(analysis.current.stage, 3);
  const c = analysis.context;
  const recipe = 'config_full.yaml';
  assert.deepEqual(shown(c.model!), { value: 'mistralai/Mistral-7B-v0.1', source: `${recipe} line 2` });
  assert.deepEqual(shown(c.microBatchSize), { value: 16, source: `${recipe} line 23` });
  assert.deepEqual(shown(c.gradientAccumulationSteps), { value: 1, source: `${recipe} line 11` });
  assert.deepEqual(shown(c.sequenceLength), { value: 2048, source: `${recipe} line 18` });
  assert.deepEqual(shown(c.gradientCheckpointing), { value: true, source: `${recipe} line 12` });
  assert.equal(c.dtype.value, 'bf16');
  assert.equal(c.gpusPerNode?.value, 8);
  assert.equal(c.lora, undefined);
});

test('a positional recipe (H4ArgumentParser) with use_peft, lora_r, lora_target_modules; `--key=value` on the command line overrides the recipe', async () => {
  const { analysis } = await analysisOf(qloraLaunch);
  const c = analysis.context;
  const recipe = 'config_qlora.yaml';
  assert.deepEqual(c.lora?.value, { rank: 16, quantBits: 4, dropout: 0.05, targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] });
  assert.match(describeSource(c.lora!.source), new RegExp(`${recipe} line 8`));
  assert.deepEqual(shown(c.microBatchSize), { value: 2, source: 'train.sh line 1' });
  assert.deepEqual(shown(c.gradientAccumulationSteps), { value: 2, source: `${recipe} line 21` });
});

test('zero-lens estimate on the recipe launch shows the recipe as the source of the model and batch', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-trl-recipe-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  writeFileSync(path.join(dir, 'train.sh'), fullLaunch);
  const r = await runCli(['estimate', 'train.sh'], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Mistral-7B-v0\.1/);
  assert.match(r.out, /micro-batch 16/);
  assert.match(r.out, /sequence 2048/);
});

test("a recipe's gradient_checkpointing: false stays false (LLaMA-Factory's loader, which ignores it, does not read a TRL recipe)", async () => {
  const { analysis } = await analysisOf(fullLaunch.replace('config_full.yaml', 'config_nogc.yaml'), { 'recipes/zephyr-7b-beta/sft/config_nogc.yaml': sftFull.replace('gradient_checkpointing: true', 'gradient_checkpointing: false') });
  assert.deepEqual(shown(analysis.context.gradientCheckpointing), { value: false, source: 'config_nogc.yaml line 12' });
});

test('`--use_peft false` on the command line wins over the recipe\'s use_peft: true (TrlParser: the command line over the YAML\'s defaults)', async () => {
  // trl f2cd5771 trl/scripts/utils.py:337-343: the YAML's values become the parser's defaults, then argv is parsed.
  const trlParser = fullLaunch.replace('config_full.yaml', 'config_qlora.yaml').replace('\n', ' --use_peft false\n');
  // H4ArgumentParser reads `--key=value` after the recipe (alignment-handbook 19f03455^ src/alignment/configs.py:91-98).
  const h4 = qloraLaunch.replace('--load_in_4bit=true', '--use_peft=False');
  for (const launch of [trlParser, h4]) {
    const { analysis } = await analysisOf(launch);
    assert.equal(analysis.context.lora, undefined, launch);
  }
  // And a recipe's own use_peft: true still turns LoRA on when the command line says nothing.
  const { analysis } = await analysisOf(qloraLaunch);
  assert.equal(analysis.context.lora?.value.rank, 16);
});

test("a recipe's deepspeed: key is TrainingArguments.deepspeed (TrlParser sets it as the default): the launch trains with that config, and --deepspeed on the command line wins", async () => {
  // transformers 00349ae8 src/transformers/training_args.py: `deepspeed` is a TrainingArguments field (# --- DeepSpeed ---),
  // so TrlParser's set_defaults_with_config takes the YAML's value (trl f2cd5771 trl/scripts/utils.py:359-379).
  const recipe = sftFull.replace('bf16: true', 'bf16: true\ndeepspeed: ds_z3.json');
  const ds = (stage: number) => JSON.stringify({ train_micro_batch_size_per_gpu: 'auto', zero_optimization: { stage }, bf16: { enabled: 'auto' } });
  const launch = 'torchrun --nproc_per_node 8 scripts/sft.py --config recipes/zephyr-7b-beta/sft/config_ds.yaml\n';
  const more = { 'recipes/zephyr-7b-beta/sft/config_ds.yaml': recipe, 'ds_z3.json': ds(3), 'ds_z2.json': ds(2) };
  const fromRecipe = await analysisOf(launch, more);
  assert.equal(fromRecipe.hasConfig, true);
  assert.equal(fromRecipe.analysis.current.stage, 3);
  assert.equal(fromRecipe.analysis.context.microBatchSize.value, 16);
  const overridden = await analysisOf(launch.replace('\n', ' --deepspeed ds_z2.json\n'), more);
  assert.equal(overridden.analysis.current.stage, 2);
});
