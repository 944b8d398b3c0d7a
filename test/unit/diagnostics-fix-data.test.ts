import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { readDiagnosticData } from '../../server/src/diagnostics/readDiagnosticData';
import { applyFix } from '../../server/src/diagnostics/applyFix';
import { dataFixActions } from '../../server/src/diagnostics/fixActions';
import { diagnosticData, originOf, type FixSpec } from '../../server/src/diagnostics/fixData';
import { insertText, replaceText } from '../../server/src/diagnostics/textOps';
import { makeDiagnostic } from '../../server/src/diagnostics/makeDiagnostic';

const script = 'NPROC_PER_NODE=2 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --deepspeed zero5\n';
const at = script.indexOf('zero5');
const toZero3: FixSpec = { id: 'change-value', title: "Change to 'zero3'", ops: [replaceText(script, at, at + 5, 'zero3')], preferred: true };
const madeOn = originOf(TextDocument.create('file:///w/train.sh', 'shellscript', 1, script));

/** The fix applied to `text`, made on the script above (another version unless `same`). */
const fixed = (text: string, fix = toZero3, same = false) => applyFix(text, fix, same ? undefined : madeOn);

test('fix data reader: anything but the format is ignored, whole or fix by fix', () => {
  for (const junk of [undefined, null, 5, 'x', [], {}, { version: 1, fixes: [] }, { version: -1, textLength: 3, fixes: [] }, { version: 1, textLength: 3, fixes: 'no' }]) {
    assert.equal(readDiagnosticData(junk), undefined, JSON.stringify(junk));
  }
  const good = { id: 'set-value', title: 'Set it', ops: [{ op: 'set', path: ['a', 0], value: 1 }], preferred: true, extra: 'dropped' };
  const data = readDiagnosticData({
    version: 3,
    textLength: 40,
    path: ['a'],
    fixes: [
      good,
      { ...good, id: 'not-a-kind' },
      { ...good, title: 7 },
      { ...good, ops: [] },
      { ...good, preferred: 'yes' },
      { ...good, ops: [{ op: 'set', path: [{}], value: 1 }] },
      { ...good, ops: [{ op: 'set', path: ['a'] }] },
      { ...good, ops: [{ op: 'rename', path: ['a'] }] },
      { ...good, ops: [{ op: 'eval', code: 'x' }] },
      { ...good, ops: [{ op: 'replaceText', start: 4, end: 2, expect: '', newText: 'x' }] },
      { ...good, ops: [{ op: 'replaceText', start: 0, end: 3, expect: 'ab', newText: 'x' }] },
      { ...good, ops: [{ op: 'deleteText', offset: 0.5, length: 1, expect: ',' }] },
      null,
    ],
  });
  assert.deepEqual(data, { version: 3, textLength: 40, path: ['a'], fixes: [{ id: 'set-value', title: 'Set it', ops: [{ op: 'set', path: ['a', 0], value: 1 }], preferred: true }] });
});

test('fix data: every diagnostic carries its origin and its fixes, none or some', () => {
  const document = TextDocument.create('file:///w/train.sh', 'shellscript', 7, script);
  const range = { start: document.positionAt(at), end: document.positionAt(at + 5) };
  const d = makeDiagnostic('unknown-deepspeed-preset', range, 'm', diagnosticData(document, { value: 'zero5' }));
  assert.deepEqual(d.data, { value: 'zero5', version: 7, textLength: script.length, fixes: [] });
  assert.equal(d.code, 'unknown-deepspeed-preset');
  assert.equal(d.source, 'zero-lens');
});

test('text op on the version it was made for: applies where it was, and only if the text still reads what it replaces', () => {
  assert.equal(fixed(script, toZero3, true), script.replace('zero5', 'zero3'));
  assert.equal(fixed(script.replace('zero5', 'zero9'), toZero3, true), undefined, 'data that does not match its own version is not trusted');
});

test('text op made on an older version: moved by an earlier edit, it still lands on its text', () => {
  const above = `# launch on 2 GPUs\n${script}`;
  assert.equal(fixed(above), above.replace('zero5', 'zero3'), 'a line added above');
  const sameLine = script.replace('--model', '--model_type qwen3 --model');
  assert.equal(fixed(sameLine), sameLine.replace('zero5', 'zero3'), 'text typed earlier on its logical line');
  const shorter = script.replace('NPROC_PER_NODE=2 \\\n', '');
  assert.equal(fixed(shorter), shorter.replace('zero5', 'zero3'), 'a line removed above');
  const after = `${script}echo done\n`;
  assert.equal(fixed(after), after.replace('zero5', 'zero3'), 'a line added below');
  assert.equal(fixed(script), script.replace('zero5', 'zero3'), 'another version, same text');
});

test('text op made on an older version: dropped when its text changed or is no longer the only candidate', () => {
  assert.equal(fixed(script.replace('zero5', 'zero9')), undefined, 'the value was edited');
  assert.equal(fixed(script.replace('    --deepspeed zero5\n', '')), undefined, 'the flag was removed');
  const twice = script.replace('--model Qwen', '--output_dir out/zero5 --model Qwen');
  assert.equal(fixed(twice), undefined, 'two occurrences on its logical line');
  const noted = `# zero5 was wrong\n${script.replace('zero5', 'zero2')}`;
  assert.equal(fixed(noted), undefined, 'an occurrence outside the stretch the text can have moved by');
});

test('an insertion is anchored to its word, so it moves with it', () => {
  const programStart = script.indexOf('swift');
  const addEnv: FixSpec = { id: 'add-nproc-per-node', title: 'Add', ops: [insertText(script, programStart, 'CUDA_VISIBLE_DEVICES=0,1 ')] };
  assert.equal(fixed(script, addEnv, true), script.replace('swift sft', 'CUDA_VISIBLE_DEVICES=0,1 swift sft'));
  const above = `set -e\n${script}`;
  assert.equal(fixed(above, addEnv), above.replace('swift sft', 'CUDA_VISIBLE_DEVICES=0,1 swift sft'));
  const atLineEnd: FixSpec = { id: 'add-flag', title: 'Add', ops: [insertText(script, script.length - 1, ' --quant_method bnb')] };
  assert.equal(fixed(script, atLineEnd, true), script.replace('zero5\n', 'zero5 --quant_method bnb\n'));
});

test('a fix whose ops do not all apply is dropped whole', () => {
  const start = script.indexOf('--model');
  const both: FixSpec = { id: 'remove-flag', title: 'Both', ops: [replaceText(script, start, start + 7, '--model_id'), replaceText(script, at, at + 5, 'zero3')] };
  assert.equal(fixed(script, both, true), script.replace('--model', '--model_id').replace('zero5', 'zero3'));
  assert.equal(fixed(script.replace('zero5', 'zero9'), both), undefined);
});

test('JSON ops follow their path on any version; a text op in JSON is re-located like any other', () => {
  const json = '{\n  "a": 1,\n  "b": 2,\n}\n';
  const comma = json.lastIndexOf(',');
  const dropComma: FixSpec = { id: 'delete-text', title: 'Remove the trailing comma', ops: [{ op: 'deleteText', offset: comma, length: 1, expect: ',' }] };
  const setB: FixSpec = { id: 'set-value', title: 'Set b', ops: [{ op: 'set', path: ['b'], value: 3 }] };
  const made = originOf(TextDocument.create('file:///w/ds.json', 'json', 1, json));
  const longer = json.replace('"a": 1', '"a": 100');
  assert.equal(applyFix(longer, dropComma, made), longer.replace('2,\n}', '2\n}'), 'moved by two characters');
  const another = json.replace('"a": 1,', '"a": 1,\n  "c": 3,');
  assert.equal(applyFix(another, dropComma, made), undefined, 'a comma added within reach: ambiguous');
  assert.equal(applyFix(another, setB, made), another.replace('"b": 2', '"b": 3'));
});

test('code actions: stale diagnostics give edits at the text where it is now, or no action', () => {
  const v1 = TextDocument.create('file:///w/train.sh', 'shellscript', 1, script);
  const range = { start: v1.positionAt(at), end: v1.positionAt(at + 5) };
  const diagnostic: Diagnostic = makeDiagnostic('unknown-deepspeed-preset', range, 'm', diagnosticData(v1, { fixes: [toZero3] }));
  const v2 = TextDocument.update(TextDocument.create(v1.uri, v1.languageId, 1, script), [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '#!/bin/bash\n' }], 2);
  const [action] = dataFixActions(v2, [diagnostic]);
  assert.equal(action.title, "Change to 'zero3'");
  assert.equal(action.isPreferred, true);
  assert.deepEqual(action.diagnostics, [diagnostic]);
  const moved = v2.getText().indexOf('zero5');
  assert.deepEqual(action.edit?.changes?.[v2.uri], [{ range: { start: v2.positionAt(moved), end: v2.positionAt(moved + 5) }, newText: 'zero3' }]);

  const v3 = TextDocument.create(v1.uri, v1.languageId, 3, script.replace('zero5', 'zero2'));
  assert.deepEqual(dataFixActions(v3, [diagnostic]), []);
  assert.deepEqual(dataFixActions(v1, [{ ...diagnostic, data: { ...(diagnostic.data as object), version: 'one' } }]), [], 'malformed data: no action');
});

test('code picks fixes by their kind and typed fields, never by their titles (titles will be translated)', () => {
  const below = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const file = path.join(folder, name);
      return statSync(file).isDirectory() ? below(file) : file.endsWith('.ts') ? [file] : [];
    });
  const readsTitles = below(path.resolve(__dirname, '../../server/src')).filter((file) =>
    /title\.(startsWith|includes|endsWith|match)\(|\.title ===|titles\.has\(/.test(readFileSync(file, 'utf8')),
  );
  assert.deepEqual(readsTitles, []);
});
