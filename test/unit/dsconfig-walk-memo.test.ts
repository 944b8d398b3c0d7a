/**
 * The schema walk takes over the previous version's findings for objects a keystroke left as they were
 * (walkMemo.ts), and ajv's errors for the sections it left as they were (sectionErrors.ts). Whatever the edit, the
 * diagnostics must be exactly those of a fresh validation of the same text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { ConfigParses } from '../../server/src/dsconfig/parse';
import { validateConfig } from '../../server/src/dsconfig/validation/validate';
import { WalkMemo } from '../../server/src/dsconfig/validation/walkMemo';
import { SectionErrorsMemo } from '../../server/src/dsconfig/validation/sectionErrors';
import { defaultSettings, withDefaults, type ZeroLensSettings } from '../../server/src/settings';

const corpus = path.join(__dirname, '../corpus');
/** The corpus's DeepSpeed configs (none written by us), every fourth: real sections, "auto", offload, stages. */
const realConfigs = (JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string; kind: string }[])
  .filter((entry) => entry.kind === 'ds-config' && entry.file.endsWith('.json'))
  .filter((_, i) => i % 4 === 0)
  .map((entry) => readFileSync(path.join(corpus, entry.file), 'utf8'));

/** An open document edited keystroke by keystroke, validated the way the server does: one parse lineage, one memo. */
class EditedConfig {
  readonly document: TextDocument;
  private readonly parses = new ConfigParses();
  readonly walks = new WalkMemo();
  readonly sections = new SectionErrorsMemo();

  constructor(text: string) {
    this.document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
  }

  edit(at: number, remove: number, insert: string): void {
    const d = this.document;
    TextDocument.update(d, [{ range: { start: d.positionAt(at), end: d.positionAt(at + remove) }, text: insert }], d.version + 1);
  }

  validate(settings: ZeroLensSettings = defaultSettings): Diagnostic[] {
    return validateConfig(this.parses, this.document, settings, undefined, { walks: this.walks, sections: this.sections });
  }

  /** A validation from scratch of the same text and version: no earlier parse, nothing taken over. */
  fresh(settings: ZeroLensSettings = defaultSettings): Diagnostic[] {
    const copy = TextDocument.create(this.document.uri, 'ds-config', this.document.version, this.document.getText());
    return validateConfig(new ConfigParses(), copy, settings);
  }

  assertLikeFresh(settings: ZeroLensSettings = defaultSettings): Diagnostic[] {
    const found = this.validate(settings);
    assert.deepEqual(found, this.fresh(settings), `after the edit, text:\n${this.document.getText()}`);
    return found;
  }
}

function codesOf(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${String(d.code)} ${JSON.stringify((d.data as { path?: unknown }).path)}`);
}

test('property: keystrokes in real configs give the diagnostics of a fresh validation', () => {
  assert.ok(realConfigs.length >= 30, `${realConfigs.length} corpus configs`);
  // Mostly a digit typed over a digit (inside a value: the objects around it are shared), else anything over a letter
  // or digit: keys, keywords, a quote that breaks the string, a deletion (each a full parse, nothing shared).
  const keystroke = fc.oneof(
    { weight: 3, arbitrary: fc.record({ pick: fc.nat(), char: fc.constantFrom('0', '1', '2', '3', '9'), spot: fc.constant(/[0-9]/g) }) },
    { weight: 1, arbitrary: fc.record({ pick: fc.nat(), char: fc.constantFrom('0', '3', 'e', 'x', 'A', '_', '"', ''), spot: fc.constant(/[0-9A-Za-z_]/g) }) },
  );
  const counts = { takenOver: 0, walked: 0 };
  const sections = { takenOver: 0, validated: 0 };
  fc.assert(
    fc.property(fc.nat(realConfigs.length - 1), fc.array(keystroke, { minLength: 1, maxLength: 8 }), (which, keystrokes) => {
      const config = new EditedConfig(realConfigs[which]);
      config.assertLikeFresh();
      const opened = { ...config.walks.counts };
      const openedSections = { ...config.sections.counts };
      for (const { pick, char, spot } of keystrokes) {
        const spots = [...config.document.getText().matchAll(spot)].map((m) => m.index!);
        if (!spots.length) return;
        config.edit(spots[pick % spots.length], 1, char);
        config.assertLikeFresh();
      }
      counts.takenOver += config.walks.counts.takenOver - opened.takenOver;
      counts.walked += config.walks.counts.walked - opened.walked;
      sections.takenOver += config.sections.counts.takenOver - openedSections.takenOver;
      sections.validated += config.sections.counts.validated - openedSections.validated;
    }),
    { numRuns: 300 },
  );
  // The comparison means something only if findings were taken over, and often.
  assert.ok(counts.takenOver > counts.walked / 4, JSON.stringify(counts));
  assert.ok(sections.takenOver > sections.validated / 4, JSON.stringify(sections));
});

test('an object left as it was is re-checked when a value it reads elsewhere changes: the stage, autotp_size', () => {
  // offload_optimizer's "ratio" is a ZeRO-3 key: its object stays the same when the stage is typed over.
  const text = '{\n  "zero_optimization": {\n    "stage": 3,\n    "offload_optimizer": {"device": "cpu", "ratio": 1}\n  }\n}\n';
  const config = new EditedConfig(text);
  assert.deepEqual(codesOf(config.assertLikeFresh()).filter((c) => c.startsWith('ignored-at-stage')), []);
  config.edit(text.indexOf('3,'), 1, '2');
  assert.deepEqual(codesOf(config.assertLikeFresh()).filter((c) => c.startsWith('ignored-at-stage')), ['ignored-at-stage ["zero_optimization","offload_optimizer","ratio"]']);

  // The gather key is ignored below stage 3 unless AutoTP shards the weights: its section reads tensor_parallel.
  const autotp = '{\n  "tensor_parallel": {"autotp_size": 1},\n  "zero_optimization": {"stage": 2, "stage3_gather_16bit_weights_on_model_save": true}\n}\n';
  const other = new EditedConfig(autotp);
  assert.equal(codesOf(other.assertLikeFresh()).filter((c) => c.startsWith('ignored-at-stage')).length, 1);
  other.edit(autotp.indexOf('1}'), 1, '2');
  assert.equal(codesOf(other.assertLikeFresh()).filter((c) => c.startsWith('ignored-at-stage')).length, 0);
});

test('findings taken over carry the new version, move with nothing, and follow the reader\'s language', () => {
  const text = '{\n  "zero_optimization": {"stage": 2, "cpu_offload": true, "stage3_max_live_parameters": 1e9},\n  "steps_per_print": 100\n}\n';
  const config = new EditedConfig(text);
  const before = config.assertLikeFresh();
  assert.ok(before.length >= 2, JSON.stringify(before));
  config.edit(text.indexOf('100') + 2, 1, '5');
  const walked = config.walks.counts.walked;
  const after = config.assertLikeFresh();
  assert.equal(config.walks.counts.walked, walked + 1, 'only the top level is walked again');
  assert.ok(config.walks.counts.takenOver >= 1);
  assert.deepEqual(after.map((d) => d.range), before.map((d) => d.range));
  for (const d of after) assert.equal((d.data as { version: number }).version, 2);
  // The same version read in Chinese: nothing English is taken over.
  const zh = withDefaults({ language: 'zh-cn' });
  const chinese = config.assertLikeFresh(zh);
  assert.notDeepEqual(chinese.map((d) => d.message), after.map((d) => d.message));
});
