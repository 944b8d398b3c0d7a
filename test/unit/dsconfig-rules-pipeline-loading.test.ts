import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, fixed } from './dsconfig-validation-helpers';

const at = (stage: number, value: unknown = true) => ({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage, pipeline_loading_checkpoint: value } });

test('pipeline_loading_checkpoint at stage 2 is not ignored: resuming asserts (engine.py:4618-4620)', async () => {
  const diagnostics = diagnose(at(2));
  assert.deepEqual(codesOf(diagnostics), ['pipeline-loading-checkpoint-below-stage-3']);
  assert.equal(diagnostics[0].severity, DiagnosticSeverity.Warning);
  assert.match(String(diagnostics[0].message), /Only stage3 support for pipeline checkpoint loading/);
  const text = JSON.stringify(at(2));
  assert.equal(await fixed(text, 'Set "pipeline_loading_checkpoint": false'), text.replace('"pipeline_loading_checkpoint":true', '"pipeline_loading_checkpoint":false'));
});

test('pipeline_loading_checkpoint: fine at stage 3, off at stage 1, and only "ignored" at stage 0 (no ZeRO checkpoint to load)', () => {
  assert.deepEqual(codesOf(diagnose(at(3))), []);
  assert.deepEqual(codesOf(diagnose(at(1, false))), ['ignored-at-stage']);
  assert.deepEqual(codesOf(diagnose(at(0))), ['ignored-at-stage']);
});
