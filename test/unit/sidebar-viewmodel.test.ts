import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildViewModel, findCurrent, niceAxisMax, ROLE_STYLES, SEGMENT_ROLES, statusSummary, type SegmentRole } from '../../client/src/sidebar/viewModel';
import { fileNameOf } from '../../client/src/sidebar/format';
import { formatGiB } from '../../server/src/protocol';
import { GiB, option, sampleView } from '../fixtures/sidebar/estimateView';
import type { StageOption } from '../../server/src/memory/types';

const ready = (view = sampleView()) => buildViewModel({ kind: 'ready', view });
const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

test('one bar per option, in the server order, keyed by stage and offload', () => {
  const view = sampleView();
  const vm = ready(view);
  assert.equal(vm.status, 'ready');
  assert.equal(vm.bars.length, view.options.length);
  vm.bars.forEach((bar, i) => {
    assert.deepEqual(bar.option, { stage: view.options[i].stage, offloadOptimizer: view.options[i].offloadOptimizer, offloadParam: view.options[i].offloadParam });
    assert.equal(bar.label, view.options[i].label);
  });
  assert.equal(new Set(vm.bars.map((b) => b.key)).size, vm.bars.length);
  assert.equal(vm.fileName, 'ds_config_zero3.json');
  assert.equal(vm.kindLabel, 'DeepSpeed config');
});

test('segments are laid end to end as fractions of the axis, zero-sized roles dropped', () => {
  const vm = ready();
  for (const bar of vm.bars) {
    let offset = 0;
    for (const segment of bar.segments) {
      close(segment.offset, offset);
      close(segment.fraction, segment.bytes / vm.axis.maxBytes);
      assert.ok(segment.bytes > 0);
      offset += segment.fraction;
    }
    close(offset, bar.totalBytes / vm.axis.maxBytes, 1e-6);
    // Roles keep the fixed order params → overhead.
    const order = bar.segments.map((s) => SEGMENT_ROLES.indexOf(s.role as SegmentRole));
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
  }
  const offloadBoth = vm.bars.find((b) => b.option.stage === 3 && b.option.offloadParam === 'cpu')!;
  assert.deepEqual(
    offloadBoth.segments.map((s) => s.role),
    ['activations', 'buffers', 'overhead'],
  );
});

test('the axis covers the largest bar and the capacity, on a round step; the capacity line sits at its fraction', () => {
  const vm = ready();
  const largest = Math.max(...vm.bars.map((b) => b.totalBytes));
  assert.ok(vm.axis.maxBytes >= largest && vm.axis.maxBytes >= 80 * GiB);
  assert.equal(vm.axis.maxBytes, 150 * GiB); // largest is 141.4 GiB → step 50 GiB
  assert.deepEqual(
    vm.axis.ticks.map((t) => t.label),
    ['0', '50', '100', '150'],
  );
  assert.ok(vm.capacity);
  close(vm.capacity.fraction, 80 / 150);
  assert.equal(vm.capacity.label, 'GPU capacity 80.0 GiB');
});

test('the axis alone (no capacity known) still fits every bar', () => {
  const vm = ready(sampleView({ gpuMemoryBytes: undefined, context: { ...sampleView().context, gpuMemoryGiB: undefined } }));
  assert.equal(vm.capacity, null);
  for (const bar of vm.bars) assert.ok(bar.segments.reduce((s, x) => s + x.fraction, 0) <= 1 + 1e-9);
});

test('capacity falls back to the context GPU memory when the view has no byte count', () => {
  const vm = ready(sampleView({ gpuMemoryBytes: undefined }));
  assert.equal(vm.capacity?.bytes, 80 * GiB);
});

test('the current option is highlighted, exactly once', () => {
  const vm = ready();
  const current = vm.bars.filter((b) => b.current);
  assert.equal(current.length, 1);
  assert.deepEqual(current[0].option, { stage: 3, offloadOptimizer: 'none', offloadParam: 'none' });
  assert.equal(vm.table.rows.filter((r) => r.current).length, 1);
  assert.match(vm.table.rows.find((r) => r.current)!.cells[0], /\(current\)$/);
});

test('current matching ignores offload a stage does not use and maps nvme to the offloaded option', () => {
  const options = sampleView().options;
  const at = (o: StageOption | undefined) => o && `${o.stage}/${o.offloadOptimizer}/${o.offloadParam}`;
  assert.equal(at(findCurrent(options, { stage: 0, offloadOptimizer: 'cpu', offloadParam: 'cpu' })), '0/none/none');
  assert.equal(at(findCurrent(options, { stage: 2, offloadOptimizer: 'cpu', offloadParam: 'cpu' })), '2/cpu/none');
  assert.equal(at(findCurrent(options, { stage: 3, offloadOptimizer: 'nvme', offloadParam: 'nvme' })), '3/cpu/cpu');
  assert.equal(at(findCurrent(options, { stage: 3, offloadOptimizer: 'nvme', offloadParam: 'none' })), '3/cpu/none');
  assert.equal(findCurrent(options, null), undefined);
  assert.equal(ready(sampleView({ current: null })).bars.some((b) => b.current), false);
});

test('fit state and labels: fits the capacity, or exceeds it by how much', () => {
  const vm = ready();
  const zero0 = vm.bars[0];
  assert.equal(zero0.fit, 'exceeds');
  assert.equal(zero0.fitLabel, `exceeds by ${formatGiB(zero0.totalBytes - 80 * GiB)}`);
  assert.equal(zero0.fitLabel, 'exceeds by 61.4 GiB');
  const zero3 = vm.bars.find((b) => b.current)!;
  assert.equal(zero3.fit, 'fits');
  assert.equal(zero3.fitLabel, 'fits 80.0 GiB');
  assert.equal(zero3.summary, '≈ 27.4 GiB/GPU (24.0 GiB allocated; peak: forward + backward) · fits 80.0 GiB');
  assert.equal(zero3.allocated, '24.0 GiB');
  assert.equal(zero3.peakPhase, 'forward + backward');
});

test('without a server verdict the fit is derived from the capacity, and unknown without one', () => {
  const big = option(0, 'none', 'none', { params: 50, gradients: 50, optimizerStates: 0, activations: 0, buffers: 0, overhead: 0 }, { fits: null });
  const derived = ready(sampleView({ options: [big], current: null }));
  assert.equal(derived.bars[0].fit, 'exceeds');
  assert.equal(derived.bars[0].fitLabel, 'exceeds by 20.0 GiB');
  const unknown = ready(sampleView({ options: [big], current: null, gpuMemoryBytes: undefined, context: { ...sampleView().context, gpuMemoryGiB: undefined } }));
  assert.equal(unknown.bars[0].fit, 'unknown');
  assert.equal(unknown.bars[0].fitLabel, 'capacity unknown');
});

test('colours come from theme variables by role; every GPU role has its own colour and pattern', () => {
  const vm = ready();
  for (const bar of vm.bars) {
    for (const segment of [...bar.segments, ...bar.offload.segments]) {
      assert.equal(segment.style, ROLE_STYLES[segment.role]);
      assert.match(segment.style.colorVar, /^--vscode-[a-zA-Z-]+$/);
    }
  }
  const gpuStyles = SEGMENT_ROLES.map((role) => ROLE_STYLES[role]);
  assert.equal(new Set(gpuStyles.map((s) => s.colorVar)).size, SEGMENT_ROLES.length);
  assert.equal(new Set(gpuStyles.map((s) => s.pattern)).size, SEGMENT_ROLES.length);
  assert.equal(new Set(gpuStyles.map((s) => s.short)).size, SEGMENT_ROLES.length);
  assert.deepEqual(
    vm.legend.map((l) => l.role),
    [...SEGMENT_ROLES],
  );
});

test('segment labels carry their GiB (written as everywhere else) for tooltips and aria-labels', () => {
  const vm = ready();
  const params = vm.bars[0].segments[0];
  assert.equal(params.role, 'params');
  assert.equal(params.value, '15.2 GiB');
  assert.equal(params.description, 'Parameters: 15.2 GiB');
  assert.match(vm.bars[0].ariaLabel, /^ZeRO-0: 141\.4 GiB per GPU, 127\.6 GiB allocated; peak: forward \+ backward, exceeds by 61\.4 GiB; no CPU RAM or NVMe needed$/);
});

test('offload rows: CPU RAM and NVMe on their own axis, with labels', () => {
  const view = sampleView();
  view.options.push(option(3, 'nvme', 'nvme', { params: 0, gradients: 0, optimizerStates: 0, activations: 6, buffers: 2.8, overhead: 1.9 }, { cpu: 20, nvme: 140 }));
  const vm = ready(view);
  assert.equal(vm.offloadAxisMaxBytes, 160 * GiB);
  const nvme = vm.bars[vm.bars.length - 1];
  assert.deepEqual(
    nvme.offload.segments.map((s) => [s.role, s.fraction]),
    [
      ['cpu', 20 / 160],
      ['nvme', 140 / 160],
    ],
  );
  assert.equal(nvme.offload.label, 'CPU RAM 20.0 GiB/node · NVMe 140.0 GiB');
  assert.equal(vm.bars[0].offload.segments.length, 0);
  assert.equal(vm.bars[0].offload.label, 'no CPU RAM or NVMe needed');
});

test('the table holds the same numbers as the bars', () => {
  const vm = ready();
  assert.equal(vm.table.rows.length, vm.bars.length);
  assert.equal(vm.table.headers.length, vm.table.rows[0].cells.length);
  vm.bars.forEach((bar, i) => {
    const cells = vm.table.rows[i].cells;
    SEGMENT_ROLES.forEach((role, j) => {
      const bytes = bar.segments.find((s) => s.role === role)?.bytes ?? 0;
      assert.equal(cells[1 + j], formatGiB(bytes));
    });
    assert.equal(cells[9], formatGiB(bar.totalBytes));
    assert.equal(cells[10], bar.allocated);
    assert.equal(cells[11], bar.peakPhase);
    assert.equal(cells[12], bar.fitLabel);
    assert.equal(cells[13], formatGiB(bar.offload.cpuBytes));
  });
});

test('states without an estimate show a sentence and no invented numbers', () => {
  for (const state of [
    { kind: 'no-document' } as const,
    { kind: 'loading', uri: 'file:///a/ds_config.json' } as const,
    { kind: 'unavailable', uri: 'file:///a/ds_config.json', reason: 'the language server does not answer estimate requests in this version.' } as const,
    { kind: 'not-claimed', uri: 'file:///a/package.json' } as const,
  ]) {
    const vm = buildViewModel(state);
    assert.equal(vm.bars.length, 0, state.kind);
    assert.equal(vm.table.rows.length, 0);
    assert.equal(vm.capacity, null);
    assert.notEqual(vm.message, '');
  }
  assert.match(buildViewModel({ kind: 'unavailable', uri: 'file:///a/x.json', reason: 'r.' }).message, /^No estimate yet: r\.$/);
  assert.equal(buildViewModel({ kind: 'not-claimed', uri: 'file:///a/package.json' }).message, 'package.json is not a DeepSpeed config or launch script.');
});

test('a view without options names what is missing', () => {
  const vm = ready(sampleView({ options: [], missing: ['model', 'gpuMemoryGiB'], context: { ...sampleView().context, model: undefined } }));
  assert.equal(vm.bars.length, 0);
  assert.equal(vm.capacity, null);
  assert.equal(vm.message, 'No estimate yet: set a model and GPU memory below.');
  assert.deepEqual(statusSummary(vm), { text: 'ZeRO Lens: no estimate', detail: vm.message, warning: false });
});

test('context rows keep each value with its source; file values are marked as winning over settings', () => {
  const vm = ready();
  const byKey = new Map(vm.context.map((r) => [r.key, r]));
  assert.equal(byKey.get('model')?.display, 'Qwen3-8B (8.19B)');
  assert.equal(byKey.get('model')?.raw, 'Qwen/Qwen3-8B');
  assert.equal(byKey.get('model')?.source, 'train.sh line 4');
  assert.equal(byKey.get('model')?.settable, false);
  assert.equal(byKey.get('gpuMemoryGiB')?.settable, true);
  assert.equal(byKey.get('nodes')?.settable, true);
  assert.equal(byKey.get('gradientCheckpointing')?.display, 'on');
  assert.equal(byKey.get('loraRank')?.display, 'full fine-tuning');
  const noModel = ready(sampleView({ context: { ...sampleView().context, model: undefined } }));
  assert.deepEqual(noModel.context[0], { key: 'model', label: 'Model', display: 'not set', raw: null, source: 'not set', settable: true });
  const noLora = ready(sampleView({ context: { ...sampleView().context, loraRank: undefined } }));
  assert.equal(noLora.context.find((r) => r.key === 'loraRank')?.display, 'full fine-tuning');
});

test('status summary: the current estimate and whether it fits; warning when it does not', () => {
  assert.deepEqual(statusSummary(ready()), { text: '≈ 27.4 GiB/GPU (24.0 GiB allocated; peak: forward + backward) · fits 80.0 GiB', detail: 'ZeRO-3', warning: false });
  const zero0 = statusSummary(ready(sampleView({ current: { stage: 0, offloadOptimizer: 'none', offloadParam: 'none' } })));
  assert.deepEqual(zero0, { text: '≈ 141.4 GiB/GPU (127.6 GiB allocated; peak: forward + backward) · exceeds by 61.4 GiB', detail: 'ZeRO-0', warning: true });
  assert.equal(statusSummary(ready(sampleView({ current: null })))?.text, 'ZeRO Lens: no ZeRO stage set');
  assert.equal(statusSummary(buildViewModel({ kind: 'no-document' })), null);
});

test('file names in headings are decoded', () => {
  assert.equal(fileNameOf('file:///a/b/ds%20config.json'), 'ds config.json');
});

test('nice axis maxima are round and never below the value', () => {
  assert.equal(niceAxisMax(0), GiB);
  assert.equal(niceAxisMax(80 * GiB), 80 * GiB);
  assert.equal(niceAxisMax(81 * GiB), 100 * GiB);
  close(niceAxisMax(0.3 * GiB), 0.3 * GiB, 1);
  close(niceAxisMax(0.31 * GiB), 0.4 * GiB, 1);
  assert.equal(niceAxisMax(141.4 * GiB), 150 * GiB);
});

test('property: any breakdown yields fractions within the axis and a capacity line on it', () => {
  const gib = fc.double({ min: 0, max: 2000, noNaN: true });
  const breakdown = fc.record({ params: gib, gradients: gib, optimizerStates: gib, activations: gib, buffers: gib, overhead: gib });
  fc.assert(
    fc.property(fc.array(breakdown, { minLength: 1, maxLength: 8 }), fc.option(fc.double({ min: 1, max: 4096, noNaN: true }), { nil: undefined }), (parts, capacity) => {
      const options = parts.map((p, i) => option((i % 4) as 0 | 1 | 2 | 3, 'none', 'none', p, { fits: null, label: `o${i}` }));
      const vm = ready(sampleView({ options, current: null, gpuMemoryBytes: capacity === undefined ? undefined : capacity * GiB, context: { ...sampleView().context, gpuMemoryGiB: undefined } }));
      for (const bar of vm.bars) {
        const end = bar.segments.reduce((s, x) => s + x.fraction, 0);
        assert.ok(end <= 1 + 1e-9);
        for (const s of bar.segments) assert.ok(s.fraction > 0 && s.offset >= 0 && s.offset + s.fraction <= 1 + 1e-9);
        if (capacity !== undefined) assert.equal(bar.fit, bar.totalBytes <= capacity * GiB ? 'fits' : 'exceeds');
      }
      if (capacity !== undefined) assert.ok(vm.capacity && vm.capacity.fraction > 0 && vm.capacity.fraction <= 1);
    }),
    { endOnFailure: true },
  );
});
