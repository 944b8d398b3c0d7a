import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CancellationTokenSource, LSPErrorCodes, ResponseError, type CodeAction, type Diagnostic, type Hover } from 'vscode-languageserver-protocol';
import { fileUri, openedDiagnostics, startServer } from './lspClient';
import { bigConfig } from '../reliability/hostileWorkspace';

// `$/cancelRequest` through the real bundled server: a heavy request the editor gives up on stops at its next
// checkpoint and is answered as LSP asks (RequestCancelled), and the next request is not kept waiting.

test('a cancelled code action on a 3.9 MB config is answered RequestCancelled, and a hover right after is answered', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'zero-lens-cancel-'));
  const server = await startServer({ rootPath: dir });
  try {
    const file = path.join(dir, 'ds_config.json');
    const text = bigConfig(3_900_000, 50);
    await writeFile(file, text);
    const uri = fileUri(file);
    const diagnostics: Diagnostic[] = await openedDiagnostics(server, uri, 'ds-config', text, (d) => d.length >= 40);

    const source = new CancellationTokenSource();
    const whole = { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } };
    const actions = server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: whole, context: { diagnostics } }, source.token);
    // Cancelled as an editor does when the cursor moves on: after the request is on its way.
    setTimeout(() => source.cancel(), 5);
    const outcome = await actions.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    assert.ok('error' in outcome, `the cancelled request was answered with ${'result' in outcome ? `${outcome.result.length} actions` : ''}`);
    assert.ok(outcome.error instanceof ResponseError && outcome.error.code === LSPErrorCodes.RequestCancelled, String(outcome.error));

    const started = performance.now();
    const stage = text.indexOf('"stage"') + 2;
    const position = { line: text.slice(0, stage).split('\n').length - 1, character: stage - text.lastIndexOf('\n', stage) - 1 };
    const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
    assert.ok(hover, 'the stage hover is answered');
    assert.ok(performance.now() - started < 2000, `hover after ${(performance.now() - started).toFixed(0)} ms`);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a pull made stale by the next edit is answered ServerCancelled with a retrigger, and the new version is pulled in full', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'zero-lens-cancel-'));
  const server = await startServer({ rootPath: dir, pull: true });
  try {
    const uri = fileUri(path.join(dir, 'ds_config.json'));
    const text = bigConfig(3_900_000, 50);
    await server.open(uri, 'ds-config', text);
    const stale = server.pull(uri).then(
      (report) => ({ report }),
      (error: unknown) => ({ error }),
    );
    const edited = text.replace('"stage": 2', '"stage": 3');
    setTimeout(() => void server.change(uri, 2, edited), 5);
    const outcome = await stale;
    assert.ok('error' in outcome, 'the stale pull was answered with a report');
    assert.ok(outcome.error instanceof ResponseError && outcome.error.code === LSPErrorCodes.ServerCancelled, String(outcome.error));
    assert.deepEqual(outcome.error.data, { retriggerRequest: true });
    const fresh = await server.pull(uri);
    assert.equal(fresh.kind, 'full');
    assert.ok(fresh.kind === 'full' && fresh.items.length >= 40, 'the new version has its diagnostics');
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
