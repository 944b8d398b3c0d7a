import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, fixed } from './dsconfig-validation-helpers';

const loco = (param: unknown, qgZ = true) => ({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 3, zero_quantized_gradients: qgZ, zeropp_loco_param: param } });

test('zeropp_loco_param without reset_T: a KeyError at the first cross-node reduction (coalesced_collectives.py:111)', async () => {
  const diagnostics = diagnose(loco({ err_beta: 0.8 }));
  assert.deepEqual(codesOf(diagnostics), ['missing-key']);
  assert.equal(diagnostics[0].severity, DiagnosticSeverity.Warning);
  assert.match(String(diagnostics[0].message), /no "reset_T"/);
  const text = JSON.stringify(loco({ err_beta: 0.8 }));
  assert.equal(await fixed(text, 'Add "reset_T": 1024 (the documented value)'), text.replace('"err_beta":0.8', '"err_beta":0.8, "reset_T": 1024'));
});

test('zeropp_loco_param {}: both keys are reported; a complete block is clean; without qgZ LoCo is not used', () => {
  assert.deepEqual(codesOf(diagnose(loco({}))), ['missing-key', 'missing-key']);
  assert.deepEqual(codesOf(diagnose(loco({ err_beta: 0.8, reset_T: 1024 }))), []);
  assert.deepEqual(codesOf(diagnose(loco({}, false))), []);
});

test('zeropp_loco_param ranges are not DeepSpeed\'s to enforce: err_beta 1.5 is a warning, not an error', () => {
  const diagnostics = diagnose(loco({ err_beta: 1.5, reset_T: 1024 }));
  assert.deepEqual(codesOf(diagnostics), ['out-of-range']);
  assert.equal(diagnostics[0].severity, DiagnosticSeverity.Warning);
  // A float reset_T only feeds a comparison: no "whole number" error.
  assert.deepEqual(codesOf(diagnose(loco({ err_beta: 0.8, reset_T: 1000.5 }))), []);
});
