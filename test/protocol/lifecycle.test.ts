import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { serverPath, startServer } from './lspClient';

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

test('the bundled server exits when the editor closes its stdin without shutting it down', async () => {
  const child = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.end();
  // Exit code 1: the protocol asks for it when `exit` comes without `shutdown`, and the library does the same.
  assert.equal(await exited, 1);
});
