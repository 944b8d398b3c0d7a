/**
 * zeroLens/estimatesChanged: the server names the open documents whose estimate may differ after a file changed on
 * disk or the workspace folders changed, so the sidebar and the language status ask again (they follow editor
 * switches, edits and settings themselves). Sent only to the client that asks for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileUri, startServer, type StartOptions, type TestServer } from './lspClient';
import { EstimatesChangedNotification, EstimateViewRequest, type EstimatesChangedParams, type EstimateView } from '../../server/src/protocol';

const fixtures = path.resolve(__dirname, '../fixtures/context');
const FileChangeType = { Created: 1, Changed: 2 } as const;

/** Every estimatesChanged notification, and a wait for the next one that names `uri`. */
function listen(server: TestServer) {
  const told: string[][] = [];
  let waiter: { uri: string; resolve: () => void } | undefined;
  server.connection.onNotification(EstimatesChangedNotification.method, ({ uris }: EstimatesChangedParams) => {
    told.push(uris);
    if (waiter && uris.includes(waiter.uri)) waiter.resolve();
  });
  const next = (uri: string, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${EstimatesChangedNotification.method} naming ${uri}; told ${JSON.stringify(told)}; stderr: ${server.stderr()}`)), timeoutMs);
      waiter = { uri, resolve: () => (clearTimeout(timer), resolve()) };
    });
  return { told, next };
}

/** A workspace with the zero2 config and the script that launches it with Qwen3-8B; the config open. */
async function withConfigOpen(options: StartOptions, run: (server: TestServer, root: string, configUri: string, script: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-estimates-changed-'));
  const config = await readFile(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
  await mkdir(path.join(root, 'a'));
  await writeFile(path.join(root, 'a', 'ds_config_zero2.json'), config);
  await writeFile(path.join(root, 'a', 'train_zero2.sh'), await readFile(path.join(fixtures, 'train_zero2.sh'), 'utf8'));
  const server = await startServer({ folders: [path.join(root, 'a')], settings: { gpuMemoryGiB: 40 }, ...options });
  const configUri = fileUri(path.join(root, 'a', 'ds_config_zero2.json'));
  try {
    if (options.pull) {
      await server.open(configUri, 'json', config);
      await server.pull(configUri);
    } else {
      const first = server.diagnostics(configUri);
      await server.open(configUri, 'json', config);
      await first;
    }
    await run(server, root, configUri, path.join(root, 'a', 'train_zero2.sh'));
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

const estimateModel = async (server: TestServer, uri: string) =>
  ((await server.connection.sendRequest(EstimateViewRequest.method, { uri })) as EstimateView | null)?.context.model?.value.id;

test('a launch script changed on disk names the config it feeds; a trainer log names nothing', async () => {
  await withConfigOpen({ initializationOptions: { validationDelayMs: 0, estimatesChanged: true } }, async (server, root, configUri, script) => {
    const { told, next } = listen(server);
    assert.equal(await estimateModel(server, configUri), 'Qwen/Qwen3-8B');
    const log = path.join(root, 'a', 'trainer_state.json');
    await writeFile(log, '{"log_history": []}');
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(log), type: FileChangeType.Created }] });
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(told, [], 'a file nobody read changes no estimate');

    const told1 = next(configUri);
    await writeFile(script, (await readFile(script, 'utf8')).replace('Qwen/Qwen3-8B', 'Qwen/Qwen3-32B'));
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(script), type: FileChangeType.Changed }] });
    await told1;
    assert.deepEqual(told, [[configUri]]);
    assert.equal(await estimateModel(server, configUri), 'Qwen/Qwen3-32B', 'the estimate asked for after the notification is the new one');
  });
});

test('a workspace folder added names the open documents (an editor that pulls diagnostics, as VS Code)', async () => {
  await withConfigOpen({ pull: true, initializationOptions: { estimatesChanged: true } }, async (server, root, configUri) => {
    const { next } = listen(server);
    await mkdir(path.join(root, 'b'));
    const added = next(configUri);
    await server.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: fileUri(path.join(root, 'b')), name: 'b' }], removed: [] } });
    await added;
  });
});

test('a client that does not ask gets no such notification', async () => {
  await withConfigOpen({ initializationOptions: { validationDelayMs: 0 } }, async (server, _root, configUri, script) => {
    const { told } = listen(server);
    const rechecked = server.diagnostics(configUri, (d) => d.some((x) => /Qwen3-32B/.test(String(x.message))));
    await writeFile(script, (await readFile(script, 'utf8')).replace('Qwen/Qwen3-8B', 'Qwen/Qwen3-32B'));
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(script), type: FileChangeType.Changed }] });
    await rechecked;
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(told, []);
  });
});

test("a shown launch script is named when its ds_config or its local model's config.json changes on disk", async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-estimates-changed-'));
  const model = path.join(root, 'models', 'tiny', 'config.json');
  await mkdir(path.dirname(model), { recursive: true });
  const tiny = { architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 2048, intermediate_size: 5632, num_hidden_layers: 22, num_attention_heads: 32, num_key_value_heads: 4, vocab_size: 32000 };
  await writeFile(model, JSON.stringify(tiny));
  const dsConfig = path.join(root, 'ds_config.json');
  await writeFile(dsConfig, '{"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}');
  const text = 'deepspeed --num_gpus 2 train.py --deepspeed ds_config.json\n';
  await writeFile(path.join(root, 'train.sh'), text);
  const server = await startServer({ rootPath: root, pull: true, settings: { model: './models/tiny', gpuMemoryGiB: 80 }, initializationOptions: { estimatesChanged: true } });
  const uri = fileUri(path.join(root, 'train.sh'));
  const stage = async () => ((await server.connection.sendRequest(EstimateViewRequest.method, { uri })) as EstimateView | null)?.current?.stage;
  const totalParams = async () => ((await server.connection.sendRequest(EstimateViewRequest.method, { uri })) as EstimateView | null)?.context.model?.value.totalParams;
  try {
    const { next } = listen(server);
    await server.open(uri, 'shellscript', text);
    await server.pull(uri);
    assert.equal(await stage(), 2);
    const before = await totalParams();

    let told = next(uri);
    await writeFile(dsConfig, '{"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true}, "zero_optimization": {"stage": 3}}');
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(dsConfig), type: FileChangeType.Changed }] });
    await told;
    assert.equal(await stage(), 3);

    told = next(uri);
    await writeFile(model, JSON.stringify({ ...tiny, num_hidden_layers: 44 }));
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(model), type: FileChangeType.Changed }] });
    await told;
    assert.ok((await totalParams())! > before!, 'the model read again is the larger one');
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});
