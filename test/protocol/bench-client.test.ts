import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Hover } from 'vscode-languageserver-protocol';
import { startRawServer } from '../../bench/rawClient';

// The bench measures through its own framing client: it must speak LSP to the real server as an editor does.
test('the bench client initializes the bundled server, gets diagnostics and hovers, and shuts it down', async () => {
  const server = await startRawServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-bench-client/ds_config.json';
    const published = server.diagnostics(uri, (d) => d.some((x) => x.code === 'fp16-and-bf16'));
    server.open(uri, 'ds-config', '{\n  "fp16": { "enabled": true },\n  "bf16": { "enabled": true }\n}\n');
    assert.equal((await published).uri, uri);
    const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.match(JSON.stringify(hover?.contents), /fp16/);
    await assert.rejects(server.request('zeroLens/noSuchRequest', {}), /-32601/);
  } finally {
    await server.stop();
  }
  assert.equal(server.process.exitCode, 0);
});
