import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Diagnostic, DocumentDiagnosticReport, FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { fileUri, startServer } from './lspClient';

// Pull diagnostics (LSP 3.17) through the real bundled server over stdio, as VS Code's client asks for them.

const fixtures = path.resolve(__dirname, '../fixtures/context');

function full(report: DocumentDiagnosticReport): FullDocumentDiagnosticReport {
  assert.equal(report.kind, 'full', `a full report, got ${JSON.stringify(report)}`);
  return report as FullDocumentDiagnosticReport;
}

const codes = (items: Diagnostic[]) => items.map((d) => d.code).sort();
/** Our messages are plain strings. */
const message = (d: Diagnostic) => d.message as string;

test('a change followed at once by a pull returns the diagnostics of the new text, and nothing is pushed', async () => {
  // The default debounce (120 ms) stays on: the pull path must not wait for it.
  const server = await startServer({ pull: true });
  const uri = 'file:///tmp/zero-lens-pull/ds_config.json';
  try {
    assert.deepEqual(server.capabilities.diagnosticProvider, { interFileDependencies: false, workspaceDiagnostics: false });
    const broken = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": { "stage": 7 }\n}\n';
    await server.open(uri, 'ds-config', broken);
    const first = full(await server.pull(uri));
    assert.ok(first.items.some((d) => /stage/i.test(message(d))), `stage 7 is reported: ${JSON.stringify(first.items)}`);

    const fixed = broken.replace('"stage": 7', '"stage": 2');
    await server.change(uri, 2, fixed);
    const second = full(await server.pull(uri, first.resultId));
    assert.ok(!second.items.some((d) => /stage/i.test(message(d))), `the fixed stage is not reported: ${JSON.stringify(second.items)}`);
    assert.notEqual(second.resultId, first.resultId);

    const typo = fixed.replace('"train_micro_batch_size_per_gpu"', '"train_micro_batch_size_per_gpux"');
    await server.change(uri, 3, typo);
    const third = full(await server.pull(uri, second.resultId));
    assert.ok(third.items.some((d) => message(d).includes('train_micro_batch_size_per_gpux')), `the unknown key is reported: ${JSON.stringify(third.items)}`);

    // Nothing changed since: the same report, without validating again.
    assert.deepEqual(await server.pull(uri, third.resultId), { kind: 'unchanged', resultId: third.resultId });
    assert.equal(server.pushes(), 0, 'an editor that pulls gets no pushed diagnostics');
  } finally {
    await server.stop();
  }
});

test('an unsaved edit to a launch script makes the server ask for a re-pull, and the config it launches gets new diagnostics', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-pull-refresh-'));
  const configPath = path.join(root, 'ds_config_zero2.json');
  const scriptPath = path.join(root, 'train_zero2.sh');
  const otherPath = path.join(root, 'prepare_data.sh');
  const config = await readFile(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
  const script = await readFile(path.join(fixtures, 'train_zero2.sh'), 'utf8');
  const other = '#!/bin/bash\npython prepare_data.py --out data/\n';
  await writeFile(configPath, config);
  await writeFile(scriptPath, script);
  await writeFile(otherPath, other);
  const server = await startServer({ rootPath: root, pull: true, settings: { gpuMemoryGiB: 40 } });
  const [configUri, scriptUri, otherUri] = [configPath, scriptPath, otherPath].map(fileUri);
  const fitWarning = (items: Diagnostic[]) => items.find((d) => d.code === 'estimate-exceeds-gpu-memory')?.message as string | undefined;
  try {
    await server.open(configUri, 'json', config);
    await server.open(otherUri, 'shellscript', other);
    const before = full(await server.pull(configUri));
    assert.match(fitWarning(before.items) ?? '', /for Qwen3-8B|ZeRO-2 needs/, `the fit warning for the script's model: ${JSON.stringify(before.items)}`);
    const otherBefore = full(await server.pull(otherUri));

    await server.open(scriptUri, 'shellscript', script);
    full(await server.pull(scriptUri));
    const refreshed = server.nextRefresh();
    await server.change(scriptUri, 2, script.replace('Qwen/Qwen3-8B', 'Qwen/Qwen3-14B'));
    await refreshed;

    // What the editor does on a refresh: pull every open document again with the ids it holds.
    const after = full(await server.pull(configUri, before.resultId));
    assert.notEqual(fitWarning(after.items), fitWarning(before.items), 'the warning follows the unsaved script');
    assert.deepEqual(codes(after.items), codes(before.items));
    assert.deepEqual(await server.pull(otherUri, otherBefore.resultId), { kind: 'unchanged', resultId: otherBefore.resultId }, 'a script that reads nothing of the edited one is not validated again');
    assert.equal(server.pushes(), 0);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});

test('an editor without pull support gets pushed diagnostics, at once for a document just opened', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 60_000 } });
  const uri = 'file:///tmp/zero-lens-push/ds_config.json';
  try {
    assert.equal(server.capabilities.diagnosticProvider, undefined);
    const published = server.diagnostics(uri, () => true, 5000);
    await server.open(uri, 'ds-config', '{ "zero_optimization": { "stage": 7 } }');
    assert.ok((await published).diagnostics.some((d) => /stage/i.test(message(d))));
  } finally {
    await server.stop();
  }
});
