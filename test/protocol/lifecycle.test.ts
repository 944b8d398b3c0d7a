import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createProtocolConnection, ErrorCodes, StreamMessageReader, StreamMessageWriter, type ResponseError } from 'vscode-languageserver-protocol/node';
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

test('before initialize, requests are refused with ServerNotInitialized and notifications dropped, with nothing failing', async () => {
  // They reached a service not created yet: TypeErrors in the log and an empty diagnostics list published.
  const child = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const received: string[] = [];
  for (const method of ['window/logMessage', 'textDocument/publishDiagnostics']) {
    connection.onNotification(method, (params: unknown) => void received.push(`${method} ${JSON.stringify(params)}`));
  }
  connection.listen();
  try {
    const uri = 'file:///w/ds_config.json';
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: '{"zero_optimization": {"stage": 7}}' } });
    const hover = await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 3 } }).then(
      () => undefined,
      (error: ResponseError<unknown>) => error.code,
    );
    assert.equal(hover, ErrorCodes.ServerNotInitialized);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(received, []);
    // And the server still starts normally.
    const result = await connection.sendRequest<{ capabilities: unknown }>('initialize', { processId: null, rootUri: null, capabilities: {} });
    assert.ok(result.capabilities);
  } finally {
    child.kill();
    connection.dispose();
  }
});
