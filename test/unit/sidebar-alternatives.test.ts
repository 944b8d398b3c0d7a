/**
 * The sidebar's second group: the same job under FSDP or Megatron (the server's `alternatives`), drawn on the ZeRO
 * bars' axis with its fit and the run's own row marked, named by the language status when it is the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildViewModel, statusSummary } from '../../client/src/sidebar/viewModel';
import { parseHostMessage } from '../../client/src/sidebar/messages';
import { webviewStrings } from '../../client/src/sidebar/webviewStrings';
import { translator } from '../../server/src/l10n';
import { GiB, alternative, fsdpView, sampleView } from '../fixtures/sidebar/estimateView';

const ready = (view = fsdpView(), t = translator('en')) => buildViewModel({ kind: 'ready', view }, t);
const wire = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

test('the FSDP rows follow the ZeRO bars, in the server order, each with its own key', () => {
  const view = fsdpView();
  const vm = ready(view);
  assert.equal(vm.bars.length, 8);
  assert.deepEqual(
    vm.alternatives.map((a) => [a.family, a.label]),
    view.alternatives!.map((a) => [a.family, a.label]),
  );
  const keys = [...vm.bars, ...vm.alternatives].map((row) => row.key);
  assert.equal(new Set(keys).size, keys.length, 'no alternative shares a key with a bar or another alternative');
  assert.equal(vm.kindLabel, 'launch YAML');
});

test('the run as written is the FSDP row: it is current, and no ZeRO bar is', () => {
  const vm = ready();
  assert.deepEqual(
    vm.alternatives.filter((a) => a.current).map((a) => a.label),
    ['FSDP FULL_SHARD'],
  );
  assert.equal(vm.bars.some((b) => b.current), false);
  const rows = vm.table.rows.filter((r) => r.current);
  assert.deepEqual(
    rows.map((r) => r.cells[0]),
    ['FSDP FULL_SHARD (current)'],
  );
});

test('under an FSDP run the ZeRO bars are a comparison: no Apply; beside a DeepSpeed run they keep it', () => {
  assert.ok(ready().bars.every((b) => !b.applicable));
  const deepspeed = ready(sampleView({ alternatives: fsdpView().alternatives!.map((a) => ({ ...a, current: false })) }));
  assert.ok(deepspeed.bars.every((b) => b.applicable));
});

test('each FSDP row has its per-GPU total, allocated, peak and fit against the GPU, as the ZeRO bars do', () => {
  const vm = ready();
  const byLabel = new Map(vm.alternatives.map((a) => [a.label, a]));
  const fullShard = byLabel.get('FSDP FULL_SHARD')!;
  assert.equal(fullShard.total, '28.0 GiB');
  assert.equal(fullShard.allocated, '24.8 GiB');
  assert.equal(fullShard.peakLine, '24.8 GiB allocated · peak: forward + backward');
  assert.equal(fullShard.fit, 'fits');
  assert.equal(fullShard.fitLabel, 'fits 80.0 GiB');
  assert.equal(fullShard.ariaLabel, 'FSDP FULL_SHARD (current): 28.0 GiB per GPU, 24.8 GiB allocated; peak: forward + backward, fits 80.0 GiB; no CPU RAM or NVMe needed');
  const noShard = byLabel.get('FSDP NO_SHARD')!;
  assert.equal(noShard.fit, 'exceeds');
  assert.equal(noShard.fitLabel, 'exceeds by 61.4 GiB');
  assert.match(noShard.ariaLabel, /^FSDP NO_SHARD: 141\.4 GiB per GPU/);
  const offload = byLabel.get('FSDP FULL_SHARD + CPU offload')!;
  assert.equal(offload.offload.label, 'CPU RAM 121.6 GiB/node');
  assert.equal(offload.offload.ariaLabel, 'FSDP FULL_SHARD + CPU offload: CPU RAM 121.6 GiB/node');
  assert.deepEqual(
    offload.offload.segments.map((s) => s.role),
    ['cpu'],
  );
  // The ZeRO bars' own peak line reads the same way.
  assert.equal(vm.bars[0].peakLine, '127.6 GiB allocated · peak: forward + backward');
});

test('one axis for both groups: a larger FSDP row widens it, and its segments sit on it', () => {
  const big = alternative('fsdp', 'FSDP NO_SHARD', { params: 30, gradients: 30, optimizerStates: 120, activations: 10, buffers: 0, overhead: 10 }, { strategy: 'NO_SHARD', fits: false });
  const vm = ready(fsdpView({ alternatives: [big] }));
  assert.equal(vm.axis.maxBytes, 200 * GiB, 'the 200 GiB FSDP row sets the axis (the ZeRO bars stop at 141.4 GiB)');
  const row = vm.alternatives[0];
  const end = row.segments.reduce((sum, s) => sum + s.fraction, 0);
  assert.ok(Math.abs(end - row.totalBytes / vm.axis.maxBytes) < 1e-6);
  assert.ok(Math.abs(vm.capacity!.fraction - 80 / 200) < 1e-9);
  // The offload axis counts the FSDP rows' CPU RAM too.
  const offloaded = ready(fsdpView({ alternatives: [alternative('fsdp', 'FSDP FULL_SHARD + CPU offload', { params: 0, gradients: 0, optimizerStates: 0, activations: 6, buffers: 0, overhead: 2 }, { cpu: 300 })] }));
  assert.equal(offloaded.offloadAxisMaxBytes, 300 * GiB);
});

test('the table lists the FSDP rows after the ZeRO options, with the same numbers', () => {
  const vm = ready();
  assert.equal(vm.table.rows.length, vm.bars.length + vm.alternatives.length);
  const rows = vm.table.rows.slice(vm.bars.length);
  vm.alternatives.forEach((row, i) => {
    assert.equal(rows[i].key, row.key);
    assert.equal(rows[i].cells[9], row.total);
    assert.equal(rows[i].cells[10], row.allocated);
    assert.equal(rows[i].cells[12], row.fitLabel);
    assert.equal(rows[i].cells.length, vm.table.headers.length);
  });
});

test('the language status names the FSDP or Megatron run and its total, not a ZeRO stage', () => {
  assert.deepEqual(statusSummary(ready()), {
    text: '≈ 28.0 GiB/GPU (24.8 GiB allocated; peak: forward + backward) · fits 80.0 GiB',
    detail: 'FSDP FULL_SHARD',
    warning: false,
  });
  const megatron = alternative('megatron', 'Megatron TP 2 · PP 1', { params: 60, gradients: 10, optimizerStates: 20, activations: 6, buffers: 0, overhead: 4 }, { current: true, fits: false });
  const summary = statusSummary(ready(fsdpView({ kind: 'launch-script', alternatives: [megatron, ...fsdpView().alternatives!.map((a) => ({ ...a, current: false }))] })));
  assert.deepEqual(summary, { text: '≈ 100.0 GiB/GPU (96.0 GiB allocated; peak: forward + backward) · exceeds by 20.0 GiB', detail: 'Megatron TP 2 · PP 1', warning: true });
  // A DeepSpeed run with the FSDP rows beside it is still summed up by its ZeRO stage.
  const deepspeed = ready(sampleView({ alternatives: fsdpView().alternatives!.map((a) => ({ ...a, current: false })) }));
  assert.equal(statusSummary(deepspeed)?.detail, 'ZeRO-3');
});

test('a server without alternatives (older, or no numbers) gives an empty second group', () => {
  assert.deepEqual(ready(sampleView()).alternatives, []);
  assert.deepEqual(ready(fsdpView({ options: [], alternatives: [] })).alternatives, []);
});

test('in Chinese: the group heading, the peak line and the status come from the catalog', () => {
  const zh = translator('zh-cn');
  const vm = ready(fsdpView(), zh);
  const row = vm.alternatives.find((a) => a.current)!;
  assert.match(row.peakLine, /^已分配 24\.8 GiB · 峰值在/);
  assert.match(row.fitLabel, /80\.0 GiB/);
  assert.doesNotMatch(row.fitLabel, /fits/);
  assert.match(statusSummary(vm, zh)!.text, /^≈ 28\.0 GiB\/卡/);
  assert.equal(webviewStrings(zh).alternatives, 'FSDP / 模型并行');
  assert.match(webviewStrings(zh).alternativesNote, /ZeRO 方案/);
});

test('the webview accepts a view model with alternatives, and drops one whose alternatives it cannot draw', () => {
  const vm = ready();
  assert.deepEqual(parseHostMessage(wire({ type: 'update', vm, settings: {} })), { ok: true, value: { type: 'update', vm, settings: {} } });
  const raw = wire(vm) as Record<string, unknown>;
  const rows = raw.alternatives as Record<string, unknown>[];
  for (const patch of [{ alternatives: undefined }, { alternatives: 'x' }, { alternatives: [{ ...rows[0], family: 'zero' }] }, { alternatives: [{ ...rows[0], segments: [{ role: 'params' }] }] }, { alternatives: [{ ...rows[0], peakLine: 3 }] }]) {
    assert.equal(parseHostMessage({ type: 'update', vm: { ...raw, ...patch }, settings: {} }).ok, false, JSON.stringify(Object.keys(patch)));
  }
});
