import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, fixed } from './dsconfig-validation-helpers';

const t26 = { train_micro_batch_size_per_gpu: 1, pipeline: { activation_checkpoint_interval: 1 }, wall_clock_breakdown: true };

test('pipeline + wall_clock_breakdown without steps_per_print: the PipelineEngine\'s modulo by None (pipe/engine.py:1260-1272)', async () => {
  const diagnostics = diagnose(t26);
  assert.deepEqual(codesOf(diagnostics), ['pipeline-timers-without-steps-per-print']);
  assert.equal(diagnostics[0].severity, DiagnosticSeverity.Warning);
  const text = JSON.stringify(t26);
  assert.equal(await fixed(text, 'Set "steps_per_print": 10'), text.replace('"wall_clock_breakdown":true', '"wall_clock_breakdown":true, "steps_per_print": 10'));
});

test('pipeline logging: flops_profiler turns the timers on too; steps_per_print or no pipeline keeps it quiet', () => {
  const { wall_clock_breakdown: _, ...noBreakdown } = t26;
  assert.deepEqual(codesOf(diagnose({ ...noBreakdown, flops_profiler: { enabled: true }, steps_per_print: null })), ['pipeline-timers-without-steps-per-print']);
  assert.deepEqual(codesOf(diagnose({ ...t26, steps_per_print: 100 })), []);
  assert.deepEqual(codesOf(diagnose({ train_micro_batch_size_per_gpu: 1, wall_clock_breakdown: true })), []);
});
