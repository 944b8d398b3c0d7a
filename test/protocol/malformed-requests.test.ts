/**
 * Requests another client might send wrong: the server answers with nothing or a reason, logs no failure
 * and keeps working.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileUri, startServer } from './lspClient';

test('requests whose params name no document, or a ZeRO option that does not exist, get an empty answer or a reason', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'zero-lens-malformed-'));
  const server = await startServer({ rootPath: root });
  const logs: string[] = [];
  server.connection.onNotification('window/logMessage', (m: { message: string }) => void logs.push(m.message));
  try {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    await server.open(uri, 'ds-config', '{\r\n  // two\r\n  "train_batch_size": 8,\r\n  "zero_optimization": {"stage": 2}\r\n}\r\n');
    await server.diagnostics(uri);
    const send = (method: string, params: unknown) => server.connection.sendRequest(method, params);

    // These threw TypeErrors ("Cannot read properties of undefined (reading 'uri')") back as the error message.
    assert.equal(await send('textDocument/completion', {}), null);
    assert.equal(await send('textDocument/hover', { textDocument: {} }), null);
    assert.deepEqual(await send('textDocument/codeAction', { textDocument: { uri: 5 } }), []);
    assert.equal(await send('zeroLens/estimateView', {}), null);
    assert.deepEqual(await send('zeroLens/applyOption', { stage: 3 }), { edit: null, reason: 'The document is not open.' });

    // These wrote an edit: `"stage": 9`, or a stage read from a missing field.
    for (const option of [{ stage: 9, offloadOptimizer: 'x', offloadParam: null }, {}, { stage: '3', offloadOptimizer: 'none', offloadParam: 'none' }, { stage: 3, offloadOptimizer: 'cpu', offloadParam: 'disk' }]) {
      const result = (await send('zeroLens/applyOption', { uri, ...option })) as { edit: unknown; reason: string };
      assert.equal(result.edit, null, JSON.stringify(option));
      assert.match(result.reason, /^Not a ZeRO option: stage must be 0, 1, 2 or 3/);
    }
    // A well-formed one still works.
    const good = (await send('zeroLens/applyOption', { uri, stage: 3, offloadOptimizer: 'cpu', offloadParam: 'none' })) as { edit: unknown };
    assert.ok(good.edit);

    // Diagnostics as another client might send them back: no data, data of the wrong shape.
    const range = { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } };
    const diagnostics = [
      { range, message: 'x', code: 'invalid-value', source: 'zero-lens' },
      { range, message: 'x', code: 'invalid-value', source: 'zero-lens', data: 'garbage' },
      { range, message: 'x', code: 'duplicate-key', source: 'zero-lens', data: { path: 5, fixes: 'no' } },
    ];
    assert.ok(Array.isArray(await send('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics } })));
    assert.equal(await send('completionItem/resolve', { label: 'x', data: { uri, position: 'nowhere' } }).then((item) => (item as { label: string }).label), 'x');

    assert.deepEqual(logs.filter((l) => /failed/.test(l)), []);
    assert.equal(server.process.exitCode, null);
  } finally {
    await server.stop();
  }
});
