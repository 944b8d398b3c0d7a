import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URI } from 'vscode-uri';
import { pathOf } from '../../server/src/util/paths';

test('pathOf keeps the last URI\'s path, and answers another URI with its own path', () => {
  const uris = ['file:///w/ds_config.json', 'file:///w/ds_config.json', 'file:///w/other%20config.json', 'file:///w/ds_config.json', 'untitled:Untitled-1', 'file:///w/other%20config.json'];
  for (const uri of uris) assert.equal(pathOf(uri), URI.parse(uri).fsPath, uri);
  assert.equal(pathOf('file:///w/other%20config.json'), '/w/other config.json');
  assert.equal(pathOf('file:///w/ds_config.json'), '/w/ds_config.json');
});
