/**
 * The Chinese of the most-shown messages (ds_config and launch diagnostics, the estimate hover), read against
 * docs/glossary.md: no space between two Chinese characters where a Chinese argument meets its template, no English
 * left inside a Chinese sentence, and wordings that say what the English says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { memoryHosts } from './context-hosts';
import { withDefaults } from '../../server/src/settings';
import { translator } from '../../server/src/l10n';
import { doc, service, settings } from './launch-helpers';

const zh = translator('zh-cn');
let version = 0;

async function diagnoseConfig(config: string, partial: Record<string, unknown>): Promise<Diagnostic[]> {
  const document = TextDocument.create('file:///ws/ds_config.json', 'ds-config', ++version, config);
  return getLanguageService(memoryHosts({})).doValidation(document, withDefaults(partial));
}

test('a Chinese argument meets its template without a space between two Chinese characters; Latin keeps its space', () => {
  assert.equal(zh('Unknown key "{0}" in {1}: it is ignored by DeepSpeed.', 'pipe', zh('the top level')), '顶层中有未知键 "pipe"：DeepSpeed 会忽略它。');
  assert.equal(zh('Unknown key "{0}" in {1}: it is ignored by DeepSpeed.', 'pipe', '"zero_optimization"'), '"zero_optimization" 中有未知键 "pipe"：DeepSpeed 会忽略它。');
  assert.equal(zh('{0} and {1}', '优化器状态', '梯度'), '优化器状态和梯度');
  assert.equal(zh('{0} and {1}', 'sft', 'rlhf'), 'sft 和 rlhf');
});

test('ds_config diagnostics in Chinese: the top level, a value\'s kind, "auto" left unfilled', async () => {
  const messages = (await diagnoseConfig('{ "train_micro_batch_size_per_gpu": 1, "pipe-parallel-size": 1, "optimizer": { "type": 7 }, "zero_optimization": { "stage": 3, "offload_optimizer": { "device": "gpu" }, "prefetch_bucket_size": "auto" } }', { language: 'zh-cn' })).map((d) => String(d.message));
  assert.ok(messages.some((m) => m.startsWith('顶层中有未知键 "pipe-parallel-size"')), messages.join('\n'));
  assert.ok(messages.some((m) => /实际是字符串 "gpu"。$/.test(m)), messages.join('\n'));
  const auto = messages.find((m) => m.includes('prefetch_bucket_size'));
  assert.match(String(auto), /^Hugging Face Trainer 和 accelerate 都不会替 "prefetch_bucket_size" 的 "auto" 填入实际值。/);
  const stage = (await diagnoseConfig('{ "train_micro_batch_size_per_gpu": 1, "zero_optimization": { "stage": 3, "allgather_partitions": true } }', { language: 'zh-cn' })).find((d) => d.code === 'ignored-at-stage');
  assert.equal(stage?.message, '"allgather_partitions" 只在 ZeRO 阶段 1、2 下读取；当前阶段是 "stage": 3，DeepSpeed 会忽略它。');
  for (const m of messages) assert.doesNotMatch(m, /[\u4e00-\u9fff）] [\u4e00-\u9fff]/, m);
});

test('the batch check against the GPU count: the derived values in Chinese, the GPU count said once', async () => {
  const config = '{ "train_batch_size": 12, "gradient_accumulation_steps": 4, "zero_optimization": { "stage": 2 } }';
  const [zhBatch] = (await diagnoseConfig(config, { language: 'zh-cn', gpusPerNode: 8 })).filter((d) => d.code === 'batch-size-mismatch');
  assert.ok(zhBatch, 'batch-size-mismatch is reported');
  assert.doesNotMatch(String(zhBatch.message), /derived|GPU（8 张 GPU/, String(zhBatch.message));
  assert.match(String(zhBatch.message), /0（推算） × 4 × 8 = 0/);
  const [enBatch] = (await diagnoseConfig(config, { language: 'en', gpusPerNode: 8 })).filter((d) => d.code === 'batch-size-mismatch');
  assert.doesNotMatch(String(enBatch.message), /GPUs \(8 GPUs/, String(enBatch.message));
  assert.match(String(enBatch.message), /0 \(derived\) × 4 × 8/);
});

test('a batch smaller than the GPU count says so, in both languages, and not "0 (derived) × …"', async () => {
  const config = '{ "train_batch_size": 1, "gradient_accumulation_steps": 1, "zero_optimization": { "stage": 2 } }';
  const [zhBatch] = (await diagnoseConfig(config, { language: 'zh-cn', gpusPerNode: 8 })).filter((d) => d.code === 'batch-size-mismatch');
  assert.match(String(zhBatch?.message), /^train_batch_size（1）小于 GPU 数，8 张 GPU（.*）：每张 GPU 至少要分到一个样本/, String(zhBatch?.message));
  assert.doesNotMatch(String(zhBatch.message), /推算|derived/);
  const [enBatch] = (await diagnoseConfig(config, { language: 'en', gpusPerNode: 8 })).filter((d) => d.code === 'batch-size-mismatch');
  assert.match(String(enBatch?.message), /^train_batch_size \(1\) is smaller than the number of GPUs, 8 GPUs \(.*\): every GPU needs at least one sample/, String(enBatch?.message));
  assert.doesNotMatch(String(enBatch.message), /derived/);
  assert.equal((enBatch.data as { suggested?: number }).suggested, 8);
});

test('launch diagnostics in Chinese say what a flag accepts with 只能是, not 取', async () => {
  const { ls } = service();
  const [nproc] = await ls.doValidation(doc('t.sh', 'torchrun --nproc_per_node=eight train.py --deepspeed ds.json\n'), settings({ language: 'zh-cn' }));
  assert.equal(nproc.message, "--nproc_per_node 只能是整数或 auto、cpu、gpu、xpu 之一，不能是 'eight'。");
});

test('the estimate hover\'s training context says where each value came from in Chinese brackets', async () => {
  const text = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n';
  const document = TextDocument.create('file:///ws/ds_config.json', 'ds-config', ++version, text);
  const ls = getLanguageService(memoryHosts({}));
  const hoverText = async (language: string) => {
    const hover = await ls.doHover(document, { line: 3, character: 6 }, withDefaults({ language, model: 'Qwen/Qwen3-8B', gpusPerNode: 4, gpuMemoryGiB: 80 }));
    return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
  };
  assert.match(await hoverText('zh-cn'), /模型 Qwen3-8B（参数量 8\.19B） _（设置（zeroLens\.model））_/);
  assert.match(await hoverText('en'), /model Qwen3-8B \(8\.19B params\) _\(settings \(zeroLens\.model\)\)_/);
});
