/**
 * A config's release-dependent diagnostics follow the workspace's DeepSpeed pin when it changes on disk: the server
 * watches the pin files, and a changed pin re-checks the configs checked under it (pushed again, or a
 * workspace/diagnostic/refresh for an editor that pulls).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import picomatch from 'picomatch';
import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { fileUri, startServer, type TestServer } from './lspClient';

// WarmupLR refuses a float warmup_num_steps from DeepSpeed 0.19.3 on (releaseChecks.warmupStepsInt, #8126).
const config = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "scheduler": { "type": "WarmupLR", "params": { "warmup_num_steps": 100.5 } }\n}\n';
const Changed = 2;
const Deleted = 3;
const Error = 1;
const Warning = 2;
const severity = (diagnostics: Diagnostic[]) => diagnostics.find((d) => d.code === 'integer-fraction')?.severity;

function pinnedWorkspace(version: string) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-pin-')));
  const requirements = path.join(root, 'requirements.txt');
  writeFileSync(requirements, `torch\ndeepspeed==${version}\n`);
  return { root, requirements, configUri: fileUri(path.join(root, 'ds_config.json')) };
}

/** A push server with the config open and checked under 0.19.2 (a warning); `then` runs with it, and the server is stopped. */
async function withConfigUnder0192(then: (server: TestServer, pin: { requirements: string; configUri: string }) => Promise<void>): Promise<void> {
  const { root, requirements, configUri } = pinnedWorkspace('0.19.2');
  const server = await startServer({ rootPath: root, initializationOptions: { validationDelayMs: 0 } });
  try {
    const first = server.diagnostics(configUri, (d) => severity(d) !== undefined);
    await server.open(configUri, 'json', config);
    assert.equal(severity((await first).diagnostics), Warning);
    await then(server, { requirements, configUri });
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

test('a pin changed on disk re-checks the open config under the new release (push)', () =>
  withConfigUnder0192(async (server, { requirements, configUri }) => {
    const again = server.diagnostics(configUri, (d) => severity(d) === Error);
    writeFileSync(requirements, 'torch\ndeepspeed==0.19.3\n');
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(requirements), type: Changed }] });
    await again;
  }));

test('a pin deleted on disk re-checks the open config with the release unknown (the schema release holds)', () =>
  withConfigUnder0192(async (server, { requirements, configUri }) => {
    const again = server.diagnostics(configUri, (d) => severity(d) === Error);
    rmSync(requirements);
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(requirements), type: Deleted }] });
    await again;
  }));

test('a pin edited in the editor and not saved counts, as an unsaved launch script does; closed unsaved, the disk counts again', () =>
  withConfigUnder0192(async (server, { requirements, configUri }) => {
    const pinUri = fileUri(requirements);
    await server.open(pinUri, 'pip-requirements', 'torch\ndeepspeed==0.19.2\n');
    const edited = server.diagnostics(configUri, (d) => severity(d) === Error);
    await server.change(pinUri, 2, 'torch\ndeepspeed==0.19.3\n');
    await edited;
    const closed = server.diagnostics(configUri, (d) => severity(d) === Warning);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: pinUri } });
    await closed;
  }));

test('a pin changed on disk asks an editor that pulls to pull again, and the config answers under the new release', async () => {
  const { root, requirements, configUri } = pinnedWorkspace('0.19.2');
  const server = await startServer({ rootPath: root, pull: true });
  const items = (report: DocumentDiagnosticReport) => (report.kind === 'full' ? report.items : []);
  try {
    await server.open(configUri, 'json', config);
    const before = await server.pull(configUri);
    assert.equal(severity(items(before)), Warning);
    const refreshed = server.nextRefresh();
    writeFileSync(requirements, 'torch\ndeepspeed==0.19.3\n');
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: fileUri(requirements), type: Changed }] });
    await refreshed;
    const after = await server.pull(configUri, before.resultId);
    assert.equal(after.kind, 'full', 'the config is validated again, not answered "unchanged"');
    assert.equal(severity(items(after)), Error);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('the server asks the editor to watch every file the release is read from', async () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-pin-')));
  const server = await startServer({ rootPath: root, capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } } });
  try {
    for (let i = 0; i < 100 && !server.registrations().some((r) => r.method === 'workspace/didChangeWatchedFiles'); i++) await new Promise((r) => setTimeout(r, 20));
    const registration = server.registrations().find((r) => r.method === 'workspace/didChangeWatchedFiles');
    const globs = (registration?.registerOptions as { watchers: { globPattern: string }[] } | undefined)?.watchers.map((w) => w.globPattern) ?? [];
    const watched = (file: string) => globs.some((glob) => picomatch(glob, { dot: true })(file));
    for (const pin of ['requirements.txt', 'requirements-train.txt', 'environment.yml', 'pyproject.toml', 'uv.lock', 'poetry.lock', 'Pipfile.lock']) {
      assert.ok(watched(`/ws/${pin}`), `${pin} is watched`);
    }
    assert.ok(watched('/ws/.venv/lib/python3.11/site-packages/deepspeed-0.19.3.dist-info'), 'a release installed into .venv is watched');
    assert.ok(watched('/ws/venv/lib/python3.10/site-packages/deepspeed-0.14.4.dist-info/METADATA'));
    assert.ok(watched('/ws/train.sh') && watched('/ws/ds_config.json'), 'launch scripts and configs still are');
    assert.ok(watched('/ws/models/tiny/model-00001-of-00002.safetensors'), 'model weights in the workspace are');
    assert.ok(watched('/ws/.hf/hub/models--acme--tiny/refs/main'), 'so is the ref of a Hugging Face cache in the workspace');
    assert.ok(!watched('/ws/output/log.txt'));
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
