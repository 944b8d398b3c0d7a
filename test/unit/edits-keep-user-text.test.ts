/**
 * Every edit ZeRO Lens makes keeps what the user wrote around it byte for byte: line ends, a BOM, a missing final
 * newline, comments. Each case here is an edit producer that did not, found by running the producers over the
 * corpus's files in CRLF, tab, BOM, no-final-newline and Chinese-comment variants.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type ParseError } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { applyEdits, doc, service, settings } from './launch-helpers';

const loneLf = /(^|[^\r])\n/;

/** The text after the quick fix titled `title` (of any diagnostic). */
async function afterFix(name: string, text: string, title: RegExp, files: Record<string, string> = {}): Promise<string> {
  const { ls } = service(files);
  const document = doc(name, text);
  const diagnostics = await ls.doValidation(document, settings());
  const actions: CodeAction[] = [];
  for (const d of diagnostics) actions.push(...(await ls.getCodeActions(document, d.range, { diagnostics: [d], only: ['quickfix'] }, settings())));
  const action = actions.find((a) => title.test(a.title));
  assert.ok(action, `no fix ${title} among ${actions.map((a) => a.title).join(', ')} for ${diagnostics.map((d) => d.code).join(', ')}`);
  return applyEdits(document, action.edit!.changes![document.uri]);
}

test('a variable moved before a continued command keeps CRLF line ends', async () => {
  const text = 'CUDA_VISIBLE_DEVICES=0,1 \\\r\nswift sft \\\r\n    --model Qwen/Qwen3-8B \\\r\n    NPROC_PER_NODE=2 \\\r\n    --deepspeed zero3\r\n';
  const after = await afterFix('train.sh', text, /^Move NPROC_PER_NODE before the command$/);
  assert.equal(after, 'CUDA_VISIBLE_DEVICES=0,1 \\\r\nNPROC_PER_NODE=2 \\\r\nswift sft \\\r\n    --model Qwen/Qwen3-8B \\\r\n    --deepspeed zero3\r\n');
});

test('"Add NPROC_PER_NODE" on its own continued line keeps CRLF line ends, and LF ones in an LF script', async () => {
  const text = 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --deepspeed zero3\n';
  const crlf = await afterFix('train.sh', text.replace(/\n/g, '\r\n'), /^Add NPROC_PER_NODE=4$/);
  assert.doesNotMatch(crlf, loneLf);
  assert.equal(crlf, 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\\r\nNPROC_PER_NODE=4 \\\r\nswift sft \\\r\n    --model Qwen/Qwen3-8B \\\r\n    --deepspeed zero3\r\n');
  assert.equal(await afterFix('train.sh', text, /^Add NPROC_PER_NODE=4$/), 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nNPROC_PER_NODE=4 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --deepspeed zero3\n');
});
