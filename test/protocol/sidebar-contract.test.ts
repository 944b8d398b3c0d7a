import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ApplyOptionRequest, CatalogRequest, EstimateViewRequest, type ApplyOptionResult, type CatalogEntry, type EstimateView } from '../../server/src/protocol';
import { buildViewModel, statusSummary } from '../../client/src/sidebar/viewModel';
import { parseHostMessage } from '../../client/src/sidebar/messages';
import { fileUri, startServer } from './lspClient';

const fixtures = path.resolve(__dirname, '../fixtures/context');

// The sidebar's client code fed with the real server's answers: what the webview would draw.
test('the real server estimate view becomes bars, a capacity line, a current option and a table', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-sidebar-'));
  const configPath = path.join(root, 'ds_config_zero2.json');
  const text = await readFile(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
  await writeFile(configPath, text);
  const server = await startServer({ rootPath: root, settings: { model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 }, initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = fileUri(configPath);
    await server.open(uri, 'json', text);
    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
    assert.ok(view, 'the server claims the config');
    const vm = buildViewModel({ kind: 'ready', view });
    assert.equal(vm.status, 'ready');
    // Stages 0–3, optimizer offload for 1–3, parameter offload for 3.
    assert.ok(vm.bars.length >= 7, `bars: ${vm.bars.map((b) => b.key).join(', ')}`);
    assert.deepEqual(
      [...new Set(vm.bars.map((b) => b.option.stage))],
      [0, 1, 2, 3],
    );
    const current = vm.bars.filter((b) => b.current);
    assert.equal(current.length, 1);
    assert.deepEqual(current[0].option, { stage: 2, offloadOptimizer: 'none', offloadParam: 'none' });
    assert.ok(vm.capacity && Math.abs(vm.capacity.bytes - 80 * 1024 ** 3) < 1);
    for (const bar of vm.bars) {
      assert.ok(bar.segments.length > 0);
      assert.ok(bar.segments.every((s) => s.fraction > 0 && s.offset + s.fraction <= 1 + 1e-9));
      assert.notEqual(bar.fit, 'unknown');
    }
    // ZeRO-3 with both offloads needs the least GPU memory and the most CPU RAM.
    const z3both = vm.bars.find((b) => b.option.stage === 3 && b.option.offloadParam !== 'none')!;
    assert.ok(z3both.totalBytes < current[0].totalBytes);
    assert.ok(z3both.offload.cpuBytes > 0);
    assert.equal(vm.table.rows.length, vm.bars.length);
    assert.equal(vm.context.find((r) => r.key === 'model')?.raw, 'Qwen/Qwen3-8B');
    const summary = statusSummary(vm);
    assert.match(summary!.text, /^≈ \d+\.\d+ GiB\/GPU \(\d+\.\d+ GiB allocated; peak: [a-z +()]+\) · (fits 80\.0 GiB|exceeds by \d+\.\d+ GiB)$/);
    // What the extension posts, after the structured clone, passes the webview's own validator.
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify({ type: 'update', vm, settings: {} }))).ok);

    // Apply: the edit moves the file to ZeRO-3, keeping the comments.
    const applied = await server.connection.sendRequest<ApplyOptionResult>(ApplyOptionRequest.method, { uri, ...z3both.option });
    assert.ok(applied.edit?.changes?.[uri], JSON.stringify(applied));
    const after = TextDocument.applyEdits(TextDocument.create(uri, 'json', 1, text), applied.edit.changes[uri]);
    assert.match(after, /"stage": 3/);
    assert.match(after, /\/\/ ZeRO-2 for the 8B run/);

    const catalog = await server.connection.sendRequest<CatalogEntry[]>(CatalogRequest.method);
    assert.ok(catalog.length > 10);
    const qwen = catalog.find((e) => e.id === 'Qwen/Qwen3-8B');
    assert.ok(qwen && qwen.totalParams > 7e9 && qwen.totalParams < 9e9 && qwen.displayName.length > 0);
    assert.ok(parseHostMessage({ type: 'catalog', entries: catalog }).ok);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});

test('without a model the view has no bars and says what is missing', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-sidebar-'));
  const configPath = path.join(root, 'ds_config_zero2.json');
  const text = await readFile(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
  await writeFile(configPath, text);
  const server = await startServer({ rootPath: root, settings: {}, initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = fileUri(configPath);
    await server.open(uri, 'json', text);
    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
    assert.ok(view);
    const vm = buildViewModel({ kind: 'ready', view });
    assert.equal(vm.bars.length, 0);
    assert.ok(view.missing.includes('model'), JSON.stringify(view.missing));
    assert.match(vm.message, /^No estimate yet: set .*a model/);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});
