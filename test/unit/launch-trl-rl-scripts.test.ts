/**
 * TRL's own RL scripts read as TRL runs them: the script names the trainer (trl/scripts/grpo.py builds a GRPOTrainer,
 * rloo.py an RLOOTrainer, dpo.py a DPOTrainer; huggingface/trl f2cd5771 trl/scripts/grpo.py:134-141,
 * trl/scripts/dpo.py:96), whatever models the command names. GRPO loads a reference model only when beta != 0, and
 * GRPOConfig's beta defaults to 0.0 (trl f2cd5771 trl/trainer/grpo_config.py:671-677, grpo_trainer.py:954-971; since
 * v0.19, trl 7359ddcc); RLOO's defaults to 0.05 (rloo_config.py:494-500, rloo_trainer.py:592-609). Reward functions
 * load no model; --reward_model_name_or_path loads one (grpo.py:91-92, grpo_trainer.py:518). Excerpts of the real
 * commands, each with its URL; each test failed before the change (no RL read: no reference, no rollout).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../server/src/settings';
import { describeSource } from '../../server/src/protocol';
import * as path from 'node:path';
import { estimateFeatures, memoryHosts, scriptDocument, workspaceRoot } from './context-hosts';
import { zero3 } from './trl-fixtures';

async function contextOf(text: string, files: Record<string, string> = {}) {
  const { analyses } = estimateFeatures(memoryHosts({ ...files, 'train.sh': text }));
  const { analysis } = await analyses.training.analyzeDocument(scriptDocument('train.sh', text), 'launch-script', withDefaults({ gpusPerNode: 8 }));
  return analysis;
}

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/docs/source/clis.md (GRPO, lines 60-64),
// run as the script under accelerate with the repository's ZeRO-3 config (examples/scripts/rloo.py:30's launch).
const grpoFuncs = `accelerate launch --config_file examples/accelerate_configs/deepspeed_zero3.yaml trl/scripts/grpo.py \\
  --model_name_or_path Qwen/Qwen2.5-0.5B \\
  --dataset_name HuggingFaceH4/Polaris-Dataset-53K \\
  --reward_funcs accuracy_reward
`;

// examples/accelerate_configs/deepspeed_zero3.yaml, the same text as alignment-handbook's (trl-fixtures.ts).
const accelerateFiles = { 'examples/accelerate_configs/deepspeed_zero3.yaml': zero3 };

test("trl/scripts/grpo.py with reward functions only: GRPO, no reward model, and no reference model (TRL's beta 0), said in the sources", async () => {
  const analysis = await contextOf(grpoFuncs, accelerateFiles);
  const rlhf = analysis.context.workload.rlhf;
  assert.equal(rlhf?.value.type, 'grpo');
  assert.equal(rlhf?.value.referenceModel, undefined);
  assert.equal(rlhf?.value.rewardModel, undefined);
  assert.equal(rlhf?.value.rollout?.engine, 'generate');
  assert.match(describeSource(rlhf!.source), /grpo\.py/);
  assert.ok(analysis.notes.some((n) => /no reference model/i.test(n) && /beta/.test(n)), analysis.notes.join('\n'));
  const result = analysis.estimate(analysis.current);
  assert.equal(result?.perGpu.extraModels, 0);
});

test('trl/scripts/grpo.py --beta 0.04: a frozen reference copy of the model', async () => {
  const analysis = await contextOf(grpoFuncs.replace('--reward_funcs accuracy_reward', '--reward_funcs accuracy_reward --beta 0.04'), accelerateFiles);
  assert.equal(analysis.context.workload.rlhf?.value.type, 'grpo');
  assert.equal(analysis.context.workload.rlhf?.value.referenceModel, 'Qwen/Qwen2.5-0.5B');
});

// GRPOConfig's beta was 0.04 until v0.19 (trl 7359ddcc, grpo_config.py:390-391; v0.18.2 has 0.04 there): a workspace
// that pins an older trl loads the reference model where the command leaves --beta out.
test('GRPO without --beta under a pinned trl before 0.19: beta 0.04 and a reference model, said with the pin', async () => {
  for (const [file, pin] of [['requirements.txt', 'torch\ntrl==0.18.2\n'], ['pyproject.toml', '[project]\ndependencies = ["trl[vllm]==0.17.0"]\n'], ['uv.lock', '[[package]]\nname = "trl"\nversion = "0.18.1"\n']] as const) {
    const analysis = await contextOf(grpoFuncs, { ...accelerateFiles, [file]: pin });
    const rlhf = analysis.context.workload.rlhf?.value;
    assert.equal(rlhf?.beta, 0.04, file);
    assert.equal(rlhf?.referenceModel, 'Qwen/Qwen2.5-0.5B', file);
    const note = analysis.notes.find((n) => /reference model/i.test(n));
    assert.match(String(note), new RegExp(`^Reference model loaded: beta is 0\\.04 \\(TRL 0\\.1[78]\\.[0-9]'s default, per ${file.replace('.', '\\.')}`), analysis.notes.join('\n'));
  }
});

test('GRPO without --beta: trl 0.19 on, a range or no pin keep beta 0 and the note; a written --beta wins over the pin', async () => {
  for (const pin of ['trl==0.19.0\n', 'trl==0.21.0\n', 'trl>=0.14\n', 'deepspeed==0.16.4\n']) {
    const analysis = await contextOf(grpoFuncs, { ...accelerateFiles, 'requirements.txt': pin });
    assert.equal(analysis.context.workload.rlhf?.value.beta, 0, pin);
    assert.equal(analysis.context.workload.rlhf?.value.referenceModel, undefined, pin);
    assert.ok(analysis.notes.some((n) => /^No reference model: beta is 0/.test(n)), analysis.notes.join('\n'));
  }
  const written = await contextOf(grpoFuncs.replace('--reward_funcs accuracy_reward', '--reward_funcs accuracy_reward --beta 0.0'), { ...accelerateFiles, 'requirements.txt': 'trl==0.18.2\n' });
  assert.equal(written.context.workload.rlhf?.value.beta, 0);
  assert.equal(written.context.workload.rlhf?.value.referenceModel, undefined);
});

test('an installed trl in .venv counts as a pin, and a changed pin reaches the launch script', async () => {
  const hosts = memoryHosts({ ...accelerateFiles, 'train.sh': grpoFuncs });
  const listings: Record<string, string[]> = { '.venv/lib': ['python3.11'], '.venv/lib/python3.11/site-packages': ['torch-2.4.0.dist-info', 'trl-0.18.2.dist-info'] };
  hosts.fs.listDir = async (dir) => listings[path.relative(workspaceRoot, dir).split(path.sep).join('/')];
  const { analyses } = estimateFeatures(hosts);
  const analyze = async () => (await analyses.training.analyzeDocument(scriptDocument('train.sh', grpoFuncs), 'launch-script', withDefaults({ gpusPerNode: 8 }))).analysis;
  assert.equal((await analyze()).context.workload.rlhf?.value.beta, 0.04);
  hosts.write('requirements.txt', 'trl==0.19.1\n');
  assert.ok(analyses.training.filesChanged([path.join(workspaceRoot, 'requirements.txt')]).length > 0, 'the script read the pin files');
  assert.equal((await analyze()).context.workload.rlhf?.value.beta, 0);
});

test("GRPO's --reward_model_name_or_path is a reward model, not PPO", async () => {
  const analysis = await contextOf(grpoFuncs.replace('--reward_funcs accuracy_reward', '--reward_model_name_or_path Qwen/Qwen2.5-0.5B'), accelerateFiles);
  const rlhf = analysis.context.workload.rlhf?.value;
  assert.equal(rlhf?.type, 'grpo');
  assert.equal(rlhf?.rewardModel, 'Qwen/Qwen2.5-0.5B');
  assert.equal(rlhf?.valueModel, undefined);
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/examples/scripts/rloo.py (lines 35-36)
test('`python -m trl.scripts.rloo` with a reward model: RLOO keeps a reference copy (beta 0.05) and the reward model, and generates', async () => {
  const analysis = await contextOf('python -m trl.scripts.rloo --dataset_name trl-lib/tldr --reward_model_name_or_path Qwen/Qwen2.5-0.5B-Reward --model_name_or_path Qwen/Qwen2.5-0.5B\n');
  const rlhf = analysis.context.workload.rlhf?.value;
  assert.equal(rlhf?.type, 'rloo');
  assert.equal(rlhf?.referenceModel, 'Qwen/Qwen2.5-0.5B');
  assert.equal(rlhf?.rewardModel, 'Qwen/Qwen2.5-0.5B-Reward');
  assert.equal(rlhf?.rollout?.engine, 'generate');
  assert.equal(analysis.context.gpusPerNode?.value, 1);
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/docs/source/peft_integration.md (lines 239-248, 294-302)
test('trl/scripts/dpo.py and grpo.py with --use_peft: DPO and GRPO on adapters, without a reference copy', async () => {
  const dpo = await contextOf(`python trl/scripts/dpo.py \\
    --model_name_or_path Qwen/Qwen2-0.5B-Instruct \\
    --dataset_name trl-lib/ultrafeedback_binarized \\
    --learning_rate 5.0e-6 \\
    --per_device_train_batch_size 2 \\
    --gradient_accumulation_steps 8 \\
    --use_peft \\
    --lora_r 32 \\
    --lora_alpha 16 \\
    --output_dir Qwen2-0.5B-DPO-LoRA
`);
  assert.equal(dpo.context.workload.rlhf?.value.type, 'dpo');
  assert.equal(dpo.context.workload.rlhf?.value.referenceModel, undefined);
  assert.equal(dpo.context.lora?.value.rank, 32);
  const grpo = await contextOf(`python trl/scripts/grpo.py \\
    --model_name_or_path Qwen/Qwen2-0.5B \\
    --dataset_name trl-lib/math-reasoning \\
    --learning_rate 1.0e-5 \\
    --per_device_train_batch_size 2 \\
    --use_peft \\
    --lora_r 32 \\
    --lora_alpha 16 \\
    --output_dir Qwen2-0.5B-GRPO-LoRA
`);
  assert.equal(grpo.context.workload.rlhf?.value.type, 'grpo');
  assert.equal(grpo.context.lora?.value.rank, 32);
});

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/trl/scripts/dpo.py (lines 27-38)
test('trl/scripts/dpo.py full fine-tuning: preference pairs against a frozen copy of the model', async () => {
  const analysis = await contextOf(`python trl/scripts/dpo.py \\
    --dataset_name trl-lib/ultrafeedback_binarized \\
    --model_name_or_path Qwen/Qwen2-0.5B-Instruct \\
    --learning_rate 5.0e-7 \\
    --num_train_epochs 1 \\
    --per_device_train_batch_size 2 \\
    --max_steps 1000 \\
    --gradient_accumulation_steps 8 \\
    --eval_strategy steps \\
    --eval_steps 50 \\
    --output_dir Qwen2-0.5B-DPO \\
    --no_remove_unused_columns
`);
  assert.equal(analysis.context.workload.rlhf?.value.type, 'dpo');
  assert.equal(analysis.context.workload.rlhf?.value.referenceModel, 'Qwen/Qwen2-0.5B-Instruct');
});

test('a script whose name only contains the letters (grpotools.py, train.py) is not read as RL', async () => {
  for (const name of ['grpotools.py', 'train.py']) {
    const analysis = await contextOf(`python ${name} --model_name_or_path Qwen/Qwen2-0.5B --deepspeed ds.json --per_device_train_batch_size 2\n`);
    assert.equal(analysis.context.workload.rlhf, undefined, name);
  }
});
