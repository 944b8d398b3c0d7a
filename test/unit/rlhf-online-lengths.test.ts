import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-helpers';

/**
 * Online RL (GRPO, PPO) trains on what it generated: each row is the prompt followed by its completion.
 * TRL GRPOTrainer concatenates them before the policy's forward (trl f2cd577 trl/trainer/grpo_trainer.py:2430,
 * `prompt_completion_ids = torch.cat([prompt_ids, completion_ids], dim=1)`) and keeps logits for the completion only
 * (:2433, `logits_to_keep = completion_ids.size(1)`); ms-swift encodes prompt + completion with the template's
 * max_length unset (ms-swift 3602360 swift/rlhf_trainers/grpo_trainer.py:753, `_template_context` in
 * rollout_mixin.py:1722-1738 sets max_length None), so --max_length bounds the prompt only (left-truncated,
 * rlhf_args.py:350-351) and --max_completion_length the completion (default 512, rlhf_args.py:241).
 */
async function estimate(script: string, extra: string[] = [], files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'zl-rlhf-'));
  writeFileSync(join(dir, 'train.sh'), script);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const r = await runCli(['estimate', 'train.sh', '--format', 'json', '--stage', '3', ...extra], dir);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

/** ms-swift examples/train/grpo/internal/moe_full.sh (https://github.com/modelscope/ms-swift), the model swapped for a dense one. */
const moeFull = [
  'NPROC_PER_NODE=8 \\',
  'swift rlhf \\',
  '    --rlhf_type grpo \\',
  '    --model Qwen/Qwen3-8B \\',
  '    --use_vllm true \\',
  '    --vllm_mode colocate \\',
  '    --vllm_gpu_memory_utilization 0.4 \\',
  '    --tuner_type full \\',
  '    --max_length 12000 \\',
  '    --max_completion_length 8192 \\',
  '    --per_device_train_batch_size 1 \\',
  '    --num_generations 16 \\',
  '    --deepspeed zero3_offload \\',
  '    --sleep_level 1 \\',
  '    --beta 0.001',
  '',
].join('\n');

test('ms-swift GRPO trains on --max_length (the prompt) + --max_completion_length tokens, and its logits cover the completion', async () => {
  const j = await estimate(moeFull);
  assert.equal(j.inputs.seqLen.value, 12000 + 8192);
  // Sources: the prompt's line; a note says what the sum is.
  assert.deepEqual(j.inputs.seqLen.source, { kind: 'script', file: j.inputs.seqLen.source.file, line: 9 });
  assert.ok(j.notes.some((n: string) => n.includes('12000 + 8192 = 20192')), j.notes.join('\n'));
  // The rollout's sequences are the same rows, not a completion longer.
  assert.equal(j.inputs.rollout.value.sequenceLength, 12000 + 8192);
  // per_device_train_batch_size counts completions (grpo_config.py:1079): one row per completion, not × num_generations.
  assert.equal(j.inputs.microBatch.value, 1);
  assert.equal(j.inputs.sequencesPerSample.value, 1);
  // TRL asks for logits_to_keep + 1 rows of logits (grpo_trainer.py:1502).
  assert.equal(j.inputs.lossTokens.value, 8193);
});

test('without --max_completion_length ms-swift generates 512 tokens, and the training rows hold them', async () => {
  const j = await estimate(moeFull.replace('    --max_completion_length 8192 \\\n', ''));
  assert.equal(j.inputs.seqLen.value, 12000 + 512);
  assert.equal(j.inputs.rollout.value.sequenceLength, 12000 + 512);
});

test('a GRPO launch that does not bound the prompt: the assumed length plus the completion, said so', async () => {
  const j = await estimate(moeFull.replace('    --max_length 12000 \\\n', ''));
  assert.equal(j.inputs.seqLen.value, 2048 + 8192);
  assert.ok(j.notes.some((n: string) => n.includes('2048 + 8192 = 10240') && n.includes('not stated')), j.notes.join('\n'));
});

test('the CLI: --seq-len is tokens per sample, the whole row, which the rollout no longer lengthens; without it the prompt is assumed', async () => {
  const cli = async (...extra: string[]) => {
    const args = ['estimate', '--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8', '--stage', '3', '--rlhf', 'grpo', '--max-completion-length', '3072', '--format', 'json'];
    const r = await runCli([...args, ...extra], tmpdir());
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out);
  };
  const stated = await cli('--seq-len', '4096');
  assert.equal(stated.inputs.seqLen.value, 4096);
  assert.equal(stated.inputs.rollout.value.sequenceLength, 4096);
  const assumed = await cli();
  assert.equal(assumed.inputs.seqLen.value, 2048 + 3072);
  assert.equal(assumed.inputs.rollout.value.sequenceLength, 2048 + 3072);
});

test('DeepSpeed-Chat step 3 states the whole row already (--max_prompt_seq_len + --max_answer_seq_len): nothing is added twice', async () => {
  // DeepSpeedExamples applications/DeepSpeed-Chat/training/step3_rlhf_finetuning/training_scripts/opt/single_node/run_1.3b.sh, shortened.
  const script = [
    'deepspeed --num_gpus 8 main.py \\',
    '   --actor_model_name_or_path facebook/opt-1.3b --critic_model_name_or_path facebook/opt-350m \\',
    '   --per_device_training_batch_size 4 \\',
    '   --max_answer_seq_len 256 --max_prompt_seq_len 256 \\',
    '   --actor_zero_stage 2 --critic_zero_stage 2',
    '',
  ].join('\n');
  const j = await estimate(script);
  assert.equal(j.inputs.seqLen.value, 512);
  assert.equal(j.inputs.rollout.value.sequenceLength, 512);
});

test('OpenRLHF: --prompt_max_len + --generate_max_len are the rows PPO trains on; --data.max_len is already the whole row', async () => {
  // OpenRLHF examples/scripts/train_ppo_llama.sh (v0.5-era flags, https://github.com/OpenRLHF/OpenRLHF), shortened.
  const old = [
    'deepspeed --num_gpus 8 --module openrlhf.cli.train_ppo \\',
    '   --pretrain OpenRLHF/Llama-3-8b-sft-mixture \\',
    '   --reward_pretrain OpenRLHF/Llama-3-8b-rm-mixture \\',
    '   --critic_pretrain OpenRLHF/Llama-3-8b-rm-mixture \\',
    '   --micro_train_batch_size 8 \\',
    '   --prompt_max_len 1024 \\',
    '   --generate_max_len 1024 \\',
    '   --zero_stage 3',
    '',
  ].join('\n');
  const j = await estimate(old);
  assert.equal(j.inputs.seqLen.value, 2048);
  assert.equal(j.inputs.rollout.value.sequenceLength, 2048);
  // OpenRLHF 3c3be62 openrlhf/cli/train_ppo_ray.py:379, "--data.max_len … Max total sequence length (prompt + response)".
  const current = old.replace('--prompt_max_len 1024', '--data.max_len 3072').replace('--generate_max_len 1024', '--rollout.max_new_tokens 1024');
  const k = await estimate(current);
  assert.equal(k.inputs.seqLen.value, 3072);
  assert.equal(k.inputs.rollout.value.sequenceLength, 3072);
});

test("transformers' generate completes the whole generation batch at once: micro-batch × steps_per_generation (default the accumulation)", async () => {
  // ms-swift examples/train/grpo/internal/transformers.sh (https://github.com/modelscope/ms-swift), shortened. Both
  // trainers load per_device_train_batch_size × steps_per_generation prompts per generation (trl f2cd577
  // grpo_trainer.py:1230; steps_per_generation = gradient_accumulation_steps by default, grpo_config.py:1077-1079,
  // ms-swift 3602360 swift/rlhf_trainers/args_mixin.py:205-207) and generate them in one call (grpo_trainer.py:1861;
  // ms-swift rollout_mixin.py:394, TransformersEngine(max_batch_size=0), no limit: transformers_engine.py:155-157).
  const script = [
    'CUDA_VISIBLE_DEVICES=0 \\',
    'swift rlhf \\',
    '    --rlhf_type grpo \\',
    '    --model Qwen/Qwen2.5-7B \\',
    '    --tuner_type lora \\',
    '    --max_completion_length 1024 \\',
    '    --per_device_train_batch_size 4 \\',
    '    --gradient_accumulation_steps 4 \\',
    '    --max_length 2048 \\',
    '    --deepspeed zero2 \\',
    '    --num_generations 4',
    '',
  ].join('\n');
  const j = await estimate(script);
  assert.equal(j.inputs.rollout.value.engine, 'generate');
  assert.equal(j.inputs.rollout.value.sequences, 16);
  assert.equal(j.inputs.rollout.value.sequenceLength, 3072);
  const k = await estimate(script.replace('--num_generations 4', '--num_generations 4 \\\n    --steps_per_generation 2'));
  assert.equal(k.inputs.rollout.value.sequences, 8);
  // vLLM keeps its own pool and batches itself: the micro-batch stays what the rollout is counted by.
  const vllm = await estimate(script.replace('--num_generations 4', '--num_generations 4 \\\n    --use_vllm true'));
  assert.equal(vllm.inputs.rollout.value.sequences, 4);
});

test("TRL's PPO trains on query + response: --response_length is the completion", async () => {
  // trl examples/scripts/ppo/ppo_tldr.py's second command (https://github.com/huggingface/trl), shortened, with a
  // DeepSpeed config of its own. PPOConfig.response_length (trl f2cd577 trl/experimental/ppo/ppo_config.py:151-154)
  // is generate's max_new_tokens (ppo_trainer.py:621); the policy's forward runs over query_responses (:815).
  const script = [
    'accelerate launch --num_processes 8 examples/scripts/ppo/ppo_tldr.py \\',
    '    --deepspeed ds_config.json \\',
    '    --per_device_train_batch_size 16 \\',
    '    --gradient_accumulation_steps 4 \\',
    '    --model_name_or_path EleutherAI/pythia-1b-deduped \\',
    '    --reward_model_path EleutherAI/pythia-1b-deduped \\',
    '    --response_length 53',
    '',
  ].join('\n');
  const j = await estimate(script, [], { 'ds_config.json': '{ "zero_optimization": { "stage": 3 } }' });
  assert.equal(j.inputs.seqLen.value, 2048 + 53);
  assert.ok(j.notes.some((n: string) => n.includes('2048 + 53 = 2101') && n.includes('not stated')), j.notes.join('\n'));
});

test('an ms-swift YAML of GRPO: max_length is the prompt there too', async () => {
  const yaml = 'rlhf_type: grpo\nmodel: Qwen/Qwen3-8B\ntuner_type: full\nmax_length: 1024\nmax_completion_length: 2048\ndeepspeed: zero3\n';
  const j = await estimate('NPROC_PER_NODE=8 swift rlhf grpo.yaml\n', [], { 'grpo.yaml': yaml });
  assert.equal(j.inputs.seqLen.value, 1024 + 2048);
  assert.equal(j.inputs.rollout.value.sequenceLength, 1024 + 2048);
});

// vLLM stops a sequence once prompt + output reach max_model_len (vllm 6110ea29 vllm/v1/core/sched/utils.py:12-15,
// check_stop), and ms-swift builds the colocated engine with max_model_len=args.vllm_max_model_len (3602360a
// swift/rlhf_trainers/rollout_mixin.py:518; megatron/trainers/rollout_mixin.py:495). vLLM's share of the card stays
// gpu_memory_utilization whatever the length: the KV cache fills it.
test('--vllm_max_model_len caps a colocated rollout row: the completion is counted up to it', async () => {
  const capped = await estimate(moeFull.replace('    --max_length 12000 \\', '    --vllm_max_model_len 16384 \\\n    --max_length 12000 \\'));
  assert.equal(capped.inputs.seqLen.value, 16384);
  assert.equal(capped.inputs.rollout.value.sequenceLength, 16384);
  assert.equal(capped.inputs.lossTokens.value, 16384 - 12000 + 1);
  assert.ok(capped.notes.some((n: string) => n.includes('--vllm_max_model_len 16384') && n.includes('4384')), capped.notes.join('\n'));
  // ms-swift examples/megatron/grpo/dense_colocate.sh: --max_length 8192 + --max_completion_length 2048 = --vllm_max_model_len 10240, nothing capped.
  const fits = await estimate(moeFull.replace('    --max_length 12000 \\', '    --vllm_max_model_len 20192 \\\n    --max_length 12000 \\'));
  assert.equal(fits.inputs.seqLen.value, 20192);
  assert.ok(!fits.notes.some((n: string) => n.includes('--vllm_max_model_len')));
  // An external vLLM server takes its own length (rlhf_args.py:703-707 warns that the flag is ignored there).
  const server = await estimate(moeFull.replace('--vllm_mode colocate', '--vllm_mode server').replace('    --max_length 12000 \\', '    --vllm_max_model_len 16384 \\\n    --max_length 12000 \\'));
  assert.equal(server.inputs.seqLen.value, 20192);
});

// TRL's name for the same cap: GRPOConfig.vllm_max_model_length (trl f2cd5771 trl/trainer/grpo_config.py:654-660, since
// v0.26.0, ca21dd94), which the colocated engine is built with (grpo_trainer.py:1090 → trl/generation/vllm_generation.py:355,
// `max_model_len=self.max_model_length` in the colocate branch). trl v0.26–v0.27 also had --max_prompt_length.
test("TRL's --vllm_max_model_length caps a colocated GRPO rollout as ms-swift's --vllm_max_model_len does (flag and recipe key)", async () => {
  const script = (cap: string) =>
    `accelerate launch --num_processes 8 trl/scripts/grpo.py --model_name_or_path Qwen/Qwen3-8B --use_vllm --vllm_mode colocate --max_prompt_length 512 --max_completion_length 2048 ${cap}--deepspeed ds.json\n`;
  const files = { 'ds.json': '{ "zero_optimization": { "stage": 3 } }' };
  const capped = await estimate(script('--vllm_max_model_length 1536 '), [], files);
  assert.equal(capped.inputs.seqLen.value, 1536);
  assert.ok(capped.notes.some((n: string) => n.includes('--vllm_max_model_length 1536') && n.includes('1024')), capped.notes.join('\n'));
  // The same key in the recipe `--config` reads (TrlParser, trl/scripts/utils.py).
  const recipe = await estimate(script('--config grpo.yaml '), [], { ...files, 'grpo.yaml': 'model_name_or_path: Qwen/Qwen3-8B\nvllm_max_model_length: 1536\n' });
  assert.equal(recipe.inputs.seqLen.value, 1536);
  // An external vLLM server sizes itself (grpo_config.py:158-160: colocate only).
  const server = await estimate(script('--vllm_max_model_length 1536 ').replace('colocate', 'server'), [], files);
  assert.equal(server.inputs.seqLen.value, 512 + 2048);
});
