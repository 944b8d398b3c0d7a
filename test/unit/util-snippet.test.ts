import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { InsertTextFormat, type CompletionItem } from 'vscode-languageserver-types';
import { snippetAsText } from '../../server/src/util/snippet';
import { getLanguageService } from '../../server/src/languageService';
import { inlineCompletion } from '../../server/src/completionList';
import { withDefaults } from '../../server/src/settings';
import { missing } from '../../server/src/host';

test('a snippet as the text it inserts with every tab stop left at its default', () => {
  assert.equal(snippetAsText('"stage": ${1|0,1,2,3|},'), '"stage": 0,');
  assert.equal(snippetAsText('"device": "${1|cpu,nvme|}"'), '"device": "cpu"');
  assert.equal(snippetAsText('"lr": ${1:1e-3}$0'), '"lr": 1e-3');
  assert.equal(snippetAsText('{\n\t$1\n}'), '{\n\t\n}');
  assert.equal(snippetAsText('[${1}]'), '[]');
  assert.equal(snippetAsText('${1:outer ${2:inner}}'), 'outer inner');
  // Escapes: in text `\\$`, `\\}` and `\\\\`; in a choice `\\,` and `\\|` too.
  assert.equal(snippetAsText('"\\$HOME \\} \\\\"'), '"$HOME } \\"');
  assert.equal(snippetAsText('${1|a\\,b,c|}'), 'a,b');
  assert.equal(snippetAsText('${1:\\}x}'), '}x');
  // Variables give their default or nothing; a `$` that starts no form stays.
  assert.equal(snippetAsText('$TM_FILENAME ${TM_SELECTED_TEXT:none}'), ' none');
  assert.equal(snippetAsText('cost: 5$ ${ ${1:a'), 'cost: 5$ ${ ${1:a');
});

test('an editor without snippet support gets plain text edits, never `${1|…|}`', async () => {
  const noDisk = { readFile: async () => missing, readBytes: async () => missing, exists: async () => false, listDir: async () => undefined };
  const text = '{\n  "zero_optimization": {\n    "stage": 3,\n    \n  },\n  "fp16": {"enabled": }\n}\n';
  const document = TextDocument.create('file:///w/ds_config.json', 'json', 1, text);
  const positions = [document.positionAt(text.indexOf('3,\n') + 7), document.positionAt(text.indexOf('": }') + 3)];
  for (const snippets of [true, false]) {
    const service = getLanguageService({ fs: noDisk, completion: { ...inlineCompletion, snippets } });
    const items: CompletionItem[] = [];
    for (const position of positions) items.push(...(await service.doComplete(document, position, withDefaults({}))).items);
    const snippetItems = items.filter((item) => item.insertTextFormat === InsertTextFormat.Snippet);
    const edits = items.map((item) => (item.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : (item.insertText ?? '')));
    if (snippets) {
      assert.ok(snippetItems.length > 10, 'the editor that expands snippets gets them');
      continue;
    }
    assert.deepEqual(snippetItems, []);
    assert.deepEqual(edits.filter((edit) => /\$\{?\d/.test(edit)), []);
    // A key with its default value (a choice's first option, a number's default), a value as it is.
    assert.ok(edits.includes('"contiguous_gradients": true'));
    assert.ok(edits.includes('"reduce_bucket_size": 500000000'));
    assert.ok(edits.includes('"auto"'));
  }
});
