/**
 * Restricted mode over the protocol: with `initializationOptions.trusted: false` the server reads no model
 * folder, cache or file outside the workspace, whether a script or `zeroLens.model` names it, and its hover
 * says why the model has no size. Every path the server touches is logged (ZERO_LENS_TRACE_FS) and checked.
 * Granting trust (`zeroLens/workspaceTrust`) reads the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { WorkspaceTrustNotification } from '../../server/src/protocol';
import { fileUri, startServer, type TestServer } from './lspClient';
import { zero2Config } from '../reliability/hostileWorkspace';

function setUp() {
  const base = mkdtempSync(path.join(tmpdir(), 'zero-lens-restricted-'));
  const root = path.join(base, 'ws');
  const model = path.join(base, 'outside', 'secret-model');
  mkdirSync(root);
  mkdirSync(model, { recursive: true });
  writeFileSync(
    path.join(model, 'config.json'),
    JSON.stringify({ model_type: 'llama', hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 32, vocab_size: 32000 }),
  );
  writeFileSync(path.join(root, 'ds_config_script.json'), zero2Config);
  writeFileSync(path.join(root, 'train.sh'), `deepspeed --num_gpus 8 train.py --deepspeed ds_config_script.json --model_name_or_path ${model}\n`);
  writeFileSync(path.join(root, 'ds_config_setting.json'), zero2Config);
  return { base, root, model, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

async function stageHover(server: TestServer, file: string): Promise<string> {
  const text = readFileSync(file, 'utf8');
  const uri = fileUri(file);
  const published = server.diagnostics(uri, () => true);
  await server.open(uri, 'json', text);
  await published;
  const offset = text.indexOf('"stage"') + 2;
  const before = text.slice(0, offset).split('\n');
  const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', {
    textDocument: { uri },
    position: { line: before.length - 1, character: before[before.length - 1].length },
  });
  return (hover?.contents as MarkupContent).value;
}

/** Paths the server logged touching, from its stderr. */
function touched(server: TestServer): string[] {
  return [...server.stderr().matchAll(/^zero-lens fs: (.*)$/gm)].map((m) => m[1]);
}

test('restricted mode: a model outside the workspace, named by a script or by zeroLens.model, is never read; trust reads it', async () => {
  const { base, root, model, dispose } = setUp();
  const server = await startServer({
    rootPath: root,
    settings: { gpusPerNode: 8, gpuMemoryGiB: 80, model },
    initializationOptions: { trusted: false },
    env: { ZERO_LENS_TRACE_FS: '1' },
  });
  try {
    for (const name of ['ds_config_script.json', 'ds_config_setting.json']) {
      const markdown = await stageHover(server, path.join(root, name));
      assert.match(markdown, /this workspace is not trusted, and in restricted mode ZeRO Lens reads no model folder or cache/, `${name}: ${markdown}`);
      assert.doesNotMatch(markdown, /ZeRO options for/);
    }
    const outside = touched(server).filter((p) => !p.startsWith(root + path.sep) && p !== root);
    assert.deepEqual(outside, [], 'nothing outside the workspace was touched');
    assert.ok(touched(server).length > 0, 'the trace works: the workspace itself was read');
    assert.ok(!touched(server).some((p) => p.startsWith(base + path.sep + 'outside')));

    await server.connection.sendNotification(WorkspaceTrustNotification.method, { trusted: true });
    // Trust refreshes everything; the next hover reads the model folder.
    let markdown = '';
    for (let i = 0; i < 50 && !/ZeRO options for secret-model/.test(markdown); i++) {
      markdown = await stageHover(server, path.join(root, 'ds_config_setting.json')).catch(() => '');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(markdown, /ZeRO options for secret-model/);
  } finally {
    await server.stop();
    dispose();
  }
});
