/**
 * Files that appear on disk after a document was opened, each through the watcher the server registered (the test
 * sends an event only for a file one of its globs matches, as the editor would): a Hugging Face cache download
 * finishing and then a new revision, safetensors written into a workspace model folder, trl installed into `.venv`.
 * The editor is asked to pull again (`workspace/diagnostic/refresh`), the sidebar is told
 * (`zeroLens/estimatesChanged`), and the estimate asked for next is the new one. An editor that takes no
 * RelativePattern is told once in the log that a model folder outside the workspace is not watched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { URI } from 'vscode-uri';
import type { ClientCapabilities } from 'vscode-languageserver-protocol';
import { fileUri, startServer, type StartOptions, type TestServer } from './lspClient';
import { EstimatesChangedNotification, EstimateViewRequest, type EstimatesChangedParams, type EstimateView } from '../../server/src/protocol';
import { zero3 } from '../unit/trl-fixtures';

const Created = 1;
const Changed = 2;
const llama = (layers: number) => JSON.stringify({ model_type: 'llama', hidden_size: 256, intermediate_size: 768, num_hidden_layers: layers, num_attention_heads: 8, num_key_value_heads: 4, vocab_size: 32000 });
const dsConfig = '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}';
/** VS Code's client: pulls diagnostics, watches files (RelativePattern too), asks for estimatesChanged. */
const vscodeLike: ClientCapabilities = {
  workspace: { configuration: true, diagnostics: { refreshSupport: true }, didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } },
  textDocument: { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } },
};

/**
 * Whether a watcher the server registered reports `file`: a glob string inside the workspace folder `root` only (VS
 * Code's FileSystemWatcher drops out-of-workspace events for one), a RelativePattern under its base.
 */
function watched(server: TestServer, root: string, file: string): boolean {
  const watchers = server.registrations().flatMap((r) => (r.registerOptions as { watchers?: { globPattern: string | { baseUri: string; pattern: string } }[] } | undefined)?.watchers ?? []);
  const under = (base: string, pattern: string) => {
    const relative = path.relative(base, file);
    return !relative.startsWith('..') && !path.isAbsolute(relative) && picomatch(pattern, { dot: true })(relative.split(path.sep).join('/'));
  };
  return watchers.some(({ globPattern: g }) => (typeof g === 'string' ? under(root, g) : under(URI.parse(g.baseUri).fsPath, g.pattern)));
}

/** The files written, reported to the server as the editor's watcher would; resolves once both the refresh and estimatesChanged naming `uri` came. */
async function changedOnDisk(server: TestServer, root: string, uri: string, changes: { file: string; type: number }[]): Promise<void> {
  for (const { file } of changes) assert.ok(watched(server, root, file), `${file} is watched`);
  const told = new Promise<void>((resolve) =>
    server.connection.onNotification(EstimatesChangedNotification.method, ({ uris }: EstimatesChangedParams) => {
      if (uris.includes(uri)) resolve();
    }),
  );
  const refreshed = server.nextRefresh();
  await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: changes.map(({ file, type }) => ({ uri: fileUri(file), type })) });
  await Promise.all([refreshed, told]);
}

async function withServer(options: StartOptions, run: (server: TestServer, root: string) => Promise<void>, prepare: (root: string) => Promise<void>): Promise<void> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'zero-lens-later-')));
  await prepare(root);
  const server = await startServer({ rootPath: root, pull: true, capabilities: vscodeLike, ...options, initializationOptions: { estimatesChanged: true, ...options.initializationOptions } });
  try {
    await run(server, root);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

const view = async (server: TestServer, uri: string) => (await server.connection.sendRequest(EstimateViewRequest.method, { uri })) as EstimateView | null;
const totalParams = async (server: TestServer, uri: string) => (await view(server, uri))?.context.model?.value.totalParams;

test('a Hugging Face cache download that finishes after the config was opened, then a new revision: each refreshes the estimate', async () => {
  const hub = await realpath(await mkdtemp(path.join(tmpdir(), 'zero-lens-hub-')));
  const repo = path.join(hub, 'models--acme--tiny-llama');
  await mkdir(path.join(repo, 'refs'), { recursive: true });
  await mkdir(path.join(repo, 'snapshots', 'aaa'), { recursive: true });
  await writeFile(path.join(repo, 'refs', 'main'), 'aaa');
  try {
    await withServer({ settings: { model: 'acme/tiny-llama', gpusPerNode: 1 }, env: { HF_HUB_CACHE: hub } }, async (server, root) => {
      const uri = fileUri(path.join(root, 'ds_config.json'));
      await server.open(uri, 'json', dsConfig);
      const first = await server.pull(uri);
      assert.equal(await totalParams(server, uri), undefined, 'the download has written its ref, not config.json yet');

      const config = path.join(repo, 'snapshots', 'aaa', 'config.json');
      await writeFile(config, llama(2));
      for (let i = 0; i < 100 && !watched(server, root, config); i++) await new Promise((r) => setTimeout(r, 20));
      await changedOnDisk(server, root, uri, [{ file: config, type: Created }]);
      const second = await server.pull(uri, first.resultId);
      assert.equal(second.kind, 'full');
      const downloaded = await totalParams(server, uri);
      assert.ok(downloaded! > 0, 'sized from the downloaded config.json');

      const newRevision = path.join(repo, 'snapshots', 'bbb', 'config.json');
      await mkdir(path.dirname(newRevision));
      await writeFile(newRevision, llama(8));
      await writeFile(path.join(repo, 'refs', 'main'), 'bbb');
      await changedOnDisk(server, root, uri, [{ file: newRevision, type: Created }, { file: path.join(repo, 'refs', 'main'), type: Changed }]);
      assert.equal((await server.pull(uri, second.resultId)).kind, 'full');
      assert.ok((await totalParams(server, uri))! > downloaded!, 'sized from the revision refs/main now names');
    }, async (root) => writeFile(path.join(root, 'ds_config.json'), dsConfig));
  } finally {
    await rm(hub, { recursive: true, force: true });
  }
});

/** A safetensors file of one BF16 tensor of `n` elements: u64 LE header length, JSON header, zeroed data. */
function safetensors(n: number): Buffer {
  const json = JSON.stringify({ 'model.embed_tokens.weight': { dtype: 'BF16', shape: [n], data_offsets: [0, 2 * n] } }).padEnd(64);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, Buffer.from(json), Buffer.alloc(2 * n)]);
}

test('safetensors written into the workspace model folder a script names by relative path refresh its estimate', async () => {
  const text = 'deepspeed --num_gpus 1 train.py --model_name_or_path ./models/tiny --deepspeed ds_config.json\n';
  await withServer({}, async (server, root) => {
    const uri = fileUri(path.join(root, 'train.sh'));
    await server.open(uri, 'shellscript', text);
    await server.pull(uri);
    const fromConfig = await totalParams(server, uri);
    assert.ok(fromConfig! > 0);

    const weights = path.join(root, 'models', 'tiny', 'model.safetensors');
    await writeFile(weights, safetensors(12345));
    await changedOnDisk(server, root, uri, [{ file: weights, type: Created }]);
    assert.equal(await totalParams(server, uri), 12345, 'sized from the weights');
  }, async (root) => {
    await mkdir(path.join(root, 'models', 'tiny'), { recursive: true });
    await writeFile(path.join(root, 'models', 'tiny', 'config.json'), llama(2));
    await writeFile(path.join(root, 'ds_config.json'), dsConfig);
    await writeFile(path.join(root, 'train.sh'), text);
  });
});

test("trl installed into the workspace's .venv after a GRPO script was opened: TRL 0.18's beta loads a reference model", async () => {
  const text = 'accelerate launch --config_file zero3.yaml trl/scripts/grpo.py --model_name_or_path Qwen/Qwen2.5-0.5B --reward_funcs accuracy_reward\n';
  const sitePackages = (root: string) => path.join(root, '.venv', 'lib', 'python3.11', 'site-packages');
  await withServer({}, async (server, root) => {
    const uri = fileUri(path.join(root, 'train.sh'));
    await server.open(uri, 'shellscript', text);
    await server.pull(uri);
    const extraModels = async () => (await view(server, uri))?.options[0]?.result.perGpu.extraModels;
    assert.equal(await extraModels(), 0, "no trl known: the current default beta 0, no reference model");

    const installed = path.join(sitePackages(root), 'trl-0.18.2.dist-info');
    await mkdir(installed);
    await writeFile(path.join(installed, 'METADATA'), 'Name: trl\nVersion: 0.18.2\n');
    await changedOnDisk(server, root, uri, [{ file: installed, type: Created }, { file: path.join(installed, 'METADATA'), type: Created }]);
    assert.ok((await extraModels())! > 0, 'beta 0.04: a reference copy of the model');
  }, async (root) => {
    await mkdir(path.join(sitePackages(root), 'torch-2.4.0.dist-info'), { recursive: true });
    await writeFile(path.join(root, 'zero3.yaml'), zero3);
    await writeFile(path.join(root, 'train.sh'), text);
  });
});

test('an editor that takes no RelativePattern (Helix) is told once in the log that a model folder outside the workspace is not watched', async () => {
  const model = await realpath(await mkdtemp(path.join(tmpdir(), 'zero-lens-model-')));
  await writeFile(path.join(model, 'config.json'), llama(2));
  const helixLike: ClientCapabilities = { workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } }, textDocument: { publishDiagnostics: {} } };
  try {
    await withServer({ pull: false, capabilities: helixLike, settings: { model, gpusPerNode: 1 }, initializationOptions: { validationDelayMs: 0 } }, async (server, root) => {
      const uri = fileUri(path.join(root, 'ds_config.json'));
      const checked = server.diagnostics(uri);
      await server.open(uri, 'json', dsConfig);
      await checked;
      const told = () => server.logs().filter((l) => l.message.includes(model) && /RelativePattern/.test(l.message));
      for (let i = 0; i < 100 && told().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(told().length, 1, JSON.stringify(server.logs()));
      await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(told().length, 1, 'said once');
    }, async (root) => writeFile(path.join(root, 'ds_config.json'), dsConfig));
  } finally {
    await rm(model, { recursive: true, force: true });
  }
});
