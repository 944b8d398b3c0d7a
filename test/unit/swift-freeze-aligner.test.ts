import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-helpers';
import { findCatalogModel } from '../../server/src/memory';

/**
 * ms-swift full fine-tuning of a multimodal model freezes the ViT with --freeze_vit and the aligner (projector) with
 * its own --freeze_aligner, both true by default (ms-swift 3602360 swift/arguments/tuner_args.py:123-124; :210-215
 * adds model_arch.aligner to freeze_parameters, or to trainable_parameters when false).
 */
async function frozen(flags: string[]): Promise<number | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'zl-aligner-'));
  // ms-swift examples/train/multimodal/vit_gradient_checkpointing.sh (https://github.com/modelscope/ms-swift), shortened; its flags vary below.
  const script = ['NPROC_PER_NODE=8 \\', 'swift sft \\', '    --model Qwen/Qwen2.5-VL-7B-Instruct \\', '    --tuner_type full \\', ...flags.map((f) => `    ${f} \\`), '    --deepspeed zero2', ''].join('\n');
  writeFileSync(join(dir, 'train.sh'), script);
  const r = await runCli(['estimate', 'train.sh', '--format', 'json', '--stage', '2'], dir);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out).inputs.frozenParams?.value ?? undefined;
}

const parts = findCatalogModel('Qwen/Qwen2.5-VL-7B-Instruct')!.architecture!.parts!;
const vit = parts.find((p) => p.kind === 'vision')!.params;
const merger = parts.find((p) => p.kind === 'projector')!.params;

test('ms-swift defaults: the ViT and the aligner are frozen', async () => {
  assert.equal(await frozen([]), vit + merger);
});

test('--freeze_vit false alone trains the ViT; the aligner stays frozen (freeze_aligner defaults to true)', async () => {
  // As in ms-swift examples/megatron/grpo/opd_rl.sh, which says --freeze_vit false and nothing of the aligner.
  assert.equal(await frozen(['--freeze_vit false']), merger);
});

test('--freeze_aligner false trains the projector under a frozen ViT', async () => {
  assert.equal(await frozen(['--freeze_vit true', '--freeze_aligner false']), vit);
});

test('both false (vit_gradient_checkpointing.sh): nothing is frozen', async () => {
  assert.equal(await frozen(['--freeze_vit false', '--freeze_aligner false']), undefined);
});

test('an ms-swift YAML says it the same way: freeze_aligner: false trains the projector', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zl-aligner-'));
  writeFileSync(join(dir, 'sft.yaml'), 'model: Qwen/Qwen2.5-VL-7B-Instruct\ntuner_type: full\nfreeze_aligner: false\ndeepspeed: zero2\n');
  writeFileSync(join(dir, 'train.sh'), 'NPROC_PER_NODE=8 swift sft sft.yaml\n');
  const r = await runCli(['estimate', 'train.sh', '--format', 'json', '--stage', '2'], dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).inputs.frozenParams.value, vit);
});

// --freeze_llm adds model_arch.language_model to freeze_parameters in multimodal full fine-tuning (ms-swift 3602360a
// swift/arguments/tuner_args.py:122, :208-209; megatron_args.py:1086-1087): the LLM keeps no gradients or optimizer states.
test('--freeze_llm true (ms-swift examples/ascend/train/qwen3_omni/qwen3_omni_full_mindspeed.sh writes it false) freezes the language model', async () => {
  const total = findCatalogModel('Qwen/Qwen2.5-VL-7B-Instruct')!.totalParams;
  const llm = total - parts.filter((p) => p.loaded !== false).reduce((sum, p) => sum + p.params, 0);
  assert.equal(await frozen(['--freeze_llm true', '--freeze_vit false']), llm + merger);
  assert.equal(await frozen(['--freeze_llm false']), vit + merger);
});

/**
 * LoRA: ms-swift's target_modules defaults to ['all-linear'] (3602360a swift/arguments/tuner_args.py:126), which for a
 * multimodal model becomes a regex over the parts left unfrozen (swift/pipelines/train/tuner.py:93-104 →
 * swift/utils/transformers_utils.py:209-223, `if not freeze_llm: modules += model_arch.language_model`): --freeze_llm
 * puts no adapters on the language model. Named modules are matched everywhere; a text model ignores the flag (find_all_linears).
 */
async function loraRun(model: string, flags: string[], yaml?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'zl-freeze-llm-'));
  const script = ['NPROC_PER_NODE=8 \\', 'swift sft \\', `    --model ${model} \\`, '    --tuner_type lora \\', ...flags.map((f) => `    ${f} \\`), '    --deepspeed zero2', ''].join('\n');
  writeFileSync(join(dir, 'train.sh'), yaml ? 'NPROC_PER_NODE=8 swift sft sft.yaml\n' : script);
  if (yaml) writeFileSync(join(dir, 'sft.yaml'), yaml);
  const r = await runCli(['estimate', 'train.sh', '--format', 'json', '--stage', '2'], dir);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as { perGpu: { optimizerStates: number }; notes: string[] };
}

test('LoRA with --freeze_llm true on a multimodal model: all-linear skips the language model, so its adapters are not counted', async () => {
  const vl = 'Qwen/Qwen2.5-VL-7B-Instruct';
  const skipped = await loraRun(vl, ['--freeze_llm true', '--freeze_vit false']);
  assert.equal(skipped.perGpu.optimizerStates, 0);
  assert.ok(skipped.notes.some((n) => n.includes('--freeze_llm')), skipped.notes.join('\n'));
  assert.ok((await loraRun(vl, ['--freeze_llm false', '--freeze_vit false'])).perGpu.optimizerStates > 0);
  // With the tower and aligner frozen too (their defaults), all-linear finds nothing: transformers_utils.py:225 asserts.
  const none = await loraRun(vl, ['--freeze_llm true']);
  assert.ok(none.notes.some((n) => n.includes('AssertionError')), none.notes.join('\n'));
  // Named modules are matched in the language model too; target_regex likewise.
  assert.ok((await loraRun(vl, ['--freeze_llm true', '--target_modules q_proj v_proj'])).perGpu.optimizerStates > 0);
  // A text model has no language_model part to skip.
  assert.ok((await loraRun('Qwen/Qwen2.5-7B-Instruct', ['--freeze_llm true'])).perGpu.optimizerStates > 0);
  // The YAML says it the same way.
  const yaml = await loraRun(vl, [], `model: ${vl}\ntuner_type: lora\nfreeze_llm: true\nfreeze_vit: false\ndeepspeed: zero2\n`);
  assert.equal(yaml.perGpu.optimizerStates, 0);
});
