/**
 * Files created, deleted and renamed on disk (workspace/didChangeWatchedFiles) reach the open documents that
 * depend on them: a config a script names that does not exist yet and then is created (or is renamed away), and
 * a launch script naming an open config that is created and then deleted. Renames arrive as a delete and a create.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { fileUri, startServer, type TestServer } from './lspClient';

const fixtures = path.resolve(__dirname, '../fixtures/context');
const config = readFileSync(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
/** Qwen3-8B on five GPUs with --deepspeed ds_config_zero2.json. */
const script = readFileSync(path.join(fixtures, 'train_zero2.sh'), 'utf8');
const Created = 1;
const Deleted = 3;

async function hintLabels(server: TestServer, uri: string): Promise<string[]> {
  const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
  return hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((part) => part.value).join('')));
}

async function inWorkspace(run: (server: TestServer, root: string) => Promise<void>): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-watched-')));
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 24 }, initializationOptions: { validationDelayMs: 0 } });
  try {
    await run(server, root);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The diagnostic codes `uri` is published with after `change` is announced. */
async function codesAfter(server: TestServer, uri: string, changes: { uri: string; type: number }[]): Promise<string[]> {
  const published = server.diagnostics(uri, () => true, 3000);
  await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes });
  return estimateCodes((await published).diagnostics);
}

/** The codes that depend on other files (the fixture's comments get their own JSONC warnings, which do not). */
const estimateCodes = (diagnostics: { code?: unknown }[]): string[] => diagnostics.map((d) => String(d.code)).filter((code) => !code.startsWith('jsonc-'));

test('a config the script names, created after the script was opened, then renamed away', async () => {
  await inWorkspace(async (server, root) => {
    writeFileSync(path.join(root, 'train_zero2.sh'), script);
    const scriptUri = fileUri(path.join(root, 'train_zero2.sh'));
    const configFile = path.join(root, 'ds_config_zero2.json');
    const first = server.diagnostics(scriptUri, () => true);
    await server.open(scriptUri, 'shellscript', script);
    assert.deepEqual(estimateCodes((await first).diagnostics), ['deepspeed-config-not-found']);

    writeFileSync(configFile, config);
    assert.deepEqual(await codesAfter(server, scriptUri, [{ uri: fileUri(configFile), type: Created }]), ['estimate-exceeds-gpu-memory']);
    assert.match((await hintLabels(server, scriptUri))[0]!, /Qwen3-8B · 5 GPUs/);

    renameSync(configFile, path.join(root, 'ds_old.json'));
    const renamed = [
      { uri: fileUri(configFile), type: Deleted },
      { uri: fileUri(path.join(root, 'ds_old.json')), type: Created },
    ];
    assert.deepEqual(await codesAfter(server, scriptUri, renamed), ['deepspeed-config-not-found']);
  });
});

test('a launch script naming an open config, created and then deleted', async () => {
  await inWorkspace(async (server, root) => {
    const configFile = path.join(root, 'ds_config_zero2.json');
    writeFileSync(configFile, config);
    const configUri = fileUri(configFile);
    const first = server.diagnostics(configUri, () => true);
    await server.open(configUri, 'json', config);
    assert.deepEqual(estimateCodes((await first).diagnostics), []);

    const scriptFile = path.join(root, 'train_zero2.sh');
    writeFileSync(scriptFile, script);
    assert.deepEqual(await codesAfter(server, configUri, [{ uri: fileUri(scriptFile), type: Created }]), ['estimate-exceeds-gpu-memory']);
    assert.match((await hintLabels(server, configUri))[0]!, /Qwen3-8B · 5 GPUs/);

    rmSync(scriptFile);
    assert.deepEqual(await codesAfter(server, configUri, [{ uri: fileUri(scriptFile), type: Deleted }]), []);
    assert.deepEqual(await hintLabels(server, configUri), ['set model & GPUs for a memory estimate…']);
  });
});
