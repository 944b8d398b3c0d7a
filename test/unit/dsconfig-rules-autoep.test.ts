import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, errorsOf, fixed, withCode } from './dsconfig-validation-helpers';

const base = { train_micro_batch_size_per_gpu: 1, bf16: { enabled: true } };
const conflicts = (config: object) => withCode(diagnose({ ...base, ...config }), 'autoep-conflict');

test('AutoEP + AutoTP: mismatched presets, autoep_size 1 and ZeRO-3 are each refused (auto_ep_folding.py:235, :241, :249)', () => {
  const ep1 = {
    zero_optimization: { stage: 3 },
    tensor_parallel: { autotp_size: 2, preset_model: 'mixtral' },
    expert_parallel: { enabled: true, autoep_size: 1, preset_model: 'qwen3_moe' },
  };
  const found = conflicts(ep1);
  assert.deepEqual(codesOf(diagnose({ ...base, ...ep1 })), ['autoep-conflict', 'autoep-conflict', 'autoep-conflict']);
  assert.ok(found.every((d) => d.severity === DiagnosticSeverity.Error));
  assert.deepEqual(found.map((d) => (d.data as { path: string[] }).path.join('.')).sort(), ['expert_parallel.autoep_size', 'expert_parallel.preset_model', 'zero_optimization.stage']);
});

test('AutoEP + AutoTP: DeepCompile, data-before-expert ordering and any ZeRO offload block are refused (:202, :245, :253)', () => {
  const found = conflicts({
    zero_optimization: { stage: 2, offload_optimizer: { device: 'none' } },
    tensor_parallel: { autotp_size: 2 },
    expert_parallel: { enabled: true, autoep_size: 2 },
    compile: { deepcompile: true },
    use_data_before_expert_parallelism: true,
  });
  assert.deepEqual(found.map((d) => (d.data as { path: string[] }).path.join('.')).sort(), ['compile.deepcompile', 'use_data_before_expert_parallelism', 'zero_optimization.offload_optimizer']);
});

test('AutoEP: a working AutoTP folding config is clean, and nothing is checked while AutoEP is off', () => {
  const ok = { zero_optimization: { stage: 2 }, tensor_parallel: { autotp_size: 2, preset_model: 'mixtral' }, expert_parallel: { enabled: true, autoep_size: 2, preset_model: 'mixtral' } };
  assert.deepEqual(errorsOf(diagnose({ ...base, ...ok })), []);
  assert.deepEqual(conflicts({ zero_optimization: { stage: 3 }, tensor_parallel: { autotp_size: 2 }, expert_parallel: { enabled: false, autoep_size: 1 } }), []);
  // Without AutoTP only the preset check applies.
  assert.equal(conflicts({ zero_optimization: { stage: 3 }, tensor_parallel: { preset_model: 'mixtral' }, expert_parallel: { enabled: true, preset_model: 'deepseek_v2' } }).length, 1);
});

test('AutoEP preset mismatch: the fix copies the AutoTP preset into expert_parallel', async () => {
  const text = JSON.stringify({ ...base, tensor_parallel: { preset_model: 'mixtral' }, expert_parallel: { enabled: true, preset_model: 'qwen3_moe' } });
  assert.equal(await fixed(text, 'Use "mixtral" in expert_parallel too'), text.replace('"qwen3_moe"', '"mixtral"'));
});
