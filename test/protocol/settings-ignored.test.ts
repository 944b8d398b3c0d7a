/**
 * A setting whose value is not one it allows is ignored, and the editor shows which one, why and what is used
 * instead (window/showMessage, once per value): "gpusPerNode": "8" used to leave every config without a GPU count
 * and the user with no word of why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { fileUri, inEmptyWorkspace, type TestServer } from './lspClient';

const config = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n';
const warnings = (server: TestServer) => server.shown().filter((m) => m.type === 2).map((m) => m.message);

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('an editor that answers workspace/configuration is told once of each ignored value, in the language the settings ask for', async () => {
  await inEmptyWorkspace(
    async (server, root) => {
      const first = fileUri(path.join(root, 'ds_config.json'));
      const second = fileUri(path.join(root, 'ds_config_b.json'));
      await server.open(first, 'json', config);
      await server.open(second, 'json', config);
      await until(() => warnings(server).length > 0, 'a warning');
      await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
      await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: first }, position: { line: 3, character: 6 } });
      assert.deepEqual(warnings(server), ['ZeRO Lens 忽略了一项设置：zeroLens.gpusPerNode 必须是整数（当前值为 "8"）。按未设置处理。']);
    },
    { settings: { gpusPerNode: '8', gpuMemoryGiB: 80, language: 'zh-cn' } },
  );
});

test('an editor without workspace/configuration is told of ignored values in initializationOptions and in didChangeConfiguration', async () => {
  await inEmptyWorkspace(
    async (server, root) => {
      const uri = fileUri(path.join(root, 'ds_config.json'));
      await server.open(uri, 'json', config);
      await until(() => warnings(server).length === 1, 'the warning for nodes');
      await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: { zeroLens: { nodes: 2, dtype: 'bf32' } } });
      await until(() => warnings(server).length === 2, 'the warning for dtype');
      assert.deepEqual(warnings(server), [
        'ZeRO Lens ignores a setting: zeroLens.nodes must be between 1 and 100000 (it is 0). It is read as unset.',
        'ZeRO Lens ignores a setting: zeroLens.dtype must be one of bf16, fp16, fp32 (it is "bf32"). It is read as unset.',
      ]);
    },
    { capabilities: { textDocument: { publishDiagnostics: {} } }, initializationOptions: { settings: { nodes: 0 } } },
  );
});
