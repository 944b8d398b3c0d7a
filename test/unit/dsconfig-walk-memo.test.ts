/**
 * The schema walk takes over the previous version's findings for objects a keystroke left as they were
 * (walkMemo.ts), ajv's errors for the sections it left as they were (sectionErrors.ts), and each cross-key rule's
 * findings when what it read is as it was (ruleMemo.ts). Whatever the edit, the diagnostics must be exactly those
 * of a fresh validation of the same text.
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
import { RuleMemo } from '../../server/src/dsconfig/validation/ruleMemo';
import { ConfigView } from '../../server/src/dsconfig/validation/configView';
import { originOf, type DiagnosticData, type TextOp } from '../../server/src/diagnostics/fixData';
import { replaceText } from '../../server/src/diagnostics/textOps';
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
  readonly rules = new RuleMemo();

  constructor(text: string) {
    this.document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
  }

  edit(at: number, remove: number, insert: string): void {
    const d = this.document;
    TextDocument.update(d, [{ range: { start: d.positionAt(at), end: d.positionAt(at + remove) }, text: insert }], d.version + 1);
  }

  validate(settings: ZeroLensSettings = defaultSettings): Diagnostic[] {
    return validateConfig(this.parses, this.document, settings, undefined, { walks: this.walks, sections: this.sections, rules: this.rules });
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
  const rules = { takenOver: 0, run: 0 };
  fc.assert(
    fc.property(fc.nat(realConfigs.length - 1), fc.array(keystroke, { minLength: 1, maxLength: 8 }), (which, keystrokes) => {
      const config = new EditedConfig(realConfigs[which]);
      config.assertLikeFresh();
      const opened = { ...config.walks.counts };
      const openedSections = { ...config.sections.counts };
      const openedRules = { ...config.rules.counts };
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
      rules.takenOver += config.rules.counts.takenOver - openedRules.takenOver;
      rules.run += config.rules.counts.run - openedRules.run;
    }),
    { numRuns: 300 },
  );
  // The comparison means something only if findings were taken over, and often.
  assert.ok(counts.takenOver > counts.walked / 4, JSON.stringify(counts));
  assert.ok(sections.takenOver > sections.validated / 4, JSON.stringify(sections));
  assert.ok(rules.takenOver > rules.run, JSON.stringify(rules));
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

test('a rule runs again when a value it reads changes, when the text of a node it reads changes, and when its problem moved', () => {
  // The stage: amp is refused with ZeRO (a rule), fine at stage 0.
  const text = '{\n  "amp": {"enabled": true},\n  "zero_optimization": {"stage": 2}\n}\n';
  const config = new EditedConfig(text);
  assert.ok(codesOf(config.assertLikeFresh()).some((c) => c.startsWith('amp-with-zero')));
  config.edit(text.indexOf('2}'), 1, '0');
  assert.ok(!codesOf(config.assertLikeFresh()).some((c) => c.startsWith('amp-with-zero')));

  // A node's text, which its value does not tell: 2 and 2.0 are the same number, but elasticity refuses the float.
  const elastic = '{\n  "elasticity": {"enabled": true, "max_train_batch_size": 64, "micro_batch_sizes": [2, 4]}\n}\n';
  const floats = new EditedConfig(elastic);
  const before = codesOf(floats.assertLikeFresh());
  floats.edit(elastic.indexOf('2, 4'), 1, '2.0');
  assert.notDeepEqual(codesOf(floats.assertLikeFresh()), before);

  // A problem after the edit on the same line moves with it, though the rule read nothing that changed.
  const oneLine = '{"steps_per_print": 10, "fp16": {"enabled": true}, "bf16": {"enabled": true}}\n';
  const moved = new EditedConfig(oneLine);
  const [both] = moved.assertLikeFresh().filter((d) => d.code === 'fp16-and-bf16');
  assert.ok(both);
  const taken = moved.rules.counts.takenOver;
  moved.edit(oneLine.indexOf('10'), 2, '1000');
  const [after] = moved.assertLikeFresh().filter((d) => d.code === 'fp16-and-bf16');
  assert.equal(after.range.start.character, both.range.start.character + 2);
  assert.ok(moved.rules.counts.takenOver > taken, 'the rules that found nothing are taken over');

  // A line break added above a problem moves it down a line (the rule read one string, the same after the edit).
  const lines = '{\n  "steps_per_print": 10,\n  "gradient_allreduce_op": "max"\n}\n';
  const below = new EditedConfig(lines);
  const [first] = below.assertLikeFresh().filter((d) => d.code === 'allreduce-op-invalid');
  below.edit(lines.indexOf('{') + 1, 0, '\n');
  const [second] = below.assertLikeFresh().filter((d) => d.code === 'allreduce-op-invalid');
  assert.equal(second.range.start.line, first.range.start.line + 1);
});

test('a rule\'s findings are judged again under another world size or language, and taken over otherwise', () => {
  // 30 is no multiple of 4 × 1: the fix's title names the world size.
  const text = '{\n  "train_batch_size": 30,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 1,\n  "steps_per_print": 10\n}\n';
  const config = new EditedConfig(text);
  const eight = withDefaults({ gpusPerNode: 8 });
  const four = withDefaults({ gpusPerNode: 4 });
  const underEight = config.assertLikeFresh(eight);
  const run = config.rules.counts.run;
  config.edit(text.indexOf('10'), 2, '20');
  config.assertLikeFresh(eight);
  assert.equal(config.rules.counts.run, run, 'a keystroke in steps_per_print runs no rule again');
  const underFour = config.assertLikeFresh(four);
  assert.ok(config.rules.counts.run > run, 'another world size runs every rule again');
  assert.notDeepEqual(JSON.stringify(underFour.map((d) => d.data)), JSON.stringify(underEight.map((d) => d.data)));
  config.assertLikeFresh(withDefaults({ gpusPerNode: 4, language: 'zh-cn' }));
});

test('a rule whose fix replaces text by offset is run again when an edit before that offset moved it, and taken over when the edit came after', () => {
  const parses = new ConfigParses();
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, '{\n  "a": 1,\n  "b": "x"\n}\n');
  const rules = new RuleMemo();
  // A rule as a launch fix would make one: a text op at the offsets of the value of "b" in the text it saw.
  const byOffset = (config: ConfigView): Diagnostic[] => {
    const text = config.document.getText();
    const start = text.indexOf('"x"');
    const range = { start: config.document.positionAt(start), end: config.document.positionAt(start + 3) };
    return [{ range, message: 'b', data: { ...originOf(config.document), fixes: [{ id: 'remove-entry', title: 'b', ops: [replaceText(text, start, start + 3, '"y"')] }] } }];
  };
  const validate = () => {
    const session = rules.session(new ConfigView(document, parses.parse(document)))!;
    return session.takeOver(byOffset) ?? session.run(byOffset);
  };
  const edit = (from: string, to: string) => {
    const at = document.getText().indexOf(from);
    TextDocument.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + from.length) }, text: to }], document.version + 1);
  };
  validate();
  edit('1', '10');
  const after = validate();
  assert.equal(rules.counts.takenOver, 0, 'the edit on an earlier line moved the offsets: run again');
  const op = (after[0].data as DiagnosticData).fixes[0].ops[0] as TextOp & { op: 'replaceText' };
  assert.equal(document.getText().slice(op.start, op.end), '"x"', 'the fix points at the value in this version');
  edit('}', '} ');
  validate();
  assert.equal(rules.counts.takenOver, 1, 'an edit after the fix leaves it where it was');
});
