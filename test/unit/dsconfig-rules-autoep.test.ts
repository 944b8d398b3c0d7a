import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, docOf, errorsOf, fixed, withCode } from './dsconfig-validation-helpers';
import { autoepWorldChecks } from '../../server/src/dsconfig/validation/rules/expertParallel';
import { ConfigView } from '../../server/src/dsconfig/validation/configView';
import { withDefaults } from '../../server/src/settings';
import { configDocument, fixture, memoryHosts, estimateFeatures } from './context-hosts';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

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

const worldErrors = (config: object, gpus: number) =>
  autoepWorldChecks(new ConfigView(docOf({ ...base, ...config }), parses.parse(docOf({ ...base, ...config }))), { gpus, label: `${gpus} GPUs (test)` });

test('AutoEP and the world size: autoep_size and autotp_size that do not divide it are refused (auto_ep_folding.py:104-115)', () => {
  const found = worldErrors({ tensor_parallel: { autotp_size: 4 }, expert_parallel: { enabled: true, autoep_size: 4 } }, 6);
  assert.deepEqual(found.map((d) => (d.data as { path: string[] }).path.join('.')), ['tensor_parallel.autotp_size', 'expert_parallel.autoep_size']);
  assert.ok(found.every((d) => d.severity === DiagnosticSeverity.Error && d.code === 'autoep-conflict'));
  assert.equal(found[1].message, '"autoep_size" 4 does not divide the world size of 6 GPUs (test). DeepSpeed raises ValueError when it sets up AutoEP ("... must divide the stage size", world_size / pp_size). Values that divide 6: 1, 2, 3, 6.');
  assert.equal(worldErrors({ tensor_parallel: { autotp_size: 4 }, expert_parallel: { enabled: true, autoep_size: 4 } }, 12).length, 0);
  // autotp_size 3 divides 6: only the expert width is wrong.
  assert.equal(worldErrors({ tensor_parallel: { autotp_size: 3 }, expert_parallel: { enabled: true, autoep_size: 4 } }, 6).length, 1);
});

test('AutoEP and the world size: a huge GPU count (a typo in a script or setting) is answered without listing every number below it', () => {
  const gpus = 2 ** 32;
  assert.deepEqual(worldErrors({ expert_parallel: { enabled: true, autoep_size: 8 } }, gpus), []);
  const found = worldErrors({ expert_parallel: { enabled: true, autoep_size: 3 } }, gpus);
  assert.equal(found.length, 1);
  assert.match(String(found[0].message), new RegExp(`Values that divide ${gpus}: 1, 2, 4, .*, ${gpus / 2}, ${gpus}\\.$`));
  // A square lists its root once.
  assert.ok(worldErrors({ expert_parallel: { enabled: true, autoep_size: 5 } }, 36)[0].message.toString().endsWith('Values that divide 36: 1, 2, 3, 4, 6, 9, 12, 18, 36.'));
});

test('AutoEP and the world size: silent while AutoEP is off, for the defaults, and for values the schema already refuses', () => {
  assert.deepEqual(worldErrors({ tensor_parallel: { autotp_size: 3 }, expert_parallel: { enabled: false, autoep_size: 4 } }, 8), []);
  assert.deepEqual(worldErrors({ expert_parallel: { enabled: true } }, 7), []);
  assert.deepEqual(worldErrors({ tensor_parallel: { autotp_size: 0 }, expert_parallel: { enabled: true, autoep_size: 0 } }, 7), []);
  assert.deepEqual(worldErrors({ expert_parallel: { enabled: true, autoep_size: 8 } }, 8), []);
});

test('AutoEP and the world size: the context domain says it with the GPU count of the launch script, nothing without one', async () => {
  const config = JSON.stringify({ ...base, expert_parallel: { enabled: true, autoep_size: 2 } }, null, 2);
  const run = async (script: string | undefined) => {
    const hosts = memoryHosts({ 'ds_config_zero2.json': config, ...(script ? { 'train_zero2.sh': script } : {}) });
    const document = configDocument('ds_config_zero2.json', config);
    return withCode(await estimateFeatures(hosts).validate!(document, withDefaults({})), 'autoep-conflict');
  };
  const [error] = await run(fixture('train_zero2.sh'));
  assert.match(String(error.message), /^"autoep_size" 2 does not divide the world size of 5 GPUs \(train_zero2\.sh line 4\)\./);
  assert.deepEqual(await run(undefined), []);
});
