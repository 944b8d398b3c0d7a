/**
 * The DeepSpeed release a config is checked under is its own workspace folder's (zeroLens.deepspeedVersion per
 * resource, else that folder's pin): in a multi-root workspace the first folder's requirements.txt decided for
 * every folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol';
import { fileUri, startServer } from './lspClient';

const config = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "gradient_clipping": 1.0\n}\n';

test("each folder's config is checked under the DeepSpeed release its own folder pins", async () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zero-lens-release-')));
  const [a, b] = [path.join(root, 'a'), path.join(root, 'b')];
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(path.join(a, 'requirements.txt'), 'deepspeed==0.14.4\n');
  writeFileSync(path.join(b, 'requirements.txt'), 'deepspeed==0.19.3\n');
  const server = await startServer({ folders: [a, b], rootPath: a });
  const clippingHover = async (folder: string): Promise<string> => {
    const uri = fileUri(path.join(folder, 'ds_config.json'));
    await server.open(uri, 'json', config);
    const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 5 } });
    return (hover?.contents as { value: string } | undefined)?.value ?? '';
  };
  try {
    assert.match(await clippingHover(a), /`0` in DeepSpeed 0\.14\.4 \(requirements\.txt\)/);
    assert.match(await clippingHover(b), /`1` in DeepSpeed 0\.19\.3 \(requirements\.txt\)/);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
