/**
 * A ds_config the editor opens as `json` or `jsonc`: VS Code's own JSON server checks syntax, comments, trailing
 * commas and duplicate keys there, so ZeRO Lens leaves them to it when VS Code's client says so
 * (`initializationOptions.editorChecksJson`). Other editors (Neovim, Helix, Zed, Emacs) give a `.json` file the
 * `json` language and often no JSON server: there zeroLens.warnOnJsonc and the syntax checks must still speak.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { fileUri, inEmptyWorkspace } from './lspClient';

const config = '{\n  // ZeRO-2\n  "train_micro_batch_size_per_gpu": 1,\n  "train_micro_batch_size_per_gpu": 2,\n  "zero_optimization": {"stage": 2,}\n}\n';
const jsonCodes = ['jsonc-comment', 'duplicate-key', 'jsonc-trailing-comma'];

async function codesOf(options: Parameters<typeof inEmptyWorkspace>[1], languageId = 'json'): Promise<string[]> {
  let codes: string[] = [];
  await inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'ds_config.json'));
    const published = server.diagnostics(uri, () => true);
    await server.open(uri, languageId, config);
    codes = (await published).diagnostics.map((d) => String(d.code));
  }, options);
  return codes;
}

test('an editor without a JSON server of its own gets the comment, trailing-comma and duplicate-key checks in a json document', async () => {
  const codes = await codesOf({ initializationOptions: { validationDelayMs: 0 } });
  for (const code of jsonCodes) assert.ok(codes.includes(code), `${code} in ${codes}`);
  const quiet = await codesOf({ initializationOptions: { validationDelayMs: 0 }, settings: { warnOnJsonc: false } });
  assert.deepEqual(quiet.filter((c) => c.startsWith('jsonc-')), [], 'zeroLens.warnOnJsonc: false turns the JSONC warnings off');
});

test("VS Code's client, whose JSON server checks json and jsonc documents, is not told the same twice", async () => {
  const vscode = { initializationOptions: { validationDelayMs: 0, editorChecksJson: true } };
  assert.deepEqual((await codesOf(vscode)).filter((c) => jsonCodes.includes(c)), []);
  // jsonc allows comments: the warning that json.load refuses them is ZeRO Lens's own.
  assert.deepEqual((await codesOf(vscode, 'jsonc')).filter((c) => jsonCodes.includes(c)), ['jsonc-comment']);
});
