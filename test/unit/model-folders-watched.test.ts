/**
 * The folders a model's config.json was read from (the server has the editor watch those outside the workspace):
 * what `modelFolders` lists as models are sized and dropped, and that the service says when a model was sized.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { missing, type FileSystemHost, type Hosts } from '../../server/src/host';
import { createAnalyses } from '../../server/src/analyses';
import { withDefaults } from '../../server/src/settings';

const root = path.resolve('/ws');
const outside = path.resolve('/models/llama-tiny');
const llama = (layers: number) => JSON.stringify({ model_type: 'llama', hidden_size: 64, intermediate_size: 128, num_hidden_layers: layers, num_attention_heads: 4, num_key_value_heads: 2, vocab_size: 1000 });

function hosts(files: Map<string, string>): Hosts {
  const fs: FileSystemHost = {
    readFile: async (file) => (files.has(path.normalize(file)) ? { text: files.get(path.normalize(file))! } : missing),
    readBytes: async () => missing,
    exists: async (file) => files.has(path.normalize(file)) || [...files.keys()].some((f) => f.startsWith(path.normalize(file) + path.sep)),
    listDir: async () => undefined,
  };
  return { fs, workspace: { folders: () => [root], launchFiles: async () => [...files.keys()].filter((f) => f.endsWith('.sh')), jsonFiles: async () => [] } };
}

const ds = '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}';
const configDoc = TextDocument.create(URI.file(path.join(root, 'ds.json')).toString(), 'json', 1, ds);

test('a local model folder outside the workspace is listed once its config.json was read, and again after it changed', async () => {
  const files = new Map([
    [path.join(root, 'ds.json'), ds],
    [path.join(root, 'train.sh'), `torchrun --nproc_per_node 2 train.py --model_name_or_path ${outside} --deepspeed ds.json\n`],
    [path.join(outside, 'config.json'), llama(2)],
  ]);
  let sized = 0;
  const { training } = createAnalyses(hosts(files), undefined, undefined, () => sized++);
  assert.deepEqual(training.modelFolders(), []);
  const first = await training.analyzeConfig(configDoc, withDefaults({}));
  assert.equal(first.context.model?.value, outside);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(training.modelFolders(), [outside]);
  assert.ok(sized > 0, 'the service said a model was sized');

  // Its config.json changed on disk: the model is sized again from the new text, and its folder listed again.
  const before = first.estimate(first.current)!.params.total;
  files.set(path.join(outside, 'config.json'), llama(8));
  assert.deepEqual(training.filesChanged([path.join(outside, 'config.json')]), [configDoc.uri]);
  const second = await training.analyzeConfig(configDoc, withDefaults({}));
  assert.ok(second.estimate(second.current)!.params.total > before, 'more layers, more parameters');
  assert.deepEqual(training.modelFolders(), [outside]);
});

test('a catalog model reads no folder; settings that drop every model drop the folders too', async () => {
  const files = new Map([
    [path.join(root, 'ds.json'), ds],
    [path.join(outside, 'config.json'), llama(2)],
  ]);
  const { training } = createAnalyses(hosts(files));
  await training.analyzeConfig(configDoc, withDefaults({ model: 'Qwen/Qwen3-8B' }));
  assert.deepEqual(training.modelFolders(), []);
  await training.analyzeConfig(configDoc, withDefaults({ model: outside }));
  assert.deepEqual(training.modelFolders(), [outside]);
  training.invalidateAll();
  assert.deepEqual(training.modelFolders(), []);
});
