/**
 * A model folder outside the workspace (an absolute `zeroLens.model`) is watched through a RelativePattern with its
 * folder as baseUri (LSP 3.17 workspace/didChangeWatchedFiles.md L27-33, L77-96 @60f2bb8a), since an editor watches
 * glob strings only inside the workspace folders; its config.json changing re-checks the config that uses it. Only
 * where the client declares relativePatternSupport, and only in a trusted workspace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import picomatch from 'picomatch';
import type { ClientCapabilities, Registration } from 'vscode-languageserver-protocol';
import { fileUri, startServer, type TestServer } from './lspClient';

const Changed = 2;
const llama = (hidden: number, layers: number) =>
  JSON.stringify({ model_type: 'llama', hidden_size: hidden, intermediate_size: hidden * 3, num_hidden_layers: layers, num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 32000 });
const dsConfig = '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}';
const watching = { dynamicRegistration: true, relativePatternSupport: true };
const capabilities = (didChangeWatchedFiles: object): ClientCapabilities => ({
  workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false }, didChangeWatchedFiles },
  textDocument: { publishDiagnostics: {} },
});

/** The registration that watches `folder` through a RelativePattern, if any. */
function watchOf(server: TestServer, folder: string): Registration | undefined {
  return server.registrations().find((r) => {
    const watchers = (r.registerOptions as { watchers?: { globPattern: { baseUri?: string } }[] } | undefined)?.watchers ?? [];
    return watchers.some((w) => typeof w.globPattern === 'object' && w.globPattern.baseUri === fileUri(folder));
  });
}

async function until<T>(what: string, get: () => T | undefined, timeoutMs = 5000): Promise<T> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const value = get();
    if (value !== undefined) return value;
  }
  throw new Error(`no ${what} within ${timeoutMs} ms`);
}

async function withModelOutside(run: (server: TestServer, paths: { root: string; model: string; settings: Record<string, unknown> }) => Promise<void>, client: ClientCapabilities, initializationOptions: Record<string, unknown> = {}): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-ws-')));
  const model = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-model-')));
  mkdirSync(model, { recursive: true });
  writeFileSync(path.join(model, 'config.json'), llama(256, 2));
  writeFileSync(path.join(root, 'ds_config.json'), dsConfig);
  const settings: Record<string, unknown> = { model, gpusPerNode: 1, gpuMemoryGiB: 24 };
  const server = await startServer({ rootPath: root, settings, capabilities: client, initializationOptions: { validationDelayMs: 0, ...initializationOptions } });
  try {
    await run(server, { root, model, settings });
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(model, { recursive: true, force: true });
  }
}

const fitWarning = (d: { code?: unknown }[]) => d.some((x) => x.code === 'estimate-exceeds-gpu-memory');

test('a model folder outside the workspace gets a watcher with its baseUri; its config.json changed re-checks the config; a model from elsewhere unregisters it', async () => {
  await withModelOutside(async (server, { root, model, settings }) => {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    const first = server.diagnostics(uri);
    await server.open(uri, 'json', dsConfig);
    assert.equal(fitWarning((await first).diagnostics), false, 'a tiny model fits');
    const registration = await until('watcher for the model folder', () => watchOf(server, model));
    const watcher = (registration.registerOptions as { watchers: { globPattern: { pattern: string } }[] }).watchers[0];
    assert.match(watcher.globPattern.pattern, /config\.json/);

    // A 70B-sized config.json replaces the tiny one (a download, a checkout): the config's fit warning follows.
    writeFileSync(path.join(model, 'config.json'), llama(8192, 80));
    const warned = server.diagnostics(uri, fitWarning, 5000);
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(path.join(model, 'config.json')), type: Changed }] });
    await warned;
    assert.equal(server.registrations().filter((r) => r === watchOf(server, model)).length, 1, 'still watched, not registered twice');

    // The setting now names a catalog model: the folder is no longer read, and its watcher goes.
    settings.model = 'Qwen/Qwen3-8B';
    await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await until('unregistration of the model folder', () => (server.unregistrations().includes(registration.id) ? true : undefined));
  }, capabilities(watching));
});

test('no RelativePattern watcher without relativePatternSupport, or in a workspace that is not trusted', async () => {
  for (const [client, options] of [
    [capabilities({ dynamicRegistration: true }), {}],
    [capabilities(watching), { trusted: false }],
  ] as const) {
    await withModelOutside(async (server, { root, model }) => {
      const uri = fileUri(path.join(root, 'ds_config.json'));
      const first = server.diagnostics(uri);
      await server.open(uri, 'json', dsConfig);
      await first;
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(watchOf(server, model), undefined, JSON.stringify(options));
    }, client, options);
  }
});

test('trust withdrawn (zeroLens/workspaceTrust): the model folder outside is no longer watched', async () => {
  await withModelOutside(async (server, { root, model }) => {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    await server.open(uri, 'json', dsConfig);
    const registration = await until('watcher for the model folder', () => watchOf(server, model));
    await server.connection.sendNotification('zeroLens/workspaceTrust', { trusted: false });
    await until('unregistration of the model folder', () => (server.unregistrations().includes(registration.id) ? true : undefined));
  }, capabilities(watching));
});

test('a hub id sized from the Hugging Face cache (HF_HUB_CACHE outside the workspace): its cache folder is watched, refs/main and every snapshot', async () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-ws-')));
  const hub = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-hub-')));
  const repo = path.join(hub, 'models--acme--tiny-llama');
  const snapshot = path.join(repo, 'snapshots', 'abc123');
  mkdirSync(snapshot, { recursive: true });
  mkdirSync(path.join(repo, 'refs'));
  writeFileSync(path.join(repo, 'refs', 'main'), 'abc123');
  writeFileSync(path.join(snapshot, 'config.json'), llama(256, 2));
  writeFileSync(path.join(root, 'ds_config.json'), dsConfig);
  const server = await startServer({ rootPath: root, settings: { model: 'acme/tiny-llama', gpusPerNode: 1 }, capabilities: capabilities(watching), env: { HF_HUB_CACHE: hub }, initializationOptions: { validationDelayMs: 0 } });
  try {
    await server.open(fileUri(path.join(root, 'ds_config.json')), 'json', dsConfig);
    const registration = await until('watcher for the cache folder', () => watchOf(server, repo));
    const { pattern } = (registration.registerOptions as { watchers: { globPattern: { pattern: string } }[] }).watchers[0].globPattern;
    for (const file of ['refs/main', 'snapshots/def456/config.json', 'snapshots/abc123/model-00001-of-00002.safetensors', 'snapshots/abc123/model.safetensors.index.json']) {
      assert.ok(picomatch(pattern)(file), `${file} is watched`);
    }
    assert.ok(!picomatch(pattern)('blobs/0123abcd'), 'a blob being downloaded is not');
    assert.equal(watchOf(server, snapshot), undefined, 'the cache folder covers its snapshots');
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(hub, { recursive: true, force: true });
  }
});
