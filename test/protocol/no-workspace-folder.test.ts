/**
 * An editor with no workspace folder (a single file opened: Neovim or Helix without a root marker, VS Code without a
 * folder) sends neither workspaceFolders nor rootUri. There the launch scripts the editor has open are the
 * workspace's: a config learns its run from the script that names it once that script is open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileUri, startServer } from './lspClient';

const fixtures = path.resolve(__dirname, '../fixtures/context');
const config = readFileSync(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
/** Qwen3-8B on five GPUs with --deepspeed ds_config_zero2.json: more than 24 GiB per GPU. */
const script = readFileSync(path.join(fixtures, 'train_zero2.sh'), 'utf8');

test('without workspace folders, an open launch script gives the config it names its run, until it is closed', async () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-nofolder-')));
  writeFileSync(path.join(root, 'ds_config_zero2.json'), config);
  writeFileSync(path.join(root, 'train_zero2.sh'), script);
  const server = await startServer({
    capabilities: { textDocument: { publishDiagnostics: {} } },
    initializationOptions: { validationDelayMs: 0, settings: { gpuMemoryGiB: 24 } },
  });
  const configUri = fileUri(path.join(root, 'ds_config_zero2.json'));
  const codes = (d: { code?: unknown }[]) => d.map((x) => String(x.code));
  try {
    const first = server.diagnostics(configUri, () => true);
    await server.open(configUri, 'json', config);
    assert.ok(!codes((await first).diagnostics).includes('estimate-exceeds-gpu-memory'), 'no script known yet');

    const withScript = server.diagnostics(configUri, (d) => codes(d).includes('estimate-exceeds-gpu-memory'), 3000);
    const scriptUri = fileUri(path.join(root, 'train_zero2.sh'));
    await server.open(scriptUri, 'shellscript', script);
    await withScript;

    // Closed, it no longer stands for the workspace.
    const closed = server.diagnostics(configUri, (d) => !codes(d).includes('estimate-exceeds-gpu-memory'), 3000);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: scriptUri } });
    await closed;
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
