import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, fixed } from './dsconfig-validation-helpers';

const at1 = { train_micro_batch_size_per_gpu: 1, autotuning: { enabled: true, metric: 'flops' } };

test('autotuning.metric "flops": a KeyError in the autotuner, as the engine writes FLOPS_per_gpu (engine.py:3574-3576)', async () => {
  const diagnostics = diagnose(at1);
  assert.deepEqual(codesOf(diagnostics), ['autotuning-metric-unsupported']);
  assert.equal(diagnostics[0].severity, DiagnosticSeverity.Warning);
  const text = JSON.stringify(at1);
  assert.equal(await fixed(text, 'Use "throughput" (the default)'), text.replace('"flops"', '"throughput"'));
  assert.deepEqual(codesOf(diagnose({ ...at1, autotuning: { enabled: true, metric: 'latency' } })), []);
});
