/**
 * A script that appears on disk with no file event (a network mount, an editor that cannot watch files, a watcher
 * that dropped the event): the server walks the workspace again once its listing is old (`ZERO_LENS_RELIST_MS` here,
 * ten seconds by default) and a request comes, and the config the script launches gets its estimate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileUri, startServer } from './lspClient';
import { EstimateViewRequest, type EstimateView } from '../../server/src/protocol';

const dsConfig = '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}';
const llama = JSON.stringify({ model_type: 'llama', hidden_size: 256, intermediate_size: 768, num_hidden_layers: 2, num_attention_heads: 8, num_key_value_heads: 4, vocab_size: 32000 });

test('a launch script that appears without a file event is found on the next walk, and the config it launches is estimated', async () => {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'zero-lens-relist-')));
  await writeFile(path.join(root, 'ds_config.json'), dsConfig);
  const server = await startServer({
    rootPath: root,
    pull: true,
    capabilities: { workspace: { configuration: true, diagnostics: { refreshSupport: true } }, textDocument: { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } },
    env: { ZERO_LENS_RELIST_MS: '300' },
  });
  try {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    await server.open(uri, 'json', dsConfig);
    await server.pull(uri);
    const model = async () => ((await server.connection.sendRequest(EstimateViewRequest.method, { uri })) as EstimateView | null)?.context.model?.value.totalParams;
    assert.equal(await model(), undefined, 'no script names a model yet');

    await mkdir(path.join(root, 'tiny'));
    await writeFile(path.join(root, 'tiny', 'config.json'), llama);
    await writeFile(path.join(root, 'train.sh'), 'deepspeed --num_gpus 1 train.py --model_name_or_path ./tiny --deepspeed ds_config.json\n');
    // No didChangeWatchedFiles: the editor's next request after the listing has aged starts the walk.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const refreshed = server.nextRefresh();
    await server.pull(uri);
    await refreshed;
    assert.ok((await model())! > 0, 'sized from the script the walk found');
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});
