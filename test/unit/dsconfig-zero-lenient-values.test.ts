import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, fixed } from './dsconfig-validation-helpers';

const micro = { train_micro_batch_size_per_gpu: 1 };

test('"stage": true is stage 1 to pydantic\'s int Enum (zero/config.py:81-95): a warning with a fix, not an error', async () => {
  const config = { ...micro, zero_optimization: { stage: true } };
  const diagnostics = diagnose(config);
  assert.deepEqual(codesOf(diagnostics), ['boolean-as-integer']);
  assert.equal(diagnostics[0].severity, DiagnosticSeverity.Warning);
  const text = JSON.stringify(config);
  assert.equal(await fixed(text, 'Write it as 1'), text.replace('"stage":true', '"stage":1'));
});

test('true/false in a pydantic int field is read as 1/0, unless 1/0 is itself out of range', () => {
  assert.deepEqual(codesOf(diagnose({ ...micro, zero_optimization: { stage: 2, reduce_bucket_size: false } })), ['boolean-as-integer']);
  // update_interval must be >= 1: false would be 0.
  assert.deepEqual(codesOf(diagnose({ ...micro, zero_optimization: { stage: 3, zenflow: { update_interval: false } } })), ['invalid-type']);
  // Plain-dict sections hand the bool on as it is: the schema's type error stands.
  assert.deepEqual(codesOf(diagnose({ ...micro, steps_per_print: true })), ['invalid-type']);
});

test('ZenFlow select_interval 0 and full_warm_up_rounds -1 start in DeepSpeed (zenflow_config.py:22,39): warnings only', () => {
  const zf = { ...micro, zero_optimization: { stage: 3, zenflow: { select_strategy: 'step', select_interval: 0, update_interval: 4, full_warm_up_rounds: -1 } } };
  const diagnostics = diagnose(zf);
  assert.deepEqual(codesOf(diagnostics), ['out-of-range', 'out-of-range']);
  assert.ok(diagnostics.every((d) => d.severity === DiagnosticSeverity.Warning));
  // update_interval 0 keeps its error: DeepSpeed takes a modulo by it.
  const update0 = diagnose({ ...micro, zero_optimization: { stage: 3, zenflow: { select_strategy: 'step', select_interval: 4, update_interval: 0 } } });
  assert.equal(update0.find((d) => d.code === 'out-of-range')?.severity, DiagnosticSeverity.Error);
});
