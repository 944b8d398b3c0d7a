import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseHostMessage, parseSettingValue, parseWebviewMessage, SETTING_KEYS, type HostMessage, type WebviewMessage } from '../../client/src/sidebar/messages';
import { buildViewModel } from '../../client/src/sidebar/viewModel';
import { sampleView } from '../fixtures/sidebar/estimateView';

/** What postMessage does to a value: a structured clone (JSON is a fair stand-in for these plain objects). */
const wire = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

test('every webview message survives the trip to the extension unchanged', () => {
  const messages: WebviewMessage[] = [
    { type: 'ready' },
    { type: 'refresh' },
    { type: 'pickModelFolder' },
    { type: 'openSettings' },
    { type: 'undo' },
    { type: 'redo' },
    { type: 'apply', option: { stage: 3, offloadOptimizer: 'cpu', offloadParam: 'nvme' } },
    { type: 'apply', option: { stage: 0, offloadOptimizer: 'none', offloadParam: 'none' } },
    { type: 'setSetting', key: 'gpusPerNode', value: 8 },
    { type: 'setSetting', key: 'gpuMemoryGiB', value: 79.6 },
    { type: 'setSetting', key: 'gradientCheckpointing', value: false },
    { type: 'setSetting', key: 'dtype', value: 'fp16' },
    { type: 'setSetting', key: 'model', value: 'Qwen/Qwen3-8B' },
    { type: 'setSetting', key: 'loraRank', value: 0 },
    { type: 'setSetting', key: 'nodes', value: null },
  ];
  for (const message of messages) assert.deepEqual(parseWebviewMessage(wire(message)), { ok: true, value: message });
});

test('malformed or hostile webview messages are rejected', () => {
  const bad: unknown[] = [
    null,
    'ready',
    42,
    [],
    {},
    { type: 'nope' },
    { type: 'ready', extra: 1 },
    { type: 'undo', uri: 'file:///etc/passwd' },
    { type: 'apply' },
    { type: 'apply', option: { stage: 4, offloadOptimizer: 'none', offloadParam: 'none' } },
    { type: 'apply', option: { stage: '3', offloadOptimizer: 'none', offloadParam: 'none' } },
    { type: 'apply', option: { stage: 3, offloadOptimizer: 'gpu', offloadParam: 'none' } },
    { type: 'apply', option: { stage: 3, offloadOptimizer: 'none', offloadParam: 'none', path: '/etc' } },
    { type: 'apply', option: { stage: 3, offloadOptimizer: 'none', offloadParam: 'none' }, uri: 'file:///etc/passwd' },
    { type: 'setSetting', key: 'validate', value: false },
    { type: 'setSetting', key: '__proto__', value: 1 },
    { type: 'setSetting', key: 'gpusPerNode' },
    { type: 'setSetting', key: 'gpusPerNode', value: 0 },
    { type: 'setSetting', key: 'gpusPerNode', value: 2.5 },
    { type: 'setSetting', key: 'gpusPerNode', value: '8' },
    { type: 'setSetting', key: 'gpusPerNode', value: Number.POSITIVE_INFINITY },
    { type: 'setSetting', key: 'gpuMemoryGiB', value: 0.5 },
    { type: 'setSetting', key: 'loraRank', value: -1 },
    { type: 'setSetting', key: 'dtype', value: 'int8' },
    { type: 'setSetting', key: 'gradientCheckpointing', value: 'true' },
    { type: 'setSetting', key: 'model', value: 42 },
    { type: 'setSetting', key: 'model', value: 'a\u0000b' },
    { type: 'setSetting', key: 'model', value: 'x'.repeat(2000) },
    { type: 'setSetting', key: 'model', value: 'Qwen/Qwen3-8B', target: 'global' },
  ];
  for (const message of bad) {
    const parsed = parseWebviewMessage(message);
    assert.equal(parsed.ok, false, JSON.stringify(message)?.slice(0, 80));
    if (!parsed.ok) assert.ok(parsed.error.length > 0);
  }
});

test('text settings are trimmed and an empty text removes the setting', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'setSetting', key: 'model', value: '  /data/models/qwen3-8b  ' }), {
    ok: true,
    value: { type: 'setSetting', key: 'model', value: '/data/models/qwen3-8b' },
  });
  assert.deepEqual(parseWebviewMessage({ type: 'setSetting', key: 'model', value: '   ' }), { ok: true, value: { type: 'setSetting', key: 'model', value: null } });
});

test('property: the validator never throws and accepts only well-typed setting values', () => {
  fc.assert(
    fc.property(fc.constantFrom(...SETTING_KEYS), fc.anything(), (key, value) => {
      const parsed = parseWebviewMessage({ type: 'setSetting', key, value });
      if (!parsed.ok || parsed.value.type !== 'setSetting') return;
      const accepted = parsed.value.value;
      assert.ok(accepted === null || ['string', 'number', 'boolean'].includes(typeof accepted));
      assert.deepEqual(parseSettingValue(key, accepted), { ok: true, value: accepted });
    }),
  );
  fc.assert(
    fc.property(fc.anything(), (value) => {
      assert.doesNotThrow(() => parseWebviewMessage(value));
      assert.doesNotThrow(() => parseHostMessage(value));
    }),
  );
});

test('extension messages survive the trip to the webview, view model included', () => {
  const messages: HostMessage[] = [
    { type: 'update', vm: buildViewModel({ kind: 'ready', view: sampleView() }), settings: { gpuMemoryGiB: 80, dtype: 'bf16', gradientCheckpointing: true } },
    { type: 'update', vm: buildViewModel({ kind: 'no-document' }), settings: {} },
    { type: 'update', vm: buildViewModel({ kind: 'unavailable', uri: 'file:///a/ds_config.json', reason: 'r' }), settings: { model: 'Qwen/Qwen3-8B' } },
    { type: 'catalog', entries: [{ id: 'Qwen/Qwen3-8B', displayName: 'Qwen3-8B', totalParams: 8.19e9 }] },
    { type: 'notice', level: 'error', text: 'The script uses no --deepspeed flag.' },
  ];
  for (const message of messages) assert.deepEqual(parseHostMessage(wire(message)), { ok: true, value: message });
});

test('the webview drops extension messages it cannot draw', () => {
  const vm = wire(buildViewModel({ kind: 'ready', view: sampleView() })) as Record<string, unknown>;
  const broken = (patch: Record<string, unknown>) => ({ type: 'update', vm: { ...vm, ...patch }, settings: {} });
  for (const message of [
    { type: 'update', settings: {} },
    { type: 'update', vm, settings: null },
    broken({ bars: 'x' }),
    broken({ bars: [{ key: 'k', label: 'l', current: false, option: { stage: 9, offloadOptimizer: 'none', offloadParam: 'none' }, segments: [], offload: {} }] }),
    broken({ bars: [{ key: 'k', label: 'l', current: false, option: { stage: 1, offloadOptimizer: 'none', offloadParam: 'none' }, segments: [{ role: 'params' }], offload: {} }] }),
    broken({ axis: null }),
    { type: 'notice', level: 'warn', text: 'x' },
    { type: 'catalog' },
    { type: 'script', code: 'alert(1)' },
  ]) {
    assert.equal(parseHostMessage(message).ok, false, JSON.stringify(message).slice(0, 100));
  }
  // Catalog entries of the wrong shape are skipped, not fatal; bad setting values are left out.
  assert.deepEqual(parseHostMessage({ type: 'catalog', entries: [{ id: 'a', displayName: 'A', totalParams: 1 }, { id: 3 }] }), {
    ok: true,
    value: { type: 'catalog', entries: [{ id: 'a', displayName: 'A', totalParams: 1 }] },
  });
  const update = parseHostMessage({ type: 'update', vm, settings: { gpusPerNode: -3, nodes: 2, unknown: 1 } });
  assert.ok(update.ok && update.value.type === 'update');
  assert.deepEqual(update.value.settings, { nodes: 2 });
});
