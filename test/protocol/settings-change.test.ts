/**
 * A settings change (workspace/didChangeConfiguration) reaches every open document at once: diagnostics (pushed,
 * or a workspace/diagnostic/refresh for an editor that pulls), inlay hints (workspace/inlayHint/refresh, where the
 * editor takes it) and the sidebar's view (zeroLens/estimateView). An editor that answers workspace/configuration
 * sends the notification without settings (VS Code sends null); one without it sends the new settings, or gives
 * them once in initializationOptions.settings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { EstimateView } from '../../server/src/protocol';
import { fileUri, inEmptyWorkspace, type TestServer } from './lspClient';

const config = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "bf16": {"enabled": true},\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n';
const exceeds = (codes: unknown[]) => codes.includes('estimate-exceeds-gpu-memory');
const codesOf = (d: { code?: unknown }[]) => d.map((x) => x.code);
const view = (server: TestServer, uri: string) => server.connection.sendRequest<EstimateView | null>('zeroLens/estimateView', { uri });

test('an editor that answers workspace/configuration: a change without settings re-reads them for diagnostics, hints and the sidebar', async () => {
  let settings: Record<string, unknown> = { model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 };
  let inlayRefreshes = 0;
  await inEmptyWorkspace(
    async (server, root) => {
      const uri = fileUri(path.join(root, 'ds_config.json'));
      const first = server.diagnostics(uri, () => true);
      await server.open(uri, 'json', config);
      assert.ok(!exceeds(codesOf((await first).diagnostics)));
      assert.equal((await view(server, uri))?.gpuMemoryBytes, 80 * 2 ** 30);

      settings = { ...settings, gpuMemoryGiB: 24 };
      const again = server.diagnostics(uri, (d) => exceeds(codesOf(d)), 3000);
      await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
      await again;
      assert.ok(inlayRefreshes > 0, 'the editor was asked to refresh inlay hints');
      assert.equal((await view(server, uri))?.gpuMemoryBytes, 24 * 2 ** 30);
    },
    {
      initializationOptions: { validationDelayMs: 0 },
      answer: (method, params) => {
        if (method === 'workspace/configuration') return (params as { items: unknown[] }).items.map(() => settings);
        if (method === 'workspace/inlayHint/refresh') inlayRefreshes++;
        return undefined;
      },
    },
  );
});

test('an editor without workspace/configuration or workspace folders (a rootUri only): settings from initializationOptions, then from each change', async () => {
  const serverRequests: string[] = [];
  await inEmptyWorkspace(
    async (server, root) => {
      const uri = fileUri(path.join(root, 'ds_config.json'));
      const first = server.diagnostics(uri, () => true);
      await server.open(uri, 'json', config);
      assert.ok(exceeds(codesOf((await first).diagnostics)), 'Qwen3-8B on 8 GPUs of 24 GiB, from initializationOptions');
      const again = server.diagnostics(uri, () => true, 3000);
      await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: { zeroLens: { model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 } } });
      assert.ok(!exceeds(codesOf((await again).diagnostics)), 'the new GPU memory applies');
      assert.equal((await view(server, uri))?.gpuMemoryBytes, 80 * 2 ** 30);
      // A change to other sections only leaves ours as they were.
      const unrelated = server.diagnostics(uri, () => true, 3000);
      await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: { python: { analysis: {} } } });
      assert.ok(!exceeds(codesOf((await unrelated).diagnostics)));
      // Neither workspace/configuration nor an inlay hint refresh is asked of an editor that announced neither.
      assert.deepEqual(serverRequests, []);
    },
    {
      capabilities: { textDocument: { publishDiagnostics: {}, inlayHint: {} } },
      initializationOptions: { validationDelayMs: 0, settings: { model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 24 } },
      answer: (method) => {
        if (method !== 'client/registerCapability') serverRequests.push(method);
        return undefined;
      },
    },
  );
});
