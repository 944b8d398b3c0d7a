import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ApplyOptionRequest, CatalogRequest, EstimateViewRequest, type ApplyOptionResult, type CatalogEntry, type EstimateView } from '../../server/src/protocol';
import { buildViewModel, statusSummary } from '../../client/src/sidebar/viewModel';
import { parseHostMessage } from '../../client/src/sidebar/messages';
import { fileUri, startServer, type TestServer } from './lspClient';

const fixtures = path.resolve(__dirname, '../fixtures/context');

/** A copy of `source` as `name` in a new workspace, opened in a server with `settings`; stopped and removed after `run`. */
async function withOpenFile(
  source: string,
  name: string,
  languageId: string,
  settings: Record<string, unknown>,
  run: (server: TestServer, uri: string, text: string) => Promise<void>,
): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-sidebar-'));
  const file = path.join(root, name);
  const text = await readFile(source, 'utf8');
  await writeFile(file, text);
  const server = await startServer({ rootPath: root, settings, initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = fileUri(file);
    await server.open(uri, languageId, text);
    await run(server, uri, text);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

// The sidebar's client code fed with the real server's answers: what the webview would draw.
test('the real server estimate view becomes bars, a capacity line, a current option and a table', async () => {
  await withOpenFile(path.join(fixtures, 'ds_config_zero2.json'), 'ds_config_zero2.json', 'json', { model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 }, async (server, uri, text) => {
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
    // The same job under FSDP follows the ZeRO bars; a DeepSpeed run is none of them.
    assert.ok(vm.alternatives.some((a) => a.label === 'FSDP FULL_SHARD'), vm.alternatives.map((a) => a.label).join(', '));
    assert.ok(vm.alternatives.every((a) => !a.current && a.family === 'fsdp'));
    assert.equal(vm.table.rows.length, vm.bars.length + vm.alternatives.length);
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
  });
});

test('without a model the view has no bars and says what is missing', async () => {
  await withOpenFile(path.join(fixtures, 'ds_config_zero2.json'), 'ds_config_zero2.json', 'json', {}, async (server, uri) => {
    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
    assert.ok(view);
    const vm = buildViewModel({ kind: 'ready', view });
    assert.equal(vm.bars.length, 0);
    assert.ok(view.missing.includes('model'), JSON.stringify(view.missing));
    assert.match(vm.message, /^No estimate yet: set .*a model/);
  });
});

// An accelerate FSDP YAML: the run as written is an FSDP row of the second group; the ZeRO bars are the comparison.
test('an accelerate FSDP YAML: the sidebar draws the FSDP group with the run current, and the status names it', async () => {
  await withOpenFile(path.resolve(__dirname, '../e2e/fixtures/accelerate_fsdp.yaml'), 'fsdp_config.yaml', 'yaml', { model: 'Qwen/Qwen3-8B', gpuMemoryGiB: 80 }, async (server, uri) => {
    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
    assert.ok(view, 'the server claims the YAML');
    const vm = buildViewModel({ kind: 'ready', view });
    assert.equal(vm.bars.filter((b) => b.current).length, 0, 'no ZeRO bar is the run');
    // The server has no ZeRO edit for an FSDP YAML, so the sidebar offers none.
    assert.ok(vm.bars.every((b) => !b.applicable));
    const refused = await server.connection.sendRequest<ApplyOptionResult>(ApplyOptionRequest.method, { uri, ...vm.bars[0].option });
    assert.equal(refused.edit, null);
    assert.deepEqual(
      [...new Set(vm.bars.map((b) => b.option.stage))],
      [0, 1, 2, 3],
    );
    const current = vm.alternatives.filter((a) => a.current);
    assert.deepEqual(
      current.map((a) => a.label),
      ['FSDP FULL_SHARD'],
    );
    const labels = vm.alternatives.map((a) => a.label);
    for (const label of ['FSDP SHARD_GRAD_OP', 'FSDP FULL_SHARD + CPU offload']) assert.ok(labels.includes(label), labels.join(', '));
    for (const row of vm.alternatives) {
      assert.ok(row.segments.length > 0 && row.segments.every((s) => s.fraction > 0 && s.offset + s.fraction <= 1 + 1e-9), row.label);
      assert.notEqual(row.fit, 'unknown');
    }
    assert.ok(vm.alternatives.find((a) => a.label === 'FSDP FULL_SHARD + CPU offload')!.offload.cpuBytes > 0);
    const run = view.alternatives!.find((a) => a.current)!;
    assert.equal(current[0].totalBytes, run.result.perGpu.total);
    assert.deepEqual(statusSummary(vm), { text: current[0].summary, detail: 'FSDP FULL_SHARD', warning: current[0].fit === 'exceeds' });
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify({ type: 'update', vm, settings: {} }))).ok);
  });
});
