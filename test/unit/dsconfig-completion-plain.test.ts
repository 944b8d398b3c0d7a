/**
 * An editor without snippet support (`completionItem.snippetSupport` false: Neovim's own completion before 0.11)
 * inserts what it gets as it is: every ds_config completion must come as plain text, with no tab stops, that
 * leaves the file valid JSON, indented as the file is (it does not turn a snippet's `\t` into its indentation).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { InsertTextFormat, InsertTextMode, type CompletionItem } from 'vscode-languageserver-types';
import { parse, type ParseError } from 'jsonc-parser';
import { getLanguageService } from '../../server/src/languageService';
import { inlineCompletion } from '../../server/src/completionList';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts } from './context-hosts';

const plain = getLanguageService({ ...memoryHosts({}), completion: { ...inlineCompletion, snippets: false } });
let version = 0;

async function complete(withCursor: string): Promise<{ document: TextDocument; items: CompletionItem[] }> {
  const at = withCursor.indexOf('|');
  const document = TextDocument.create('file:///work/ds_config.json', 'ds-config', ++version, withCursor.replace('|', ''));
  const list = await plain.doComplete(document, document.positionAt(at), defaultSettings);
  return { document, items: list.items };
}

function inserted(document: TextDocument, item: CompletionItem): string {
  assert.ok(item.textEdit && 'range' in item.textEdit, `${String(item.label)} has a text edit`);
  return TextDocument.applyEdits(document, [item.textEdit]);
}

const positions = [
  '{\n  |\n}\n',
  '{\n  "zero_optimization": {\n    |\n  }\n}\n',
  '{\n  "zero_optimization": {\n    "stage": |\n  }\n}\n',
  '{\n  "optimizer": {\n    |\n  }\n}\n',
  '{\n  "train_batch_size": |\n}\n',
  '{\n  "zero_optimization": |\n}\n',
  '|',
];

test('every ds_config completion is plain text that leaves the file valid JSON', async () => {
  let checked = 0;
  for (const position of positions) {
    const { document, items } = await complete(position);
    assert.ok(items.length > 0, position);
    for (const item of items) {
      assert.notEqual(item.insertTextFormat, InsertTextFormat.Snippet, String(item.label));
      const text = inserted(document, item);
      const errors: ParseError[] = [];
      parse(text, errors, { allowTrailingComma: false, disallowComments: true });
      assert.deepEqual(errors, [], `${String(item.label)} at ${JSON.stringify(position)} gives ${JSON.stringify(text)}`);
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} items`);
});

test('a multi-line completion takes the line\'s indentation and the file\'s indent unit, not tabs', async () => {
  const { document, items } = await complete('{\n  "zero_optimization": {\n    |\n  }\n}\n');
  const offload = items.find((item) => item.label === 'offload_optimizer');
  assert.ok(offload, 'offload_optimizer is offered');
  assert.equal(inserted(document, offload), '{\n  "zero_optimization": {\n    "offload_optimizer": {\n      \n    }\n  }\n}\n');
  assert.equal(offload.insertTextMode, InsertTextMode.asIs, 'an editor that adjusts indentation must not indent it again');
  const { document: crlf, items: crlfItems } = await complete('{\r\n\t"zero_optimization": {\r\n\t\t|\r\n\t}\r\n}\r\n');
  const tabbed = crlfItems.find((item) => item.label === 'offload_optimizer');
  assert.equal(inserted(crlf, tabbed!), '{\r\n\t"zero_optimization": {\r\n\t\t"offload_optimizer": {\r\n\t\t\t\r\n\t\t}\r\n\t}\r\n}\r\n');
});
