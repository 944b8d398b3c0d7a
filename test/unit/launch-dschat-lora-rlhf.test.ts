/**
 * DeepSpeed-Chat's LoRA and step 3 (microsoft/DeepSpeedExamples 83757d9c, applications/DeepSpeed-Chat): what the run
 * trains and holds, read from main.py's flags (server/src/launch/launchers/deepspeedChat.ts). Excerpts of the real
 * scripts, each with its URL; each test failed before the change (LoRA unread: full fine-tuning; step 3: no config).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { withDefaults } from '../../server/src/settings';
import { describeSource } from '../../server/src/protocol';
import { estimateFeatures, memoryHosts, scriptDocument } from './context-hosts';
import { runCli } from './cli-helpers';

async function analysisOf(name: string, text: string, gpusPerNode = 8) {
  const { analyses } = estimateFeatures(memoryHosts({ [name]: text }));
  const { analysis } = await analyses.training.analyzeDocument(scriptDocument(name, text), 'launch-script', withDefaults({ gpusPerNode }));
  const result = analysis.estimate(analysis.current);
  assert.ok(result, 'an estimate');
  return { analysis, result };
}

// https://github.com/microsoft/DeepSpeedExamples/blob/f8e25c5d96b81d9f8c6456d944b17e242087c907/applications/DeepSpeed-Chat/training/step1_supervised_finetuning/training_scripts/llama2/run_llama2_7b_lora.sh
// (its ZERO_STAGE=$2 default 3 written as the value)
const llamaLora = `deepspeed main.py \\
   --data_path Dahoas/rm-static Dahoas/full-hh-rlhf Dahoas/synthetic-instruct-gptj-pairwise yitingxie/rlhf-reward-datasets \\
   --data_split 2,4,4 \\
   --model_name_or_path meta-llama/Llama-2-7b-hf \\
   --per_device_train_batch_size 4 \\
   --per_device_eval_batch_size 4 \\
   --max_seq_len 512 \\
   --learning_rate 9.65e-6 \\
   --weight_decay 0. \\
   --num_train_epochs 4  \\
   --gradient_accumulation_steps 1 \\
   --lr_scheduler_type cosine \\
   --num_warmup_steps 0 \\
   --seed 1234 \\
   --gradient_checkpointing \\
   --zero_stage 3 \\
   --deepspeed \\
   --lora_dim 128 \\
   --lora_module_name "layers." \\
   --output_dir $OUTPUT \\
   &> $OUTPUT/training.log
`;

// Llama-2-7B: 32 layers, hidden 4096, MLP 11008, vocabulary 32000, untied head.
const llamaLinear = 32 * (4 * 4096 * 4096 + 3 * 4096 * 11008);
const llamaAdapters = 32 * 128 * (4 * (4096 + 4096) + 3 * (4096 + 11008));

test('DeepSpeed-Chat step1 --lora_dim 128 --lora_module_name "layers." without --only_optimize_lora: adapters on every block linear, and everything but those linears trains too', async () => {
  const { analysis, result } = await analysisOf('run_llama2_7b_lora.sh', llamaLora);
  assert.deepEqual(analysis.context.lora?.value, { rank: 128, targetModules: ['all-linear'], baseTrains: true, quantBits: undefined });
  assert.match(describeSource(analysis.context.lora!.source), /run_llama2_7b_lora\.sh line 18/);
  const total = result.params.total - llamaAdapters;
  assert.equal(result.params.trainable, llamaAdapters + total - llamaLinear, 'adapters + embeddings, head and norms');
  // Not full fine-tuning, not adapters alone.
  assert.ok(result.params.trainable > llamaAdapters + 2 * 32000 * 4096 && result.params.trainable < total / 10, `${result.params.trainable} of ${total}`);
});

test('the same script with --only_optimize_lora trains the adapters alone (lora.py only_optimize_lora_parameters)', async () => {
  const { analysis, result } = await analysisOf('run_llama2_7b_lora.sh', llamaLora.replace('--deepspeed \\\n', '--deepspeed \\\n   --only_optimize_lora \\\n'));
  assert.equal(analysis.context.lora?.value.baseTrains, undefined);
  assert.equal(result.params.trainable, llamaAdapters);
});

test('a scope ZeRO Lens cannot map (OPT\'s default "decoder.layers." on a Llama model) counts the whole base as trained, never fewer weights', async () => {
  const { analysis, result } = await analysisOf('run_llama2_7b_lora.sh', llamaLora.replace('   --lora_module_name "layers." \\\n', ''));
  assert.deepEqual(analysis.context.lora?.value.targetModules, []);
  assert.equal(result.params.trainable, result.params.total, 'nothing known to be frozen');
});

// https://github.com/microsoft/DeepSpeedExamples/blob/4bf1924b80d395e86c0b7d654ec61b6f8d4477af/applications/DeepSpeed-Chat/training/step3_rlhf_finetuning/training_scripts/llama2/run_llama2_7b_lora.sh
// is the corpus's run_llama2_7b_mixz.sh (test/corpus/manifest.json gives its URL) with --enable_hybrid_engine for
// --enable_mixed_precision_lora and --actor_dropout 0.0 for --disable_actor_dropout; the models its $1 and $2 take
// (the step 1 and step 2 outputs) written as Llama-2-7B, its stages as their default 3.
const mixz = readFileSync(path.join(__dirname, '..', 'corpus', 'files', 'microsoft__DeepSpeedExamples', 'applications', 'DeepSpeed-Chat', 'examples', 'training', 'step3_rlhf_finetuning', 'training_scripts', 'llama2', 'run_llama2_7b_mixz.sh'), 'utf8');
const step3 = mixz
  .replace('ACTOR_MODEL_PATH=$1', 'ACTOR_MODEL_PATH=meta-llama/Llama-2-7b-hf')
  .replace('CRITIC_MODEL_PATH=$2', 'CRITIC_MODEL_PATH=meta-llama/Llama-2-7b-hf')
  .replace('--enable_mixed_precision_lora', '--enable_hybrid_engine')
  .replace('--disable_actor_dropout', '--actor_dropout 0.0');

test('DeepSpeed-Chat step 3: the actor\'s config from --actor_zero_stage, a reference copy of the actor, a trained critic and a reward model from the critic\'s path', async () => {
  const { analysis, result } = await analysisOf('run_llama2_7b_lora.sh', step3);
  assert.equal(analysis.current.stage, 3);
  assert.match(describeSource(analysis.inputSources.stage), /--actor_zero_stage 3 \(DeepSpeed-Chat builds the config\)/);
  assert.equal(analysis.context.model?.value, 'meta-llama/Llama-2-7b-hf');
  assert.equal(analysis.context.microBatchSize.value, 1);
  assert.equal(analysis.context.sequenceLength.value, 512, 'prompt + answer');
  assert.equal(analysis.context.gradientCheckpointing.value, true);
  assert.equal(analysis.context.lora?.value.rank, 64);
  const rlhf = analysis.context.workload.rlhf?.value;
  assert.equal(rlhf?.type, 'ppo');
  assert.equal(rlhf?.referenceModel, 'meta-llama/Llama-2-7b-hf');
  assert.equal(rlhf?.rewardModel, 'meta-llama/Llama-2-7b-hf');
  assert.equal(rlhf?.valueModel, 'meta-llama/Llama-2-7b-hf');
  assert.deepEqual(rlhf?.placement, { reference: { offloaded: true }, reward: { sharded: true, offloaded: false } });
  assert.equal(rlhf?.rollout?.completionLength, 256);
  // The reference is offloaded (--offload_reference_model at ZeRO-3): the reward model's 1/8 16-bit share stays.
  const llama = 6_738_415_616;
  assert.equal(result.perGpu.extraModels > 0, true);
  assert.ok(Math.abs(result.perGpu.extraModels - (llama * 2) / 8) < llama * 0.02, `reward share ${result.perGpu.extraModels}`);
  assert.ok(analysis.notes.some((n) => /hybrid engine/.test(n)), 'the hybrid engine is named as not counted');
  // The critic trains: its parameters count among the trained ones.
  assert.ok(result.params.total > 2 * llama * 0.99);
});

test('step 3 at --actor_zero_stage 2, --critic_zero_stage 0: the reference whole on every GPU (stage 0, rlhf_engine.py:138-141), the critic trained apart at its own stage 0', async () => {
  const { analysis, result } = await analysisOf('run_llama2_7b_lora.sh', step3.replace('ACTOR_ZERO_STAGE=3', 'ACTOR_ZERO_STAGE=2').replace('CRITIC_ZERO_STAGE=3', 'CRITIC_ZERO_STAGE=0'));
  assert.equal(analysis.current.stage, 2);
  const llama = 6_738_415_616;
  // reference and reward whole in 16-bit (2 + 2 bytes), the critic's 16-bit weights and gradients and its 16 bytes of
  // fp32 master, moments and gradient, none of it partitioned at stage 0.
  assert.ok(Math.abs(result.perGpu.extraModels - llama * (2 + 2 + 2 + 2 + 16)) < llama * 0.05, `${result.perGpu.extraModels}`);
  assert.ok(analysis.notes.some((n) => /critic runs ZeRO-0, the actor ZeRO-2: the critic's weights, gradients and optimizer states are counted at ZeRO-0/.test(n)));
  // At ZeRO-0, the critic's own stage, it joins the actor's optimizer as before.
  const zero0 = analysis.estimate({ stage: 0, offloadOptimizer: 'none', offloadParam: 'none' })!;
  assert.ok(zero0.perGpu.extraModels < llama * 5);
  assert.ok(zero0.params.total > 2 * llama * 0.99);
});

test('zero-lens estimate on the step 3 script names the actor config and counts the extra models', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-dschat3-'));
  writeFileSync(path.join(dir, 'run_llama2_7b_lora.sh'), step3);
  const r = await runCli(['estimate', 'run_llama2_7b_lora.sh', '--gpus-per-node', '8'], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /DeepSpeed config: --actor_zero_stage 3 \(DeepSpeed-Chat builds the config\)/);
  assert.match(r.out, /hybrid engine/);
});

// https://github.com/microsoft/DeepSpeedExamples/blob/4bf1924b80d395e86c0b7d654ec61b6f8d4477af/applications/DeepSpeed-Chat/training/step3_rlhf_finetuning/training_scripts/opt/single_node/run_1.3b.sh
// (its variables and the flags that change what the run holds; the learning rates, data and logging flags left out)
const opt13 = `ACTOR_MODEL_PATH=$1
CRITIC_MODEL_PATH=$2
ACTOR_ZERO_STAGE=$3
CRITIC_ZERO_STAGE=$4
if [ "$ACTOR_ZERO_STAGE" == "" ]; then
    ACTOR_ZERO_STAGE=2
fi
if [ "$CRITIC_ZERO_STAGE" == "" ]; then
    CRITIC_ZERO_STAGE=2
fi
if [ "$ACTOR_MODEL_PATH" == "" ]; then
    ACTOR_MODEL_PATH=AdamG012/chat-opt-1.3b-sft-deepspeed
fi
if [ "$CRITIC_MODEL_PATH" == "" ]; then
    CRITIC_MODEL_PATH=AdamG012/chat-opt-350m-reward-deepspeed
fi

deepspeed --master_port 12346 main.py \\
   --actor_model_name_or_path $ACTOR_MODEL_PATH \\
   --critic_model_name_or_path $CRITIC_MODEL_PATH \\
   --per_device_generation_batch_size 4 \\
   --per_device_training_batch_size 4 \\
   --max_answer_seq_len 256 \\
   --max_prompt_seq_len 256 \\
   --gradient_accumulation_steps 1 \\
   --deepspeed --seed 1234 \\
   --enable_hybrid_engine \\
   --actor_zero_stage $ACTOR_ZERO_STAGE \\
   --critic_zero_stage $CRITIC_ZERO_STAGE \\
   --enable_ema \\
   --output_dir $OUTPUT
`;

test("step 3's run_1.3b.sh as written: stage 2 from the script's defaults, main.py's defaults where it says nothing, --enable_ema a second frozen actor copy", async () => {
  const { analysis } = await analysisOf('run_1.3b.sh', opt13);
  assert.equal(analysis.current.stage, 2);
  assert.equal(analysis.context.model?.value, 'AdamG012/chat-opt-1.3b-sft-deepspeed');
  // No --actor_gradient_checkpointing: main.py's store_true leaves it off (not ZeRO Lens' usual default, on).
  assert.equal(analysis.context.gradientCheckpointing.value, false);
  assert.match(describeSource(analysis.context.gradientCheckpointing.source), /DeepSpeed-Chat main\.py/);
  assert.equal(analysis.context.sequenceLength.value, 512);
  const rlhf = analysis.context.workload.rlhf?.value;
  assert.equal(rlhf?.emaModel, 'AdamG012/chat-opt-1.3b-sft-deepspeed');
  assert.equal(rlhf?.rewardModel, 'AdamG012/chat-opt-350m-reward-deepspeed');
  assert.deepEqual(rlhf?.placement, { reference: { offloaded: false }, reward: { sharded: false, offloaded: false } });
});

test('step1 without --max_seq_len or --gradient_checkpointing: main.py\'s 512 and off', async () => {
  const text = llamaLora.replace('   --max_seq_len 512 \\\n', '').replace('   --gradient_checkpointing \\\n', '');
  const { analysis } = await analysisOf('run_llama2_7b_lora.sh', text);
  assert.equal(analysis.context.sequenceLength.value, 512);
  assert.equal(analysis.context.gradientCheckpointing.value, false);
  assert.match(describeSource(analysis.context.sequenceLength.source), /DeepSpeed-Chat main\.py/);
});

test('DeepSpeed-Chat step 3 as its script is written ($1 and $2 for the models): step 3 still, the models counted at the given model\'s size', async () => {
  // run_llama2_7b_mixz.sh unchanged: its actor and critic paths are the caller's arguments. Before, the command was
  // read as step 1 (micro-batch 16, checkpointing off, full fine-tuning) because the actor's path did not resolve.
  const { analyses } = estimateFeatures(memoryHosts({ 'run_llama2_7b_mixz.sh': mixz }));
  const settings = withDefaults({ gpusPerNode: 8, model: 'meta-llama/Llama-2-7b-hf' });
  const { analysis } = await analyses.training.analyzeDocument(scriptDocument('run_llama2_7b_mixz.sh', mixz), 'launch-script', settings);
  const result = analysis.estimate(analysis.current)!;
  assert.equal(analysis.current.stage, 3);
  assert.equal(analysis.context.microBatchSize.value, 1);
  assert.equal(analysis.context.sequenceLength.value, 512, 'prompt + answer');
  assert.equal(analysis.context.gradientCheckpointing.value, true);
  assert.equal(analysis.context.lora?.value.rank, 64);
  assert.equal(analysis.context.workload.rlhf?.value.type, 'ppo');
  // The reference (offloaded at ZeRO-3) and the reward model's 16-bit share stay counted; the critic trains.
  const llama = 6_738_415_616;
  assert.ok(Math.abs(result.perGpu.extraModels - (llama * 2) / 8) < llama * 0.02, `reward share ${result.perGpu.extraModels}`);
  assert.ok(result.params.total > 2 * llama * 0.99, 'the critic counts among the trained parameters');
  assert.ok(analysis.notes.some((n) => /critic's model comes from a variable/.test(n)), analysis.notes.join('\n'));
  assert.ok(!analysis.notes.some((n) => /cannot size/.test(n)), analysis.notes.join('\n'));
});
