/**
 * An option's label names where each offloaded state goes: docs/worked-cases.md §3 and examples/README.md describe
 * the 130B setup as "optimizer on CPU, parameters on NVMe", and the label the CLI, hover and sidebar show says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { optionLabel } from '../../server/src/protocol';
import { translator } from '../../server/src/l10n';

test('a label with the optimizer and the parameters offloaded to different devices names each device', () => {
  const zh = translator('zh-cn');
  const mixed = { stage: 3, offloadOptimizer: 'cpu', offloadParam: 'nvme' } as const;
  assert.equal(optionLabel(mixed), 'ZeRO-3 + offload (optimizer to CPU, params to NVMe)');
  assert.equal(optionLabel(mixed, zh), 'ZeRO-3 + 卸载（优化器状态到 CPU，参数到 NVMe）');
  assert.equal(optionLabel({ stage: 3, offloadOptimizer: 'nvme', offloadParam: 'cpu' }), 'ZeRO-3 + offload (optimizer to NVMe, params to CPU)');
  // One device for both stays as it was.
  assert.equal(optionLabel({ stage: 3, offloadOptimizer: 'nvme', offloadParam: 'nvme' }), 'ZeRO-3 + NVMe offload (optimizer, params)');
  assert.equal(optionLabel({ stage: 3, offloadOptimizer: 'none', offloadParam: 'nvme' }), 'ZeRO-3 + NVMe offload (params)');
});
