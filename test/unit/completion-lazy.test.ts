import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-types';
import { completed, inlineCompletion, shapeCompletionList, withResolvedParts, type CompletionClientSupport, type CompletionDraft } from '../../server/src/completionList';

const origin = { uri: 'file:///w/ds_config.json', version: 3, position: { line: 1, character: 2 } };
const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 2 } };
const resolving: CompletionClientSupport = { ...inlineCompletion, resolveDocumentation: true, resolveDetail: true, defaultEditRange: true, defaultData: true };

/** Drafts that count how often their lazy parts are built. */
function drafts(labels: string[]): { items: CompletionDraft[]; built: string[] } {
  const built: string[] = [];
  const items = labels.map((label): CompletionDraft => ({
    label,
    textEdit: { range, newText: `"${label}": 1` },
    lazy: () => {
      built.push(label);
      return { detail: `${label} detail`, documentation: { kind: 'markdown', value: `about ${label}` } };
    },
  }));
  return { items, built };
}

test('a list for an editor that resolves items builds no documentation', () => {
  const { items, built } = drafts(['stage', 'overlap_comm', 'sub_group_size']);
  const list = shapeCompletionList(items, resolving, origin);
  assert.deepEqual(built, []);
  assert.ok(list.items.every((item) => item.documentation === undefined && item.detail === undefined && !('lazy' in item)));
  assert.deepEqual(list.itemDefaults?.data, { zeroLensCompletion: origin });
});

test('resolve builds the parts of the focused item only', () => {
  const { items, built } = drafts(['stage', 'overlap_comm', 'sub_group_size']);
  const resolved = withResolvedParts({ label: 'overlap_comm' }, items);
  assert.deepEqual(built, ['overlap_comm']);
  assert.equal((resolved.documentation as MarkupContent).value, 'about overlap_comm');
  assert.equal(resolved.detail, 'overlap_comm detail');
});

test('an editor without resolve gets every part inline, and no lazy field on the wire', () => {
  const { items, built } = drafts(['stage', 'overlap_comm']);
  const list = shapeCompletionList(items, inlineCompletion, origin);
  assert.deepEqual(built, ['stage', 'overlap_comm']);
  assert.deepEqual(list.items.map((item) => [item.detail, (item.documentation as MarkupContent).value, 'lazy' in item]), [
    ['stage detail', 'about stage', false],
    ['overlap_comm detail', 'about overlap_comm', false],
  ]);
});

test('parts an item already carries win over its lazy ones', () => {
  const item = completed({ label: 'stage', detail: 'own detail', lazy: () => ({ detail: 'lazy detail', documentation: 'lazy docs' }) });
  assert.deepEqual(item, { label: 'stage', detail: 'own detail', documentation: 'lazy docs' });
});
