/**
 * Megatron-SWIFT's parallel sizes and DeepSpeed's AutoTP size against the GPUs a script starts and the model it
 * trains (heads, key-value heads, layers and experts from the built-in catalog).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { extractLaunchFacts } from '../../server/src/launch';
import { modelShape } from '../../server/src/launch/parallel/modelShape';
import { codes, doc, service, settings, workspaceRoot } from './launch-helpers';

const megatron = (sizes: string, nproc = 8, model = 'Qwen/Qwen2.5-7B-Instruct') =>
  [`NPROC_PER_NODE=${nproc} \\`, 'megatron sft \\', `    --model ${model} \\`, `    ${sizes} \\`, '    --micro_batch_size 1', ''].join('\n');

async function check(text: string, files: Record<string, string> = {}) {
  const { ls } = service(files);
  return ls.doValidation(doc('scripts/train.sh', text), settings());
}

test('Megatron: the model shapes come from the catalog', () => {
  assert.deepEqual(modelShape('Qwen/Qwen2.5-7B-Instruct'), { id: 'Qwen/Qwen2.5-7B', heads: 28, kvHeads: 4, layers: 28 });
  assert.equal(modelShape('Qwen/Qwen3-30B-A3B')?.experts, 128);
});

test('Megatron: facts carry the sizes where they are written', () => {
  const [f] = extractLaunchFacts(doc('scripts/train.sh', megatron('--tensor_model_parallel_size 2 --pipeline_model_parallel_size 2')), [workspaceRoot]);
  assert.equal(f.launcher, 'megatron');
  assert.deepEqual([f.parallel?.tp?.value, f.parallel?.pp?.value, f.gpusPerNode?.value], [2, 2, 8]);
});

test('Megatron: sizes that divide the GPUs and the model give nothing', async () => {
  assert.deepEqual(codes(await check(megatron('--tensor_model_parallel_size 4 --pipeline_model_parallel_size 2'))), []);
});

test('Megatron: TP × PP × CP must divide the GPU count (parallel_state.py)', async () => {
  const diagnostics = await check(megatron('--tensor_model_parallel_size 2 --context_parallel_size 3'));
  assert.deepEqual(codes(diagnostics), ['parallel-sizes-gpu-mismatch']);
  assert.match(String(diagnostics[0].message), /^8 GPUs \(NPROC_PER_NODE\) cannot be split into model-parallel groups of TP 2 × PP 1 × CP 3 = 6/);
  assert.match(String(diagnostics[0].codeDescription?.href), /NVIDIA\/Megatron-LM\/blob\/d98e8a64[0-9a-f]*\/megatron\/core\/parallel_state\.py#L815-L823$/);
});

test('Megatron: TP must divide the attention heads and PP the layers of the model', async () => {
  const diagnostics = await check(megatron('--tensor_model_parallel_size 8 --pipeline_model_parallel_size 1'), {});
  // 28 heads, TP 8.
  assert.deepEqual(codes(diagnostics), ['parallel-size-model-mismatch']);
  assert.match(String(diagnostics[0].message), /28 attention heads, which TP 8 does not divide/);
  const layers = await check(megatron('--pipeline_model_parallel_size 8', 8));
  assert.deepEqual(codes(layers), ['parallel-size-model-mismatch']);
  assert.match(String(layers[0].message), /28 layers, which PP 8 does not divide/);
  const uneven = await check(megatron('--pipeline_model_parallel_size 8 --decoder_first_pipeline_num_layers 0', 8));
  assert.deepEqual(codes(uneven), [], 'an uneven split is the user\'s own');
});

test('Megatron: EP must divide the experts, and expert TP × EP × PP the GPUs', async () => {
  const diagnostics = await check(megatron('--expert_model_parallel_size 3', 6, 'Qwen/Qwen3-30B-A3B'));
  assert.deepEqual(codes(diagnostics), ['parallel-size-model-mismatch']);
  assert.match(String(diagnostics[0].message), /128 experts, which EP 3 does not divide/);
  const grid = await check(megatron('--expert_model_parallel_size 16', 8, 'Qwen/Qwen3-30B-A3B'));
  assert.deepEqual(codes(grid), ['parallel-sizes-gpu-mismatch']);
});

test('AutoTP: ms-swift --deepspeed_autotp_size must divide the GPUs; past the key-value heads it warns', async () => {
  const script = (size: number, nproc: number) => `NPROC_PER_NODE=${nproc} swift sft --model Qwen/Qwen2.5-7B-Instruct --tuner_type full --deepspeed zero2 --deepspeed_autotp_size ${size}\n`;
  const mesh = await check(script(3, 8));
  assert.deepEqual(codes(mesh), ['parallel-sizes-gpu-mismatch']);
  assert.match(String(mesh[0].codeDescription?.href), /deepspeed\/utils\/groups\.py#L146-L155$/);
  const heads = await check(script(8, 8));
  assert.deepEqual(codes(heads), ['autotp-exceeds-kv-heads']);
  assert.equal(heads[0].severity, DiagnosticSeverity.Warning);
  assert.deepEqual(codes(await check(script(4, 8))), []);
});

test('AutoTP: tensor_parallel.autotp_size in the config a script names is checked against its GPUs', async () => {
  const files = { 'scripts/ds_tp.json': '{ "zero_optimization": { "stage": 1 }, "tensor_parallel": { "autotp_size": 4 }, "train_micro_batch_size_per_gpu": "auto" }' };
  const text = 'torchrun --nproc_per_node 6 train.py --model_name_or_path Qwen/Qwen2.5-7B-Instruct --deepspeed ds_tp.json\n';
  assert.deepEqual(codes(await check(text, files)), ['parallel-sizes-gpu-mismatch']);
});
