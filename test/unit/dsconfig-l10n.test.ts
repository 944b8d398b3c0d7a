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
