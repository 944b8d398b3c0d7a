import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-types';
import { hover } from '../../server/src/dsconfig/hover/hover';
import { complete } from '../../server/src/dsconfig/completion/complete';
import { defaultSettings } from '../../server/src/settings';
import { editOf, withCursor } from './dsconfig-completion-cursor';
import { codesOf, diagnose, docOf, fixed, withCode } from './dsconfig-validation-helpers';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

/**
 * Keys whose DeepSpeed value when unset is not a fixed number or string, checked against the DeepSpeed source
 * (commit edaa722): hover must not show a "Default:" and completion must not offer one as the value.
 */
const noFixedDefault: { key: string; text: string; says: RegExp }[] = [
  {
    // compression/config.py:257-259: get_scalar_param(..., SCHEDULE_OFFSET_END, output[SCHEDULE_OFFSET]).
    key: 'schedule_offset_end',
    text: '{"compression_training": {"sparse_pruning": {"shared_parameters": {"method": "snip_momentum", "schedule_offset": 2000, "schedule_offset_e|nd": 3000}}}}',
    says: /Unset, it equals `schedule_offset`/,
  },
  {
    // engine.py:2756: self.curriculum_params_legacy()["curriculum_type"], no default.
    key: 'curriculum_type',
    text: '{"curriculum_learning": {"enabled": true, "curriculum_t|ype": "seqlen"}}',
    says: /Required when enabled: there is no default/,
  },
  {
    // elasticity/config.py:51-62: required when enabled; the 2000 and [2, 4, 6] of the off branch are never used,
    // as the runtime builds the elastic config only when enabled (runtime/config.py:730-733).
    key: 'max_train_batch_size',
    text: '{"elasticity": {"enabled": true, "max_train_batc|h_size": 64}}',
    says: /Required when enabled: there is no default/,
  },
  {
    key: 'micro_batch_sizes',
    text: '{"elasticity": {"enabled": true, "micro_batch_si|zes": [2, 4]}}',
    says: /Required when enabled: there is no default/,
  },
];

test('keys without a fixed DeepSpeed default: hover shows none and says what DeepSpeed does instead', async () => {
  for (const { key, text, says } of noFixedDefault) {
    const { document, position } = withCursor(text);
    const result = await hover(parses, document, position, defaultSettings);
    const markdown = result ? (result.contents as MarkupContent).value : '';
    assert.match(markdown, new RegExp(`\\*\\*\`[\\w.]*${key}\`\\*\\*`), key);
    assert.doesNotMatch(markdown, /Default:/, key);
    assert.match(markdown, says, key);
  }
});

test('completion of those keys offers no default value', async () => {
  const cases = [
    { key: 'schedule_offset_end', text: '{"compression_training": {"sparse_pruning": {"shared_parameters": {"method": "snip_momentum", |}}}}', not: /1000/ },
    { key: 'curriculum_type', text: '{"curriculum_learning": {"enabled": true, |}}', not: /\$\{1:seqlen\}|\$\{1\|seqlen/ },
    { key: 'max_train_batch_size', text: '{"elasticity": {"enabled": true, |}}', not: /2000/ },
    { key: 'micro_batch_sizes', text: '{"elasticity": {"enabled": true, |}}', not: /6/ },
  ];
  for (const { key, text, not } of cases) {
    const { document, position } = withCursor(text);
    const item = (await complete(parses, document, position, defaultSettings)).find((i) => i.label === key);
    assert.ok(item, key);
    assert.doesNotMatch(editOf(item).newText, not, key);
  }
});

test('legacy curriculum_learning without curriculum_type is an error with a fix that adds "seqlen"', async () => {
  const base = { train_micro_batch_size_per_gpu: 1 };
  const section = { enabled: true, min_difficulty: 8, max_difficulty: 1024, schedule_type: 'custom' };
  const missing = withCode(diagnose({ ...base, curriculum_learning: section }), 'missing-key');
  assert.equal(missing.length, 1);
  assert.deepEqual((missing[0].data as { missing: string[] }).missing, ['curriculum_type']);
  assert.match(String(missing[0].message), /KeyError: 'curriculum_type'/);
  // Present (any value), or the section turned off: nothing reads it.
  assert.deepEqual(codesOf(diagnose({ ...base, curriculum_learning: { ...section, curriculum_type: 'seqlen' } })), []);
  assert.deepEqual(codesOf(diagnose({ ...base, curriculum_learning: { ...section, enabled: false } })), []);
  const text = JSON.stringify({ ...base, curriculum_learning: section });
  const after = await fixed(text, 'Add "curriculum_type": "seqlen"');
  assert.equal((JSON.parse(after) as { curriculum_learning: { curriculum_type: string } }).curriculum_learning.curriculum_type, 'seqlen');
});

test('snip_momentum: schedule_offset_end below schedule_offset (given or the default 1000) is refused; unset is fine', () => {
  const pruning = (shared: Record<string, unknown>) => ({ train_micro_batch_size_per_gpu: 1, compression_training: { sparse_pruning: { shared_parameters: { enabled: true, ...shared }, different_groups: {} } } });
  const below = diagnose(pruning({ method: 'snip_momentum', schedule_offset: 2000, schedule_offset_end: 1500 }));
  assert.deepEqual(codesOf(below), ['out-of-range']);
  assert.equal(docOf(pruning({ method: 'snip_momentum', schedule_offset: 2000, schedule_offset_end: 1500 })).getText(below[0].range), '1500');
  assert.match(String(below[0].message), /"schedule_offset" 2000/);
  assert.deepEqual(codesOf(diagnose(pruning({ method: 'snip_momentum', schedule_offset_end: 500 }))), ['out-of-range']);
  assert.match(String(diagnose(pruning({ method: 'snip_momentum', schedule_offset_end: 500 }))[0].message), /default "schedule_offset" 1000/);
  // Unset (equals schedule_offset), equal, above: all accepted. Other methods never read the key.
  assert.deepEqual(codesOf(diagnose(pruning({ method: 'snip_momentum', schedule_offset: 2000 }))), []);
  assert.deepEqual(codesOf(diagnose(pruning({ method: 'snip_momentum', schedule_offset: 2000, schedule_offset_end: 2000 }))), []);
  assert.deepEqual(codesOf(diagnose(pruning({ method: 'snip_momentum', schedule_offset: 0, schedule_offset_end: 10 }))), []);
  assert.deepEqual(codesOf(diagnose(pruning({ method: 'l1', schedule_offset: 2000, schedule_offset_end: 10 }))), []);
});
