import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, errorsOf, fixed, withCode } from './dsconfig-validation-helpers';

const micro = { train_micro_batch_size_per_gpu: 1 };
const conflicts = (config: object) => withCode(diagnose({ ...micro, ...config }), 'deepcompile-offload-conflict');

test('DeepCompile at ZeRO-3: activation offload with optimizer-state offload is refused (init_z3.py:100)', () => {
  const dc1 = { zero_optimization: { stage: 3 }, compile: { deepcompile: true, offload_activation: true, offload_opt_states: true } };
  const [error] = conflicts(dc1);
  assert.equal(error?.severity, DiagnosticSeverity.Error);
  assert.match(String(error.message), /"offload_activation" cannot be combined with "offload_opt_states"/);
  assert.deepEqual(codesOf(diagnose({ ...micro, ...dc1 })), ['deepcompile-offload-conflict']);
});

test('DeepCompile at ZeRO-3: offload_opt_states with ZeRO optimizer offload is refused, and the fix turns it off', async () => {
  const dc2 = { ...micro, zero_optimization: { stage: 3, offload_optimizer: { device: 'cpu' } }, compile: { deepcompile: true, offload_opt_states: true } };
  assert.deepEqual(codesOf(diagnose(dc2)), ['deepcompile-offload-conflict']);
  const text = JSON.stringify(dc2);
  assert.equal(await fixed(text, 'Set "offload_opt_states": false'), text.replace('"offload_opt_states":true', '"offload_opt_states":false'));
});

test('DeepCompile at ZeRO-3: offload_parameters, given or implied by two "cpu" ZeRO offloads, excludes the other targets', () => {
  const both = conflicts({ zero_optimization: { stage: 3 }, compile: { deepcompile: true, offload_parameters: true, offload_opt_states: true } });
  assert.equal(both.length, 1);
  const implied = conflicts({ zero_optimization: { stage: 3, offload_param: { device: 'cpu' }, offload_optimizer: { device: 'cpu' } }, compile: { deepcompile: true, offload_activation: true } });
  assert.match(String(implied[0]?.message), /turned on by the engine/);
  // One ZeRO offload alone does not imply it.
  assert.deepEqual(conflicts({ zero_optimization: { stage: 3, offload_param: { device: 'cpu' } }, compile: { deepcompile: true, offload_activation: true } }), []);
});

test('DeepCompile offload flags: accepted one at a time, and not checked without deepcompile or under the autotp pass', () => {
  assert.deepEqual(errorsOf(diagnose({ ...micro, zero_optimization: { stage: 3 }, compile: { deepcompile: true, offload_opt_states: true } })), []);
  assert.deepEqual(conflicts({ zero_optimization: { stage: 3 }, compile: { deepcompile: false, offload_activation: true, offload_opt_states: true } }), []);
  assert.deepEqual(conflicts({ zero_optimization: { stage: 3 }, compile: { deepcompile: true, passes: ['autotp'], offload_activation: true, offload_opt_states: true } }), []);
});

test('DeepCompile offload flags below ZeRO-3 are unused (init_z1_and_2 never reads them): a warning', () => {
  const diagnostics = diagnose({ ...micro, zero_optimization: { stage: 2 }, compile: { deepcompile: true, offload_activation: true, offload_opt_states: true } });
  assert.deepEqual(codesOf(diagnostics), ['ignored-at-stage', 'ignored-at-stage']);
  assert.ok(diagnostics.every((d) => d.severity === DiagnosticSeverity.Warning));
});
