// A client asks for quick fixes with diagnostics made on an older version of the document (it edited the
// script before the server published again): through the real bundled server over stdio, the fix lands on
// the text it was made for, wherever that text is now, or is not offered at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodeAction, Diagnostic, Range } from 'vscode-languageserver-types';
import { fileUri, openedDiagnostics, startServer } from './lspClient';

function codeActions(server: Awaited<ReturnType<typeof startServer>>, uri: string, range: Range, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
  return server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, only: ['quickfix'] } });
}

/** The range one line further down, where an editor that tracks the edit shows the diagnostic. */
function down(range: Range): Range {
  return { start: { ...range.start, line: range.start.line + 1 }, end: { ...range.end, line: range.end.line + 1 } };
}

test('a script edited after its diagnostics arrived: the fix follows its text, or is dropped when that text changed', async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-stale-')));
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 80 } });
  try {
    const uri = fileUri(path.join(root, 'train.sh'));
    const text = ['NPROC_PER_NODE=4 \\', 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\', 'swift sft \\', '    --model Qwen/Qwen3-8B \\', '    --train_type full \\', '    --deepspeed zero2', ''].join('\n');
    const diagnostics = await openedDiagnostics(server, uri, 'shellscript', text);
    assert.deepEqual(diagnostics.map((d) => d.code), ['train-type-renamed']);
    const [renamed] = diagnostics;
    assert.equal(renamed.range.start.line, 4);

    // A line added above: the diagnostics the client holds are for version 1, the document is at version 2.
    await server.change(uri, 2, `# full fine-tune\n${text}`);
    const moved = (await codeActions(server, uri, down(renamed.range), diagnostics)).find((a) => a.title === 'Rename to --tuner_type');
    assert.deepEqual(moved?.edit?.changes?.[uri], [{ range: { start: { line: 5, character: 4 }, end: { line: 5, character: 16 } }, newText: '--tuner_type' }]);

    // The flag itself edited: the fix no longer describes the text, so it is not offered.
    await server.change(uri, 3, `# full fine-tune\n${text.replace('--train_type', '--tuner_type')}`);
    assert.deepEqual((await codeActions(server, uri, down(renamed.range), diagnostics)).map((a) => a.title), []);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
