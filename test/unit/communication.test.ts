import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-types';
import { communicationCell, communicationLegend } from '../../server/src/estimates/communication';
import { translator } from '../../server/src/l10n';
import { withDefaults } from '../../server/src/settings';
import { configDocument, fixture, memoryHosts, estimateFeatures } from './context-hosts';

test('communication per step, full fine-tuning: the ZeRO paper\'s 2Ψ and 3Ψ (§7)', () => {
  const full = { total: 7.6e9, trainable: 7.6e9 };
  assert.equal(communicationCell('after-step', full), '2Ψ (1×)');
  assert.equal(communicationCell('forward-and-backward', full), '3Ψ (1.5×)');
  // SHARD_GRAD_OP: one all-gather in forward and the reduce-scatter.
  assert.equal(communicationCell('forward', full), '2Ψ (1×)');
  // Without counts (no model yet) the table shows the full fine-tuning form.
  assert.equal(communicationCell('forward-and-backward'), '3Ψ (1.5×)');
});

test('communication per step with LoRA: ZeRO-3 gathers the frozen weights too, hundreds of times what the adapters move', () => {
  const lora = { total: 7.6e9, trainable: 20e6 };
  // Stages 0–2 move only the trained gradients and parameters: 2Ψₜ, as DDP.
  assert.equal(communicationCell('after-step', lora), '2Ψₜ (1×)');
  // (2 · 7.6e9 + 20e6) / (2 · 20e6) = 380.5 → 381.
  assert.equal(communicationCell('forward-and-backward', lora), '2Ψ + Ψₜ (381×)');
  // (7.6e9 + 20e6) / (2 · 20e6) = 190.5 → 191.
  assert.equal(communicationCell('forward', lora), 'Ψ + Ψₜ (191×)');
  // A larger trained share: (2 · 8e9 + 2e9) / (2 · 2e9) = 4.5.
  assert.equal(communicationCell('forward-and-backward', { total: 8e9, trainable: 2e9 }), '2Ψ + Ψₜ (4.5×)');
});

test('the stage hover of a LoRA run counts communication in trained and all parameters', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json'), 'train_zero2.sh': fixture('train_zero2.sh').replace('--tuner_type full', '--tuner_type lora') });
  const settings = withDefaults({ gpuMemoryGiB: 80 });
  const document = configDocument('ds_config_zero2.json');
  const features = estimateFeatures(hosts);
  const analysis = await features.analyzeConfig(document, settings);
  const params = analysis.estimate(analysis.current)!.params;
  assert.ok(params.trainable > 0 && params.trainable < params.total / 100, `LoRA trains a sliver: ${JSON.stringify(params)}`);
  const stageLine = document.getText().split('\n').findIndex((l) => l.includes('"stage"'));
  const hover = await features.hover!(document, { line: stageLine, character: 6 }, settings);
  const markdown = (hover!.contents as MarkupContent).value;
  const zeroTable = markdown.split('**The same job under PyTorch FSDP**')[0];
  const commCell = (label: string) => zeroTable.split('\n').find((l) => l.split('|')[2]?.replace(/\*\*/g, '').trim() === label)!.split('|')[8].trim();
  const ratio = Math.round((2 * params.total + params.trainable) / (2 * params.trainable));
  assert.equal(commCell('ZeRO-2'), '2Ψₜ\u00a0(1×)');
  assert.equal(commCell('ZeRO-3'), `2Ψ + Ψₜ\u00a0(${ratio.toLocaleString('en-US')}×)`.replace(/ /g, '\u00a0'));
  assert.match(markdown, /Ψₜ: of the trained ones\. .* ZeRO-3 all-gathers every parameter, frozen ones included, in forward and again in backward \(2Ψ \+ Ψₜ\)\./);
  // FSDP FULL_SHARD gathers like ZeRO-3.
  const fsdpTable = markdown.split('**The same job under PyTorch FSDP**')[1];
  const fullShard = fsdpTable.split('\n').find((l) => l.split('|')[2]?.trim() === 'FSDP FULL_SHARD')!;
  assert.equal(fullShard.split('|')[8].trim(), commCell('ZeRO-3'));
});

test('the legend in Chinese says what each symbol is: Ψₜ is the size of the trained part, and 2Ψ is as much traffic as all-reduce', () => {
  const zh = translator('zh-cn');
  const lora = communicationLegend({ total: 8e9, trainable: 2e7 }, zh);
  // "Ψₜ：其中参与训练的参数" named the parameters, not their size as Ψ's definition does.
  assert.match(lora, /Ψ：一份 16 位参数的大小；Ψₜ：[^；。]*的大小。/, lora);
  for (const legend of [lora, communicationLegend({ total: 8e9, trainable: 8e9 }, zh)]) {
    assert.match(legend, /通信量与普通数据并行的 all-reduce 相同/, legend);
  }
});
