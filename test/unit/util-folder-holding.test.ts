import { test } from 'node:test';
import assert from 'node:assert/strict';
import { folderHolding } from '../../server/src/util/paths';

test('the workspace folder that holds a file: the innermost, never a sibling that shares a prefix', () => {
  const folders = ['/w/a', '/w/ab', '/w/a/nested'];
  assert.equal(folderHolding('/w/a/ds_config.json', folders), '/w/a');
  assert.equal(folderHolding('/w/ab/ds_config.json', folders), '/w/ab');
  assert.equal(folderHolding('/w/a/nested/x/ds.json', folders), '/w/a/nested');
  assert.equal(folderHolding('/elsewhere/ds.json', folders), undefined);
  assert.equal(folderHolding('/w/a', folders), undefined, 'a folder does not hold itself');
  assert.equal(folderHolding('C:\\w\\b\\ds.json', ['C:\\w\\a', 'C:\\w\\b']), 'C:\\w\\b');
});
