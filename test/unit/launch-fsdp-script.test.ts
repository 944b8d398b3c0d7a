/**
 * FSDP in launch scripts: the Hugging Face Trainer's `--fsdp` / `--fsdp_config` (transformers v4.57.6), ms-swift's
 * `--fsdp` (3602360a), `accelerate launch` flags, and a script run under an accelerate FSDP config.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { extractLaunchFacts } from '../../server/src/launch';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

const hf = (args: string) => `torchrun --nproc_per_node 4 train.py --model_name_or_path meta-llama/Llama-2-7b-hf ${args}\n`;

async function check(text: string, files: Record<string, string> = {}) {
  const { ls } = service(files);
  const document = doc('scripts/train.sh', text);
  return { document, diagnostics: await ls.doValidation(document, settings()) };
}

test('Trainer --fsdp: the words become the facts of how FSDP runs', () => {
  const [f] = extractLaunchFacts(doc('scripts/train.sh', hf('--fsdp "shard_grad_op auto_wrap offload" --fsdp_config \'{"activation_checkpointing": true}\'')), [workspaceRoot]);
  assert.deepEqual(f.fsdp && [f.fsdp.version, f.fsdp.strategy, f.fsdp.offloadParams, f.fsdp.autoWrap, f.fsdp.activationCheckpointing?.value], [1, 'SHARD_GRAD_OP', true, 'TRANSFORMER_BASED_WRAP', true]);
});

test('Trainer --fsdp: an unknown word, offload alone and two strategies each raise in TrainingArguments', async () => {
  const typo = await check(hf('--fsdp "full_shard auto_wrapp"'));
  assert.deepEqual(codes(typo.diagnostics), ['fsdp-invalid-value']);
  assert.match(String(typo.diagnostics[0].codeDescription?.href), /huggingface\/transformers\/blob\/v4\.57\.6\/src\/transformers\/training_args\.py#L1919-L1920$/);
  assert.equal(fixed(typo.document, typo.diagnostics, 'fsdp-invalid-value'), hf('--fsdp "full_shard auto_wrap"'));
  const alone = await check(hf('--fsdp offload'));
  assert.deepEqual(codes(alone.diagnostics), ['fsdp-offload-without-sharding']);
  assert.equal(alone.diagnostics[0].severity, DiagnosticSeverity.Error);
  assert.equal(fixed(alone.document, alone.diagnostics, 'fsdp-offload-without-sharding'), hf('--fsdp "full_shard offload"'));
  const two = await check(hf('--fsdp "full_shard shard_grad_op"'));
  assert.deepEqual(codes(two.diagnostics), ['fsdp-conflicting-options']);
  assert.equal(fixed(two.document, two.diagnostics, 'fsdp-conflicting-options'), hf('--fsdp "full_shard"'));
});

test('Trainer --fsdp with --deepspeed: the Trainer raises; the fixes keep one of them', async () => {
  const { document, diagnostics } = await check(hf('--fsdp "full_shard auto_wrap" --deepspeed ds.json'), { 'scripts/ds.json': '{ "zero_optimization": { "stage": 3 } }' });
  assert.ok(codes(diagnostics).includes('fsdp-with-deepspeed'));
  const d = diagnostics.filter((x) => x.code === 'fsdp-with-deepspeed');
  assert.match(String(d[0].codeDescription?.href), /trainer\.py#L571-L575$/);
  // Each title names all it removes, the flag and its value.
  assert.equal(fixed(document, d, 'fsdp-with-deepspeed', 'Remove `--fsdp "full_shard auto_wrap"`'), hf('--deepspeed ds.json'));
  assert.equal(fixed(document, d, 'fsdp-with-deepspeed', 'Remove `--deepspeed ds.json`'), hf('--fsdp "full_shard auto_wrap"'));
});

test('Trainer --fsdp_config: a file the Trainer reads, its keys, and without --fsdp', async () => {
  const files = { 'scripts/fsdp.json': JSON.stringify({ fsdp_transformer_layer_cls_to_wrap: ['LlamaDecoderLayer'], min_num_params: 1000, sync_module_states: false, cpu_ram_efficient_loading: true, backward_prefetch_x: 'backward_pre' }) };
  const { diagnostics } = await check(hf('--fsdp "full_shard auto_wrap" --fsdp_config fsdp.json'), files);
  assert.deepEqual(codes(diagnostics), ['fsdp-conflicting-options', 'fsdp-ram-efficient-loading-without-sync', 'fsdp-unknown-key']);
  const missing = await check(hf('--fsdp "full_shard auto_wrap" --fsdp_config /abs/none.json'));
  assert.deepEqual(codes(missing.diagnostics), ['fsdp-config-not-found']);
  assert.equal(missing.diagnostics[0].severity, DiagnosticSeverity.Error);
  const alone = await check(hf('--fsdp_config \'{"min_num_params": 0}\''));
  assert.deepEqual(codes(alone.diagnostics), ['fsdp-config-without-fsdp']);
  const broken = await check(hf('--fsdp full_shard --fsdp_config \'{min_num_params: 0}\''));
  assert.deepEqual(codes(broken.diagnostics), ['fsdp-invalid-value']);
});

test('Trainer: FSDP activation checkpointing beside --gradient_checkpointing is refused; the fix turns the flag off', async () => {
  const text = hf('--fsdp "full_shard auto_wrap" --fsdp_config \'{"activation_checkpointing": true}\' --gradient_checkpointing true');
  const { document, diagnostics } = await check(text);
  assert.deepEqual(codes(diagnostics), ['fsdp-activation-and-gradient-checkpointing']);
  assert.match(String(diagnostics[0].codeDescription?.href), /trainer\.py#L5530-L5535$/);
  assert.equal(fixed(document, diagnostics, 'fsdp-activation-and-gradient-checkpointing'), text.replace('--gradient_checkpointing true', '--gradient_checkpointing false'));
});

const accelerateFsdp = `distributed_type: FSDP
fsdp_config:
  fsdp_version: 2
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_activation_checkpointing: true
mixed_precision: bf16
num_processes: 2
`;

test('accelerate config with FSDP activation checkpointing: ms-swift\'s default gradient checkpointing collides; the fix passes false', async () => {
  const text = 'accelerate launch --config_file fsdp2.yaml swift/cli/sft.py --model Qwen/Qwen2.5-7B-Instruct --tuner_type lora\n';
  const { document, diagnostics } = await check(text, { 'scripts/fsdp2.yaml': accelerateFsdp });
  assert.deepEqual(codes(diagnostics), ['fsdp-activation-and-gradient-checkpointing']);
  assert.match(String(diagnostics[0].message), /ms-swift turns `--gradient_checkpointing` on by default/);
  const after = fixed(document, diagnostics, 'fsdp-activation-and-gradient-checkpointing');
  assert.equal(after, text.replace('swift/cli/sft.py', 'swift/cli/sft.py --gradient_checkpointing false'));
  assert.deepEqual(codes((await check(after, { 'scripts/fsdp2.yaml': accelerateFsdp })).diagnostics), []);
});

// TRL's configs turn gradient_checkpointing on (trl f2cd5771 trl/trainer/base_config.py:61-66); a TRL script under an FSDP
// config with activation checkpointing meets the same ValueError, and the message names TRL, not ms-swift.
test('accelerate config with FSDP activation checkpointing: TRL\'s default gradient checkpointing collides too', async () => {
  const text = 'accelerate launch --config_file fsdp2.yaml trl/scripts/sft.py --model_name_or_path Qwen/Qwen2.5-0.5B --output_dir out\n';
  const { diagnostics } = await check(text, { 'scripts/fsdp2.yaml': accelerateFsdp });
  assert.deepEqual(codes(diagnostics), ['fsdp-activation-and-gradient-checkpointing']);
  assert.match(String(diagnostics[0].message), /TRL turns `--gradient_checkpointing` on by default/);
});

test('accelerate: a script\'s --deepspeed under an FSDP config wins, and both --use_* flags are refused', async () => {
  const files = { 'scripts/fsdp2.yaml': accelerateFsdp.replace('  fsdp_activation_checkpointing: true\n', ''), 'scripts/ds.json': '{ "zero_optimization": { "stage": 2 }, "train_micro_batch_size_per_gpu": "auto" }' };
  const { diagnostics } = await check('accelerate launch --config_file fsdp2.yaml train.py --deepspeed ds.json\n', files);
  const d = diagnostics.find((x) => x.code === 'fsdp-with-deepspeed');
  assert.equal(d?.severity, DiagnosticSeverity.Warning);
  const both = await check('accelerate launch --use_deepspeed --use_fsdp --num_processes 2 train.py\n');
  assert.ok(codes(both.diagnostics).includes('fsdp-with-deepspeed'));
});

test('ms-swift --fsdp: the preset, a misspelt preset, and save_only_model with sharded checkpoints', async () => {
  const swift = (args: string) => `NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B-Instruct ${args}\n`;
  assert.deepEqual(codes((await check(swift('--fsdp fsdp2'))).diagnostics), []);
  const [f] = extractLaunchFacts(doc('scripts/train.sh', swift('--fsdp fsdp2')), [workspaceRoot]);
  assert.deepEqual(f.fsdp && [f.fsdp.version, f.fsdp.strategy, f.fsdp.activationCheckpointing?.value], [2, 'FULL_SHARD', true]);
  const typo = await check(swift('--fsdp fsdp'));
  assert.deepEqual(codes(typo.diagnostics), ['fsdp-config-not-found']);
  assert.equal(fixed(typo.document, typo.diagnostics, 'fsdp-config-not-found'), swift('--fsdp fsdp2'));
  const saveOnly = await check(swift('--fsdp fsdp2 --save_only_model true'));
  assert.deepEqual(codes(saveOnly.diagnostics), ['fsdp-conflicting-options']);
  assert.match(String(saveOnly.diagnostics[0].codeDescription?.href), /ms-swift\/blob\/3602360a[0-9a-f]*\/swift\/arguments\/sft_args\.py#L338-L345$/);
  const ds = await check(swift('--fsdp fsdp2 --deepspeed zero3'));
  assert.ok(codes(ds.diagnostics).includes('deepspeed-with-fsdp'));
  assert.match(String(ds.diagnostics.find((d) => d.code === 'deepspeed-with-fsdp')?.codeDescription?.href), /sft_args\.py#L293-L294$/);
});

test('ms-swift --fsdp file: keys the version it sets does not read', async () => {
  const swift = (file: string) => `NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B-Instruct --fsdp ${file}\n`;
  const fsdp2 = { fsdp: 'full_shard auto_wrap', fsdp_config: { fsdp_version: 2, use_orig_params: false, forward_prefetch: true, reshard_after_forward: true } };
  const two = await check(swift('fsdp2_own.json'), { 'scripts/fsdp2_own.json': JSON.stringify(fsdp2) });
  assert.deepEqual(codes(two.diagnostics), ['fsdp-ignored-by-version', 'fsdp-ignored-by-version']);
  assert.ok(two.diagnostics.every((d) => d.severity === DiagnosticSeverity.Information));
  assert.match(String(two.diagnostics[0].message), /`use_orig_params` is an FSDP1 option/);
  const fsdp1 = { fsdp: 'full_shard auto_wrap', fsdp_config: { fsdp_version: 1, reshard_after_forward: false } };
  const one = await check(swift('fsdp1_own.json'), { 'scripts/fsdp1_own.json': JSON.stringify(fsdp1) });
  assert.deepEqual(codes(one.diagnostics), ['fsdp-ignored-by-version']);
  assert.equal(one.diagnostics[0].severity, DiagnosticSeverity.Warning);
  assert.match(String(one.diagnostics[0].message), /`reshard_after_forward` is read by FSDP2 only/);
});

test('ms-swift --fsdp file: `activation_cpu_offload` is ms-swift\'s own key, read beside the Trainer\'s; the Trainer itself ignores it', async () => {
  // As examples/ascend/activation_cpu_offload/fsdp2.json of ms-swift 3602360a has it.
  const file = JSON.stringify({ fsdp: 'full_shard auto_wrap', fsdp_config: { fsdp_version: 2, reshard_after_forward: true, activation_checkpointing: false, activation_cpu_offload: true } });
  const swift = await check('NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B-Instruct --fsdp ./fsdp2.json\n', { 'scripts/fsdp2.json': file });
  assert.deepEqual(codes(swift.diagnostics), []);
  const trainer = await check(hf('--fsdp "full_shard auto_wrap" --fsdp_config fsdp_config.json'), { 'scripts/fsdp_config.json': JSON.stringify({ activation_cpu_offload: true }) });
  assert.deepEqual(codes(trainer.diagnostics), ['fsdp-unknown-key']);
});

test('LoRA under FSDP1 with use_orig_params false: a script of its own is warned, a Trainer script is not', async () => {
  const fsdp1 = 'distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 1\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n  fsdp_use_orig_params: false\nnum_processes: 2\n';
  const files = { 'scripts/fsdp1.yaml': fsdp1 };
  const own = await check('accelerate launch --config_file fsdp1.yaml my_loop.py --model_name_or_path meta-llama/Llama-2-7b-hf --lora_r 16\n', files);
  assert.deepEqual(codes(own.diagnostics), ['fsdp-orig-params-with-lora']);
  assert.equal(own.diagnostics[0].severity, DiagnosticSeverity.Warning);
  assert.match(String(own.diagnostics[0].message), /uniform requires_grad/);
  assert.match(String(own.diagnostics[0].codeDescription?.href), /huggingface\.co\/docs\/peft\/accelerate\/fsdp/);
  const trainer = await check('accelerate launch --config_file fsdp1.yaml train.py --model_name_or_path meta-llama/Llama-2-7b-hf --lora_r 16 --per_device_train_batch_size 1\n', files);
  assert.deepEqual(codes(trainer.diagnostics), []);
  const orig = await check('accelerate launch --config_file fsdp1.yaml my_loop.py --model_name_or_path meta-llama/Llama-2-7b-hf --lora_r 16\n', { 'scripts/fsdp1.yaml': fsdp1.replace('false', 'true') });
  assert.deepEqual(codes(orig.diagnostics), []);
  const flags = await check('accelerate launch --use_fsdp --fsdp_use_orig_params false --num_processes 2 my_loop.py --lora_r 16\n');
  assert.deepEqual(codes(flags.diagnostics), ['fsdp-orig-params-with-lora']);
});
