/**
 * Dynamic registrations as the LSP asks for them: only where the client announced `dynamicRegistration` for that
 * capability, and a client that answers a registration with an error leaves the server running.
 * (LSP 3.17, client/registerCapability.md: "A client opts in via the `dynamicRegistration` property on the
 * specific client capabilities.")
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ResponseError } from 'vscode-languageserver-protocol/node';
import { fileUri, inEmptyWorkspace } from './lspClient';

const config = '{"zero_optimization": {"stage": 7}}';

test('a client that refuses a registration keeps a running server', async () => {
  let refused = 0;
  const refuse = (method: string): undefined => {
    if (method !== 'client/registerCapability') return undefined;
    refused++;
    throw new ResponseError(-32601, 'Unhandled method client/registerCapability');
  };
  const capabilities = {
    workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, didChangeWatchedFiles: { dynamicRegistration: true } },
    textDocument: { publishDiagnostics: {}, formatting: { dynamicRegistration: true } },
  };
  await inEmptyWorkspace(
    async (server, root) => {
      const exitMessage = (): string => `the server exited with ${server.process.exitCode}: ${server.stderr()}`;
      const exited = new Promise<string>((resolve) => (server.process.exitCode !== null ? resolve(exitMessage()) : server.process.once('exit', () => resolve(exitMessage()))));
      const uri = fileUri(path.join(root, 'ds_config.json'));
      const diagnostics = server.diagnostics(uri, (d) => d.length > 0).then(() => 'diagnostics');
      await server.open(uri, 'json', config);
      assert.equal(await Promise.race([diagnostics, exited]), 'diagnostics');
      assert.ok(refused > 0, 'the server asked to register');
      // The rejected registration was an unhandled rejection that ended the process.
      const hover = server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 25 } }).then(() => 'answered');
      assert.equal(await Promise.race([hover, exited]), 'answered');
    },
    { capabilities, answer: refuse },
  );
});

test('settings changes are registered for only where the client can register them', async () => {
  // Eglot and Helix read workspace/configuration but announce no didChangeConfiguration.dynamicRegistration.
  await inEmptyWorkspace(
    async (server, root) => {
      const uri = fileUri(path.join(root, 'ds_config.json'));
      const diagnostics = server.diagnostics(uri, (d) => d.length > 0);
      await server.open(uri, 'json', config);
      await diagnostics;
      assert.deepEqual(server.registrations().map((r) => r.method), []);
    },
    { capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: {} } } },
  );
});
