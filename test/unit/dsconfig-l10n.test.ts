/**
 * The ds_config domain speaks the reader's language: diagnostics, related information and quick-fix titles come
 * out in Chinese under locale zh-cn (one parse serves both), and in English by default.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { memoryHosts } from './context-hosts';
import { defaultSettings } from '../../server/src/settings';
import type { Locale } from '../../server/src/l10n';
import type { DiagnosticData } from '../../server/src/diagnostics/fixData';

const service = getLanguageService(memoryHosts({}));
let version = 0;

async function diagnose(text: string, locale: Locale): Promise<Diagnostic[]> {
  const document = TextDocument.create('file:///work/ds_config.json', 'ds-config', ++version, text);
  return service.doValidation(document, { ...defaultSettings, locale });
}

const fixesOf = (d: Diagnostic) => (d.data as DiagnosticData).fixes;
const byCode = (diagnostics: Diagnostic[], code: string) => diagnostics.find((d) => d.code === code);

test('syntax errors, duplicate keys and their quick fixes in Chinese under zh-cn, in English by default', async () => {
  const text = '{\n  "train_batch_size": 8,\n  "train_batch_size": 16,\n  "bf16": { "enabled": true }\n  "gradient_clipping": 1.0\n}\n';
  const zh = await diagnose(text, 'zh-cn');
  assert.equal(byCode(zh, 'json-syntax')?.message, "两项之间缺少 ','。");
  const duplicate = byCode(zh, 'duplicate-key');
  assert.match(String(duplicate?.message), /^重复的键 "train_batch_size"（第一次出现在第 2 行）。DeepSpeed 拒绝有重复键的配置文件/);
  assert.deepEqual(fixesOf(duplicate!).map((f) => f.title), ['删除第一个 "train_batch_size"（与 Python 一样保留最后一个）']);
  const en = await diagnose(text, 'en');
  assert.equal(byCode(en, 'json-syntax')?.message, "Expected ',' between two entries.");
  assert.match(String(byCode(en, 'duplicate-key')?.message), /^Duplicate key "train_batch_size" \(first set on line 2\)/);
});

test('unknown keys, types, enums, deprecated keys and their fixes in Chinese, with the schema\'s own Chinese where it has it', async () => {
  const text = JSON.stringify({
    train_micro_batch_size_per_gpu: 1,
    zero_optimization: { stage: 3, overlap_com: true, cpu_offload: true, offload_optimizer: { device: 'gpu' } },
    gradient_clipping: 'high',
  });
  const zh = await diagnose(text, 'zh-cn');
  const unknown = byCode(zh, 'unknown-key');
  assert.match(String(unknown?.message), /^未知键 "overlap_com"：DeepSpeed 拒绝 "zero_optimization" 中的未知键.*是不是想写 "overlap_comm"？$/);
  assert.equal(fixesOf(unknown!)[0].title, '重命名为 "overlap_comm"');
  assert.match(String(byCode(zh, 'invalid-type')?.message), /^"gradient_clipping" 必须是数字或 "auto"，不能是字符串 "high"。$/);
  assert.match(String(byCode(zh, 'invalid-value')?.message), /^"device" 必须是 .* 之一；实际是字符串 "gpu"。$/);
  // The reason is the schema's own Chinese (x-deepspeed.deprecated.message-zh-cn).
  assert.match(String(byCode(zh, 'deprecated-with-replacement')?.message), /^"cpu_offload" 已弃用，同时还设置了 "zero_optimization.offload_optimizer"：DeepSpeed 不接受.*（AssertionError）。请改用 "offload_optimizer"/);
  const en = await diagnose(text, 'en');
  assert.match(String(byCode(en, 'unknown-key')?.message), /^Unknown key "overlap_com": DeepSpeed rejects unknown keys in "zero_optimization"/);
  assert.match(String(byCode(en, 'invalid-type')?.message), /^"gradient_clipping" must be a number or "auto", not the string "high"\.$/);
});

test('cross-key rules in Chinese: the batch triple and its fixes', async () => {
  const text = JSON.stringify({ train_batch_size: 30, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 4 });
  const zh = await diagnose(text, 'zh-cn');
  const batch = zh.find((d) => /不是 16 的倍数/.test(String(d.message)));
  assert.ok(batch, JSON.stringify(zh.map((d) => d.message)));
  assert.match(String(batch.message), /^train_batch_size（30）必须等于 train_micro_batch_size_per_gpu × gradient_accumulation_steps × 数据并行规模/);
  assert.deepEqual(fixesOf(batch).map((f) => f.title), ['把 train_batch_size 设为 32（4 × 4 × 2 张 GPU）', '三个批大小键都改为 "auto"（由 Hugging Face Trainer / accelerate 填入）']);
});
