import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingsEdit } from '../../server/src/settingsEdit';
import type { SettingsEditParams } from '../../server/src/protocol';

const settings = `{
  // The training context ZeRO Lens estimates memory for when no launch script says otherwise:
  // full fine-tuning of Qwen3-8B on one node of four 80 GiB GPUs.
  "zeroLens.model": "Qwen/Qwen3-8B",
  "zeroLens.gpusPerNode": 4, // one node
  "editor.tabSize": 2
}
`;

function apply(params: SettingsEditParams): string {
  const { edit } = settingsEdit(params);
  return edit ? params.text.slice(0, edit.start) + edit.newText + params.text.slice(edit.end) : params.text;
}

test("the sidebar's settings edit changes one value in place: the comments above and beside it stay", () => {
  assert.equal(apply({ text: settings, key: 'zeroLens.model', value: 'acme/Tiny-Model' }), settings.replace('"Qwen/Qwen3-8B"', '"acme/Tiny-Model"'));
  assert.equal(apply({ text: settings, key: 'zeroLens.gpusPerNode', value: 8 }), settings.replace('"zeroLens.gpusPerNode": 4,', '"zeroLens.gpusPerNode": 8,'));
});

test('removing a key keeps the comment lines above it; a new key is added after the last', () => {
  const removed = apply({ text: settings, key: 'zeroLens.model', value: null });
  assert.ok(removed.includes('// The training context ZeRO Lens estimates memory'), removed);
  assert.ok(removed.includes('// full fine-tuning of Qwen3-8B'), removed);
  assert.ok(!removed.includes('zeroLens.model'));
  const added = apply({ text: settings, key: 'zeroLens.gpuMemoryGiB', value: 80 });
  assert.match(added, /"editor\.tabSize": 2,\n {2}"zeroLens\.gpuMemoryGiB": 80\n\}/);
  assert.equal(apply({ text: '', key: 'zeroLens.model', value: 'Qwen/Qwen3-8B' }).replace(/\s+/g, ''), '{"zeroLens.model":"Qwen/Qwen3-8B"}');
});

test('anything but a zeroLens key with a plain value gets no edit', () => {
  assert.deepEqual(settingsEdit({ text: settings, key: 'editor.fontSize', value: 99 }), { edit: null });
  assert.deepEqual(settingsEdit({ text: settings, key: 'zeroLens.model', value: { a: 1 } as never }), { edit: null });
  assert.deepEqual(settingsEdit(null as never), { edit: null });
  assert.deepEqual(settingsEdit({ text: '[1, 2]', key: 'zeroLens.model', value: 'x' }), { edit: null });
});
