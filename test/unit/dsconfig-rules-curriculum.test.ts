import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { codesOf, diagnose, fixed, missingKeysOf } from './dsconfig-validation-helpers';

const micro = { train_micro_batch_size_per_gpu: 1 };
const legacy = (section: Record<string, unknown>) => ({ ...micro, curriculum_learning: section });
const seqlen = { curriculum_type: 'seqlen', min_difficulty: 8, max_difficulty: 1024 };

test('legacy curriculum_learning: DeepSpeed pops "enabled" without a default, and each schedule needs its schedule_config keys', () => {
  // data_pipeline/config.py:143 pop("enabled") runs on every config.
  assert.deepEqual(codesOf(diagnose(legacy({ ...seqlen, schedule_type: 'fixed_linear', schedule_config: { total_curriculum_step: 100, difficulty_step: 8 } }))), ['enabled-key-missing']);
  // curriculum_scheduler.py:16-21 asserts the difficulty range and the schedule type.
  // The engine also reads curriculum_type without a default (engine.py:2756): a second missing key.
  const bare = diagnose(legacy({ enabled: true }));
  assert.deepEqual(codesOf(bare), ['missing-key', 'missing-key']);
  assert.deepEqual(bare.map((d) => (d.data as { missing: string[] }).missing), [['min_difficulty', 'max_difficulty', 'schedule_type'], ['curriculum_type']]);
  // It reads config["schedule_config"] without a default.
  assert.deepEqual(codesOf(diagnose(legacy({ enabled: true, ...seqlen, schedule_type: 'fixed_linear' }))), ['missing-key']);
  // :72 asserts root_degree for fixed_root.
  const noRoot = diagnose(legacy({ enabled: true, ...seqlen, schedule_type: 'fixed_root', schedule_config: { total_curriculum_step: 10, difficulty_step: 8 } }));
  assert.deepEqual(codesOf(noRoot), ['missing-key']);
  assert.deepEqual((noRoot[0].data as { missing: string[] }).missing, ['root_degree']);
  // :46 asserts len(difficulty) == len(max_step) + 1.
  assert.deepEqual(codesOf(diagnose(legacy({ enabled: true, ...seqlen, schedule_type: 'fixed_discrete', schedule_config: { difficulty: [8, 16], max_step: [10, 20] } }))), ['curriculum-schedule-invalid']);
  assert.deepEqual(codesOf(diagnose(legacy({ enabled: true, ...seqlen, schedule_type: 'fixed_discrete', schedule_config: { difficulty: [8], max_step: [] } }))), ['curriculum-schedule-invalid']);
  // "custom" takes its schedule from a callback: no schedule_config needed.
  assert.deepEqual(codesOf(diagnose(legacy({ enabled: true, ...seqlen, schedule_type: 'custom' }))), []);
});

test('a missing root_degree is added with the value of the DeepSpeed docstring', async () => {
  const text = '{"train_micro_batch_size_per_gpu": 1, "curriculum_learning": {"enabled": true, "min_difficulty": 8, "max_difficulty": 1024, "schedule_type": "fixed_root", "schedule_config": {"total_curriculum_step": 10, "difficulty_step": 8}}}';
  const after = await fixed(text, 'Add "root_degree": 2');
  assert.equal(after, text.replace('"difficulty_step": 8}', '"difficulty_step": 8, "root_degree": 2}'));
});

test('data_efficiency curriculum metrics: each metric is a CurriculumScheduler config too', () => {
  const metric = (settings: Record<string, unknown>) => ({
    ...micro,
    data_efficiency: { enabled: true, data_sampling: { enabled: true, curriculum_learning: { enabled: true, curriculum_metrics: { seqlen: { index_to_sample_path: 'a', index_to_metric_path: 'b', difficulty_type: 'value', clustering_type: 'single_cluster', ...settings } } } } },
  });
  const noRoot = diagnose(metric({ min_difficulty: 1, max_difficulty: 10, schedule_type: 'fixed_root', schedule_config: { total_curriculum_step: 10, difficulty_step: 8 } }));
  assert.deepEqual(codesOf(noRoot), ['missing-key']);
  // curriculum_scheduler.py:16-21 asserts min/max difficulty and schedule_type.
  const bare = diagnose(metric({ schedule_type: 'custom' }));
  assert.deepEqual(codesOf(bare), ['missing-key']);
  assert.deepEqual((bare[0].data as { missing: string[] }).missing, ['min_difficulty', 'max_difficulty']);
});

test('curriculum configs from the DeepSpeed docs are clean', () => {
  // docs/_tutorials/curriculum-learning.md
  assert.deepEqual(diagnose(legacy({ enabled: true, ...seqlen, schedule_type: 'fixed_linear', schedule_config: { total_curriculum_step: 15000, difficulty_step: 8 } })), []);
  // docs/_pages/config-json.md, data_efficiency example
  const dataEfficiency = {
    ...micro,
    data_efficiency: {
      enabled: true,
      seed: 1234,
      data_sampling: {
        enabled: true,
        num_epochs: 1,
        num_workers: 0,
        curriculum_learning: {
          enabled: true,
          data_cluster_path: '/path/to/data_clusters',
          curriculum_metrics: {
            vocabularyrarity: {
              index_to_sample_path: '/path/to/index_to_sample',
              index_to_metric_path: '/path/to/index_to_metric',
              difficulty_type: 'percentile',
              clustering_type: 'schedule_based',
              min_difficulty: 1,
              max_difficulty: 100,
              schedule_type: 'fixed_root',
              schedule_config: { total_curriculum_step: 110000, difficulty_step: 1, root_degree: 2 },
            },
          },
        },
      },
    },
  };
  assert.deepEqual(diagnose(dataEfficiency), []);
});

test('data_efficiency metrics: difficulty_type and clustering_type are read without a default, the index paths when clustered (data_sampler.py:89-103)', () => {
  const metric = (settings: Record<string, unknown>) => ({
    ...micro,
    data_efficiency: { enabled: true, data_sampling: { enabled: true, curriculum_learning: { enabled: true, curriculum_metrics: { seqlen: { min_difficulty: 1, max_difficulty: 10, schedule_type: 'custom', ...settings } } } } },
  });
  const bare = diagnose(metric({}));
  assert.deepEqual(missingKeysOf(bare), [['missing-key', 'data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.seqlen', 'difficulty_type,clustering_type']]);
  assert.match(String(bare[0].message), /KeyError: 'difficulty_type'/);
  // Anything but "single_cluster" clusters by schedule: rank 0 opens the index files.
  assert.deepEqual(missingKeysOf(diagnose(metric({ difficulty_type: 'value', clustering_type: 'schedule_based' })))[0][2], 'index_to_sample_path,index_to_metric_path');
  assert.deepEqual(missingKeysOf(diagnose(metric({ difficulty_type: 'percentile', clustering_type: 'schedule_based', index_to_sample_path: 'a' }))), []);
  assert.deepEqual(codesOf(diagnose(metric({ difficulty_type: 'value', clustering_type: 'single_cluster' }))), []);
  // Nothing is read while curriculum sampling is off.
  const off = metric({});
  off.data_efficiency.data_sampling.curriculum_learning.enabled = false;
  assert.deepEqual(codesOf(diagnose(off)), []);
});

test('data_efficiency metrics: DeepSpeed checks neither type; unknown values are warnings that say what they do', () => {
  const metric = (settings: Record<string, unknown>) => ({
    ...micro,
    data_efficiency: { data_sampling: { curriculum_learning: { curriculum_metrics: { seqlen: { index_to_sample_path: 'a', index_to_metric_path: 'b', ...settings } } } } },
  });
  // clustering_type is only compared with "single_cluster" (data_sampler.py:94, 182, 206).
  const clustering = diagnose(metric({ difficulty_type: 'value', clustering_type: 'Single_Cluster' }));
  assert.deepEqual(codesOf(clustering), ['invalid-value']);
  assert.equal(clustering[0].severity, DiagnosticSeverity.Warning);
  assert.match(String(clustering[0].message), /uses "schedule_based" instead/);
  // difficulty_type matches neither branch (data_sampler.py:192-212, 277-280): no samples are selected by difficulty.
  const difficulty = diagnose(metric({ difficulty_type: 'Value', clustering_type: 'schedule_based' }));
  assert.deepEqual(codesOf(difficulty), ['invalid-value']);
  assert.equal(difficulty[0].severity, DiagnosticSeverity.Warning);
  assert.match(String(difficulty[0].message), /does not check it: a metric clustered by schedule then selects no samples by difficulty/);
  // A value of the wrong type is still an error.
  assert.equal(diagnose(metric({ difficulty_type: 1, clustering_type: 'single_cluster' }))[0].severity, DiagnosticSeverity.Error);
});
