/**
 * The server as editors other than VS Code drive it (Neovim, Helix, Emacs lsp-mode, Zed): few capabilities, a
 * rootUri and no workspace folders, the editor's own language ids, no snippets. Nothing may fail in the log.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { InsertTextFormat, type ClientCapabilities, type CompletionList } from 'vscode-languageserver-protocol';
import { fileUri, inEmptyWorkspace, type TestServer } from './lspClient';
import { releaseWatchGlobs } from '../../server/src/protocol';

/** A server over an empty folder, initialized with `capabilities` only. */
const withMinimalClient = (capabilities: ClientCapabilities, run: (server: TestServer, root: string) => Promise<void>) => inEmptyWorkspace(run, { capabilities });

const errors = (server: TestServer) => server.logs().filter((log) => log.type === 1).map((log) => log.message);

test('a client that announces no capabilities at all gets no error for workspace folders it cannot report', async () => {
  await withMinimalClient({}, async (server, root) => {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    const diagnostics = server.diagnostics(uri, (d) => d.length > 0);
    await server.open(uri, 'json', '{"zero_optimization": {"stage": 7}}');
    await diagnostics;
    // The initialized handler threw "Client doesn't support sending workspace folder change events.".
    assert.deepEqual(errors(server), []);
  });
});

test('a client without snippet support gets completions it can insert as they are', async () => {
  // Neovim's own completion before 0.11 announces no snippetSupport and inserted `${1|true,false|}` literally.
  await withMinimalClient({ textDocument: { completion: { completionItem: { snippetSupport: false } } } }, async (server, root) => {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    const text = '{\n  "zero_optimization": {\n    "stage": 2,\n    \n  }\n}\n';
    await server.open(uri, 'json', text);
    const list = await server.connection.sendRequest<CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 3, character: 4 } });
    const edits = list.items.map((item) => (item.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : item.insertText));
    assert.ok(edits.includes('"contiguous_gradients": true'), JSON.stringify(edits.slice(0, 5)));
    assert.deepEqual(list.items.filter((item) => item.insertTextFormat === InsertTextFormat.Snippet).map((item) => item.label), []);
    assert.deepEqual(errors(server), []);
  });
});

test('the server asks the editor to watch launch scripts and configs, as other editors expect of a server', async () => {
  // Neovim, Helix, Zed and lsp-mode send workspace/didChangeWatchedFiles only for what a server registers; without
  // it a launch script saved outside the editor never reached the config's estimate.
  await withMinimalClient({ workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } }, async (server) => {
    const deadline = Date.now() + 5000;
    while (!server.registrations().some((r) => r.method === 'workspace/didChangeWatchedFiles') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const registration = server.registrations().find((r) => r.method === 'workspace/didChangeWatchedFiles');
    const globs = (registration?.registerOptions as { watchers: { globPattern: string }[] } | undefined)?.watchers.map((w) => w.globPattern);
    // And model weights, a Hugging Face cache's ref, and what the DeepSpeed release is read from
    // (release-pin-watched.test.ts checks which files those match).
    assert.deepEqual(globs, ['**/*.{sh,bash,zsh,slurm,sbatch,pbs,yaml,yml,json,safetensors}', '**/models--*--*/refs/main', ...releaseWatchGlobs()]);
  });
  await withMinimalClient({}, async (server, root) => {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    const diagnostics = server.diagnostics(uri);
    await server.open(uri, 'json', '{}');
    await diagnostics;
    assert.deepEqual(server.registrations().map((r) => r.method), [], 'nothing is registered with an editor that cannot take it');
  });
});
