/**
 * Lists inside messages take the reader's separator: ", " in English, "、" in Chinese (glossary: Chinese lists use
 * 、), through the one formatter of the l10n layer, on every surface that names a list of values or keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { memoryHosts } from './context-hosts';
import { defaultSettings, describeIgnoredSetting, ignoredSettings } from '../../server/src/settings';
import { andList, joinList, translator, type Locale } from '../../server/src/l10n';
import { parseEstimateArgs } from '../../server/src/cli/estimateArgs';
import { doc, service, settings } from './launch-helpers';
import { buildViewModel, statusSummary } from '../../client/src/sidebar/viewModel';
import { sampleView } from '../fixtures/sidebar/estimateView';

const zh = translator('zh-cn');
const en = translator('en');

test('joinList and andList: ", " and "a, b and c" in English, "、" and "a、b 和 c" in Chinese', () => {
  assert.equal(joinList(en, ['"a"', '"b"', 3]), '"a", "b", 3');
  assert.equal(joinList(zh, ['"a"', '"b"', 3]), '"a"、"b"、3');
  assert.equal(andList(en, ['"a"', '"b"', '"c"']), '"a", "b" and "c"');
  assert.equal(andList(zh, ['"a"', '"b"', '"c"']), '"a"、"b" 和 "c"');
  assert.equal(andList(zh, ['"a"']), '"a"');
  assert.equal(andList(zh, []), '');
});

const configService = getLanguageService(memoryHosts({}));
let version = 0;
async function diagnoseConfig(config: object, locale: Locale): Promise<Diagnostic[]> {
  const document = TextDocument.create('file:///work/ds_config.json', 'ds-config', ++version, JSON.stringify(config));
  return configService.doValidation(document, { ...defaultSettings, locale });
}

test('ds_config diagnostics list allowed values with 、 in Chinese and ", " in English', async () => {
  const config = { train_micro_batch_size_per_gpu: 1, communication_data_type: 'int8', zero_optimization: { stage: 3, offload_optimizer: { device: 'gpu' } } };
  const zhMessages = (await diagnoseConfig(config, 'zh-cn')).map((d) => String(d.message));
  const device = zhMessages.find((m) => m.startsWith('"device"'));
  assert.match(String(device), /"none"、"cpu"、"nvme"/);
  const dtype = zhMessages.find((m) => m.startsWith('"communication_data_type"'));
  assert.match(String(dtype), /"fp32"、"fp16"、"bf16"/);
  for (const m of [device, dtype]) assert.doesNotMatch(String(m), /", "/);
  const enMessages = (await diagnoseConfig(config, 'en')).map((d) => String(d.message));
  assert.match(String(enMessages.find((m) => m.startsWith('"device"'))), /"none", "cpu", "nvme"/);
});

test('launch diagnostics list keywords with 、 in Chinese', async () => {
  const { ls } = service();
  const [zhDiagnostic] = await ls.doValidation(doc('t.sh', 'torchrun --nproc_per_node=many train.py --deepspeed ds.json\n'), settings({ language: 'zh-cn' }));
  assert.equal(zhDiagnostic.code, 'torchrun-invalid-value');
  assert.match(String(zhDiagnostic.message), /auto、cpu、gpu、xpu/);
  const [enDiagnostic] = await ls.doValidation(doc('t.sh', 'torchrun --nproc_per_node=many train.py --deepspeed ds.json\n'), settings({ language: 'en' }));
  assert.match(String(enDiagnostic.message), /auto, cpu, gpu, xpu/);
});

test('an ignored setting and a CLI usage error list their values with 、 in Chinese', () => {
  const [ignored] = ignoredSettings({ dtype: 'fp8' });
  assert.match(describeIgnoredSetting(ignored, zh), /bf16、fp16、fp32/);
  assert.match(describeIgnoredSetting(ignored, en), /bf16, fp16, fp32/);
  assert.throws(() => parseEstimateArgs(['--offload-param', 'gpu'], zh), /none、cpu、nvme/);
  assert.throws(() => parseEstimateArgs(['--offload-param', 'gpu'], en), /none, cpu, nvme/);
});

test('the language status names what is missing with 、 in Chinese', () => {
  const vm = buildViewModel({ kind: 'ready', view: sampleView({ missing: ['model', 'gpuMemoryGiB'] }) }, zh);
  const detail = String(statusSummary(vm, zh)?.detail);
  assert.match(detail, /缺少 .+、.+/, detail);
  assert.doesNotMatch(detail, /, /, detail);
});
