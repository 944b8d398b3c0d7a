/**
 * Watched-file events re-check only the open documents that read the changed file: a trainer writing JSON logs
 * into the workspace re-validates nothing, a launch script saved on disk re-checks the config it feeds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileUri, startServer } from './lspClient';

const fixtures = path.resolve(__dirname, '../fixtures/context');
const FileChangeType = { Created: 1, Changed: 2 } as const;

test('a JSON log written by a trainer re-validates nothing; the saved script re-checks the config it launches', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-watched-'));
  const config = await readFile(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
  const script = await readFile(path.join(fixtures, 'train_zero2.sh'), 'utf8');
  await writeFile(path.join(root, 'ds_config_zero2.json'), config);
  await writeFile(path.join(root, 'train_zero2.sh'), script);
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 40 }, initializationOptions: { validationDelayMs: 0 } });
  const configUri = fileUri(path.join(root, 'ds_config_zero2.json'));
  try {
    const first = server.diagnostics(configUri);
    await server.open(configUri, 'json', config);
    await first;
    // Let the first round settle, then watch what a log file changes.
    await new Promise((r) => setTimeout(r, 500));
    const republished = server.diagnostics(configUri, () => true, 1500).then(() => true, () => false);
    await mkdir(path.join(root, 'output'), { recursive: true });
    const log = path.join(root, 'output', 'trainer_state.json');
    await writeFile(log, JSON.stringify({ log_history: [{ loss: 1.23, step: 10 }] }));
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(log), type: FileChangeType.Created }] });
    await writeFile(log, JSON.stringify({ log_history: [{ loss: 1.2, step: 20 }] }));
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(log), type: FileChangeType.Changed }] });
    assert.equal(await republished, false, 'the config was not re-validated for a file nobody reads');

    // The script the config's context comes from, changed on disk: the config is checked again, with the new model.
    const again = server.diagnostics(configUri, (d) => d.some((x) => x.code === 'estimate-exceeds-gpu-memory' && /Qwen3-32B/.test(String(x.message))));
    await writeFile(path.join(root, 'train_zero2.sh'), script.replace('Qwen/Qwen3-8B', 'Qwen/Qwen3-32B'));
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(path.join(root, 'train_zero2.sh')), type: FileChangeType.Changed }] });
    await again;
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});
