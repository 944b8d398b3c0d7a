/**
 * Workspace folders added and removed (workspace/didChangeWorkspaceFolders): a launch script in a folder just
 * added feeds the config it names, one in a folder removed no longer does; diagnostics (pushed, or pulled after
 * workspace/diagnostic/refresh) and inlay hints (workspace/inlayHint/refresh) follow at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { DocumentDiagnosticReport, InlayHint } from 'vscode-languageserver-protocol';
import { fileUri, startServer, type TestServer } from './lspClient';

const fixtures = path.resolve(__dirname, '../fixtures/context');
const config = readFileSync(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
/** Qwen3-8B on five GPUs at ZeRO-2: more than a 24 GiB GPU holds. */
const script = readFileSync(path.join(fixtures, 'train_zero2.sh'), 'utf8');
const exceeds = 'estimate-exceeds-gpu-memory';

/** Folder `a` is the workspace; `b` holds a config and the script that launches it, outside the workspace until added. */
function twoFolders(): { root: string; a: string; b: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-folders-')));
  const a = path.join(root, 'a');
  const b = path.join(root, 'b');
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(path.join(b, 'ds_config_zero2.json'), config);
  writeFileSync(path.join(b, 'train_zero2.sh'), script);
  return { root, a, b };
}

async function hintLabels(server: TestServer, uri: string): Promise<string[]> {
  const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
  return hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((part) => part.value).join('')));
}

const folder = (dir: string) => ({ uri: fileUri(dir), name: path.basename(dir) });

for (const pull of [false, true]) {
  test(`a folder added or removed re-checks open documents at once (${pull ? 'pulled' : 'pushed'} diagnostics)`, async () => {
    const { root, a, b } = twoFolders();
    let folders = [a];
    let inlayRefreshes = 0;
    const server = await startServer({
      rootPath: a,
      pull,
      settings: { gpuMemoryGiB: 24 },
      initializationOptions: { validationDelayMs: 0 },
      answer: (method) => {
        if (method === 'workspace/workspaceFolders') return folders.map(folder);
        if (method === 'workspace/inlayHint/refresh') inlayRefreshes++;
        return undefined;
      },
    });
    const uri = fileUri(path.join(b, 'ds_config_zero2.json'));
    const codes = async (): Promise<string[]> => {
      const report = (await server.pull(uri)) as DocumentDiagnosticReport & { items?: { code?: unknown }[] };
      return (report.items ?? []).map((d) => String(d.code));
    };
    /** The next diagnostics after a folder change: pushed, or pulled once the server asks for a refresh. */
    const nextCodes = (change: () => Promise<void>): Promise<string[]> => {
      if (pull) {
        const refreshed = server.nextRefresh(3000);
        return change().then(() => refreshed).then(codes);
      }
      const pushed = server.diagnostics(uri, () => true, 3000);
      return change().then(() => pushed).then((p) => p.diagnostics.map((d) => String(d.code)));
    };
    try {
      const first = pull ? undefined : server.diagnostics(uri, () => true);
      await server.open(uri, 'json', config);
      const before = pull ? await codes() : (await first!).diagnostics.map((d) => String(d.code));
      assert.ok(!before.includes(exceeds), 'outside the workspace, no script sizes the config');
      assert.deepEqual(await hintLabels(server, uri), ['set model & GPUs for a memory estimate…']);

      folders = [a, b];
      const refreshesBefore = inlayRefreshes;
      const added = await nextCodes(() => server.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [folder(b)], removed: [] } }));
      assert.ok(added.includes(exceeds), `the added folder's script sizes the config: ${added}`);
      assert.match((await hintLabels(server, uri))[0]!, /Qwen3-8B · 5 GPUs/);
      assert.ok(inlayRefreshes > refreshesBefore, 'the editor was asked to refresh inlay hints');

      folders = [a];
      const removed = await nextCodes(() => server.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [folder(b)] } }));
      assert.ok(!removed.includes(exceeds), `the removed folder's script no longer sizes the config: ${removed}`);
      assert.deepEqual(await hintLabels(server, uri), ['set model & GPUs for a memory estimate…']);
    } finally {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test('the folder change itself says what changed: a client that fails workspace/workspaceFolders leaves the server running', async () => {
  const { root, a, b } = twoFolders();
  const server = await startServer({
    rootPath: a,
    settings: { gpuMemoryGiB: 24 },
    initializationOptions: { validationDelayMs: 0 },
    answer: (method) => {
      if (method === 'workspace/workspaceFolders') throw new Error('workspace/workspaceFolders is not available');
      return undefined;
    },
  });
  const uri = fileUri(path.join(b, 'ds_config_zero2.json'));
  try {
    const first = server.diagnostics(uri, () => true);
    await server.open(uri, 'json', config);
    await first;
    const added = server.diagnostics(uri, (d) => d.some((x) => x.code === exceeds), 3000);
    await server.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [folder(b)], removed: [] } });
    await added;
    assert.equal(server.process.exitCode, null, server.stderr());
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
