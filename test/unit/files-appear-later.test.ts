/**
 * Files that appear on disk after a document was analysed: a trl release installed into `.venv`, safetensors
 * written into a workspace model folder, a Hugging Face cache download finishing or a new revision of it. Each
 * names the open document that looked for it (`filesChanged`), whose next analysis reads the new file; and a hub
 * id looked up in the cache has its cache folder watched (`modelFolders`), refs and snapshots included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { NodeFileSystem, NodeWorkspace } from '../../server/src/nodeHost';
import type { Hosts } from '../../server/src/host';
import { createAnalyses } from '../../server/src/analyses';
import type { TrainingService } from '../../server/src/training/service';
import { withDefaults } from '../../server/src/settings';
import { withTempDir } from './temp-dir';
import { zero3 } from './trl-fixtures';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';

const llama = (layers: number) => JSON.stringify({ model_type: 'llama', hidden_size: 64, intermediate_size: 128, num_hidden_layers: layers, num_attention_heads: 4, num_key_value_heads: 2, vocab_size: 1000 });
const ds = '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}';

/** A safetensors file of one BF16 tensor of `n` elements: u64 LE header length, JSON header, zeroed data. */
function safetensors(n: number): Buffer {
  const json = JSON.stringify({ 'model.embed_tokens.weight': { dtype: 'BF16', shape: [n], data_offsets: [0, 2 * n] } }).padEnd(64);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, Buffer.from(json), Buffer.alloc(2 * n)]);
}

/** Real files in a temporary workspace, read by the server's own host; `env` stands in for the process's. */
async function withWorkspace(run: (root: string, hosts: Hosts) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  await withTempDir(async (dir) => {
    const root = await realpath(dir);
    const fs = new NodeFileSystem();
    fs.setFolders([root]);
    await run(root, { fs: { ...fs, restricted: fs.restricted, env, homeDir: undefined }, workspace: new NodeWorkspace([root]) });
  }, 'zero-lens-later-');
}

const documentAt = (file: string, text: string, languageId: string) => TextDocument.create(URI.file(file).toString(), languageId, 1, text);

test('trl installed into .venv after the script was analysed: the script is named, and its GRPO beta follows the release', () =>
  withWorkspace(async (root, hosts) => {
    const grpo = 'accelerate launch --config_file zero3.yaml trl/scripts/grpo.py --model_name_or_path Qwen/Qwen2.5-0.5B --reward_funcs accuracy_reward\n';
    await writeFile(path.join(root, 'zero3.yaml'), zero3);
    await writeFile(path.join(root, 'train.sh'), grpo);
    const sitePackages = path.join(root, '.venv/lib/python3.11/site-packages');
    await mkdir(path.join(sitePackages, 'torch-2.4.0.dist-info'), { recursive: true });
    const { training } = createAnalyses(hosts);
    const script = documentAt(path.join(root, 'train.sh'), grpo, 'shellscript');
    const beta = async () => (await training.analyzeDocument(script, 'launch-script', withDefaults({ gpusPerNode: 8 }))).analysis.context.workload.rlhf?.value.beta;
    assert.equal(await beta(), 0, 'no trl known: the current default');

    const installed = path.join(sitePackages, 'trl-0.18.2.dist-info');
    await mkdir(installed);
    assert.deepEqual(training.filesChanged([installed]), [script.uri]);
    assert.equal(await beta(), 0.04, "trl 0.18.2's default");
  }));

/** A workspace whose train.sh runs deepspeed on the model folder ./models/tiny (a config.json) with ds.json. */
function withTinyModelScript(run: (root: string, training: TrainingService, script: TextDocument) => Promise<void>): Promise<void> {
  return withWorkspace(async (root, hosts) => {
    const text = 'deepspeed train.py --model_name_or_path ./models/tiny --deepspeed ds.json\n';
    await mkdir(path.join(root, 'models/tiny'), { recursive: true });
    await writeFile(path.join(root, 'models/tiny/config.json'), llama(2));
    await writeFile(path.join(root, 'ds.json'), ds);
    await writeFile(path.join(root, 'train.sh'), text);
    const { training } = createAnalyses(hosts);
    await run(root, training, documentAt(path.join(root, 'train.sh'), text, 'shellscript'));
  });
}

test('safetensors written into a workspace model folder a script names by relative path: the script is named, and sized from them', () =>
  withTinyModelScript(async (root, training, script) => {
    const size = async () => {
      const { analysis } = await training.analyzeDocument(script, 'launch-script', withDefaults({ gpusPerNode: 1 }));
      return analysis.estimate(analysis.current)?.params.total;
    };
    const fromConfig = await size();
    assert.ok(fromConfig! > 0 && fromConfig !== 12345, 'sized from config.json');

    const weights = path.join(root, 'models/tiny/model.safetensors');
    await writeFile(weights, safetensors(12345));
    assert.deepEqual(training.filesChanged([weights]), [script.uri]);
    assert.equal(await size(), 12345, `sized from the weights now, not config.json's ${fromConfig}`);
  }));

/**
 * A workspace with ds.json and a Hugging Face cache (HF_HUB_CACHE) holding `acme/tiny-llama` at revision `aaa`, with
 * its config.json when `withConfig` (else a download under way: the ref is written first); `total` sizes the config.
 */
function withHub(withConfig: boolean, run: (repo: string, config: TextDocument, training: TrainingService, total: () => Promise<number | undefined>) => Promise<void>): Promise<void> {
  return withTempDir(async (hubDir) => {
    const repo = path.join(await realpath(hubDir), 'models--acme--tiny-llama');
    await mkdir(path.join(repo, 'refs'), { recursive: true });
    await mkdir(path.join(repo, 'snapshots', 'aaa'), { recursive: true });
    await writeFile(path.join(repo, 'refs', 'main'), 'aaa');
    if (withConfig) await writeFile(path.join(repo, 'snapshots', 'aaa', 'config.json'), llama(2));
    await withWorkspace(async (root, hosts) => {
      await writeFile(path.join(root, 'ds.json'), ds);
      const { training } = createAnalyses(hosts);
      const config = documentAt(path.join(root, 'ds.json'), ds, 'json');
      const total = async () => {
        const analysis = await training.analyzeConfig(config, withDefaults({ model: 'acme/tiny-llama', gpusPerNode: 1 }));
        return analysis.estimate(analysis.current)?.params.total;
      };
      await run(repo, config, training, total);
    }, { HF_HUB_CACHE: path.dirname(repo) });
  }, 'zero-lens-hub-');
}

test('a Hugging Face cache download that finishes after the config was analysed: the config is named and sized; the cache folder is watched', () =>
  withHub(false, async (repo, config, training, total) => {
    assert.equal(await total(), undefined, 'refs/main written, config.json not yet: not sized');
    assert.deepEqual(training.modelFolders(), [repo], 'the cache folder of the id is watched while the download runs');

    const downloaded = path.join(repo, 'snapshots', 'aaa', 'config.json');
    await writeFile(downloaded, llama(2));
    assert.deepEqual(training.filesChanged([downloaded]), [config.uri]);
    assert.ok((await total())! > 0);
    assert.deepEqual(training.modelFolders(), [repo]);
  }));

test('a new revision of a cached hub id (a new snapshot, then refs/main): each names the config, which is sized from the new snapshot', () =>
  withHub(true, async (repo, config, training, total) => {
    const before = await total();
    assert.ok(before! > 0);
    const snapshot = path.join(repo, 'snapshots', 'bbb', 'config.json');
    await mkdir(path.dirname(snapshot));
    await writeFile(snapshot, llama(8));
    assert.deepEqual(training.filesChanged([snapshot]), [config.uri], 'a snapshot that appears in the cache folder');
    assert.equal(await total(), before, 'refs/main still names aaa');
    await writeFile(path.join(repo, 'refs', 'main'), 'bbb');
    assert.deepEqual(training.filesChanged([path.join(repo, 'refs', 'main')]), [config.uri]);
    assert.ok((await total())! > before!, 'eight layers, not two');
  }));

test('one launch analysis handed to two documents: a change to the model it read names both, the second found it cached', () =>
  withTinyModelScript(async (root, training, script) => {
    const [launch] = await training.launchesOf(script);
    const settings = withDefaults({ gpusPerNode: 1 });
    const other = URI.file(path.join(root, 'sweep.sh')).toString();
    const first = await training.analyzeLaunch(launch.facts, settings, undefined, {}, script.uri);
    assert.equal(await training.analyzeLaunch(launch.facts, settings, undefined, {}, other), first, 'the cached analysis');
    const changed = training.filesChanged([path.join(root, 'models/tiny/config.json')]);
    assert.deepEqual([...changed].sort(), [other, script.uri].sort());
  }));
