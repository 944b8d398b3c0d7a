/**
 * Facts read from real launch scripts none of us wrote (minimal excerpts, each with its upstream URL): what the run
 * holds, as the training layer reports it with its source. Each test failed before the fix it came with.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { withDefaults } from '../../server/src/settings';
import { estimateFeatures, memoryHosts, scriptDocument, shown } from './context-hosts';

async function analysisOf(name: string, text: string, files: Record<string, string> = {}) {
  const hosts = memoryHosts({ [name]: text, ...files });
  const { analyses } = estimateFeatures(hosts);
  const document: TextDocument = scriptDocument(name, text);
  return analyses.training.analyzeDocument(document, 'launch-script', withDefaults({}));
}

// https://github.com/lm-sys/FastChat/blob/0e6d3e4beaab66f4d3f93db72541a4abab8af28d/scripts/train_vicuna_7b.sh
const fastchatFsdp = `torchrun --nproc_per_node=4 --master_port=20001 fastchat/train/train_mem.py \\
    --model_name_or_path lmsys/vicuna-7b-v1.5  \\
    --bf16 True \\
    --output_dir output_vicuna_7b \\
    --per_device_train_batch_size 2 \\
    --gradient_accumulation_steps 16 \\
    --fsdp "full_shard auto_wrap" \\
    --fsdp_transformer_layer_cls_to_wrap 'LlamaDecoderLayer' \\
    --model_max_length 2048 \\
    --gradient_checkpointing True
`;

test('FSDP without a DeepSpeed config: the Trainer accumulates the script\'s --gradient_accumulation_steps, and no note blames DeepSpeed', async () => {
  const { analysis, hasConfig } = await analysisOf('train_vicuna_7b.sh', fastchatFsdp);
  assert.equal(hasConfig, true);
  assert.equal(analysis.engine, 'fsdp');
  assert.deepEqual(shown(analysis.context.gradientAccumulationSteps), { value: 16, source: 'train_vicuna_7b.sh line 6' });
  assert.deepEqual(analysis.notes.filter((n) => /DeepSpeed accumulates/.test(n)), []);
});

// https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/multi-gpu/ddp/train.sh
const swiftDdp = `nproc_per_node=2

CUDA_VISIBLE_DEVICES=0,1 \\
NPROC_PER_NODE=$nproc_per_node \\
swift sft \\
    --model Qwen/Qwen2.5-7B-Instruct \\
    --tuner_type lora \\
    --torch_dtype bfloat16 \\
    --per_device_train_batch_size 1 \\
    --gradient_accumulation_steps $(expr 16 / $nproc_per_node) \\
    --max_length 2048
`;

test('a launch with no DeepSpeed at all (ms-swift DDP): its context keeps the script\'s accumulation', async () => {
  const { analysis, hasConfig } = await analysisOf('train.sh', swiftDdp);
  assert.equal(hasConfig, false);
  assert.deepEqual(shown(analysis.context.gradientAccumulationSteps), { value: 8, source: 'train.sh line 10' });
  assert.deepEqual(analysis.notes.filter((n) => /DeepSpeed accumulates/.test(n)), []);
});
