import type { JSONPath } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { DS } from '../../../diagnostics/upstream';
import { fix, showPath, type ConfigView } from '../configView';
import type { Rule } from './rule';
import { andList, joinList } from '../../../l10n';

/**
 * The schedule_config keys CurriculumScheduler asserts for each schedule type
 * (runtime/data_pipeline/curriculum_scheduler.py:40-45 fixed_discrete, :68-73 fixed_root, :88-91 fixed_linear).
 * "custom" reads none. Every other type reads config["schedule_config"] without a default.
 */
const scheduleKeys: Record<string, string[]> = {
  fixed_discrete: ['difficulty', 'max_step'],
  fixed_root: ['total_curriculum_step', 'difficulty_step', 'root_degree'],
  fixed_linear: ['total_curriculum_step', 'difficulty_step'],
};

/** Values a fix may fill in without knowing the run: the docstring's example (curriculum_scheduler.py:62-66). */
const genericValues: Record<string, number> = { difficulty_step: 8, root_degree: 2 };

/** Where DeepSpeed builds a CurriculumScheduler from a config object, and when that happens. */
interface SchedulerSite {
  path: JSONPath;
  when: string;
}

/** The data_efficiency curriculum metrics DeepSpeedDataSampler reads: all of them, once curriculum sampling is on. */
function metricPaths(config: ConfigView): JSONPath[] {
  const base = ['data_efficiency', 'data_sampling', 'curriculum_learning'];
  const metrics = config.section([...base, 'curriculum_metrics']);
  if (!config.isTrue([...base, 'enabled']) || !metrics) return [];
  return Object.keys(metrics).map((name) => [...base, 'curriculum_metrics', name]);
}

/** The moment DeepSpeed builds the data loader, as "so … stops with …" reads it. */
const dataLoaderBuild = (config: ConfigView) => config.t('building the DeepSpeed data loader');

function schedulerSites(config: ConfigView): SchedulerSite[] {
  const sites: SchedulerSite[] = [];
  // Legacy top-level section: built in the engine's __init__ when enabled (engine.py:451-452).
  if (config.isTrue(['curriculum_learning', 'enabled'])) sites.push({ path: ['curriculum_learning'], when: config.t({ message: 'deepspeed.initialize', comment: 'the call that stops, in "so … stops with an AssertionError"' }) });
  // data_efficiency: one scheduler per metric, built with the data loader (data_sampling/data_sampler.py:86-88).
  for (const path of metricPaths(config)) sites.push({ path, when: dataLoaderBuild(config) });
  return sites;
}

function words(config: ConfigView, keys: string[]): string {
  const quoted = keys.map((k) => `"${k}"`);
  return andList(config.t, quoted);
}

/** Asserted for every scheduler before it looks at the schedule (curriculum_scheduler.py:16-21). */
const basicKeys = ['min_difficulty', 'max_difficulty', 'schedule_type'];

const scheduler = `${DS}:deepspeed/runtime/data_pipeline/curriculum_scheduler.py`;
/** Where the scheduler reads each schedule type's schedule_config (a missing one is a KeyError there). */
const scheduleReads: Record<string, string> = { fixed_discrete: '#L40-43', fixed_root: '#L68-73', fixed_linear: '#L88-91' };

function checkSchedule(config: ConfigView, { path, when }: SchedulerSite): Diagnostic[] {
  const section = config.section(path);
  if (!section) return [];
  const missingBasics = basicKeys.filter((key) => !(key in section));
  if (missingBasics.length > 0) {
    return [
      config.diagnostic('missing-key', 'error', config.keyRange(path), missingBasics.length > 1
        ? config.t('"{0}" needs {1}; DeepSpeed\'s CurriculumScheduler asserts them, so {2} stops with an AssertionError.', showPath(path), words(config, missingBasics), when)
        : config.t('"{0}" needs {1}; DeepSpeed\'s CurriculumScheduler asserts it, so {2} stops with an AssertionError.', showPath(path), words(config, missingBasics), when), {
        path,
        missing: missingBasics,
      }, undefined, `${scheduler}#L16-21`),
    ];
  }
  const type = section.schedule_type;
  const needed = typeof type === 'string' ? scheduleKeys[type] : undefined;
  if (!needed) return [];
  const schedulePath = [...path, 'schedule_config'];
  if (!config.has(schedulePath)) {
    return [
      config.diagnostic('missing-key', 'error', config.keyRange(path), config.t('With "schedule_type": "{0}", "{1}" needs a "schedule_config" with {2}. DeepSpeed\'s CurriculumScheduler reads it without a default, so {3} stops with KeyError: \'schedule_config\'.', String(type), showPath(path), words(config, needed), when), {
        path,
        missing: ['schedule_config'],
      }, undefined, `${scheduler}${scheduleReads[type as string]}`),
    ];
  }
  const schedule = config.section(schedulePath);
  if (!schedule) return []; // not an object: the schema's type error says so
  const missing = needed.filter((key) => !(key in schedule));
  if (missing.length > 0) {
    const fillable = missing.every((key) => key in genericValues);
    return [
      config.diagnostic('missing-key', 'error', config.keyRange(schedulePath), missing.length > 1
        ? config.t('A "{0}" schedule needs {1} in "schedule_config"; DeepSpeed\'s CurriculumScheduler asserts them, so {2} stops with an AssertionError.', String(type), words(config, missing), when)
        : config.t('A "{0}" schedule needs {1} in "schedule_config"; DeepSpeed\'s CurriculumScheduler asserts it, so {2} stops with an AssertionError.', String(type), words(config, missing), when), {
        path: schedulePath,
        missing,
        fixes: fillable ? [fix(config.t('Add {0}', joinList(config.t, missing.map((k) => `"${k}": ${genericValues[k]}`))), missing.map((k) => ({ op: 'set' as const, path: [...schedulePath, k], value: genericValues[k] })))] : [],
      }, undefined, `${scheduler}${scheduleReads[type as string]}`),
    ];
  }
  return type === 'fixed_discrete' ? checkDiscreteLevels(config, schedulePath, schedule, when) : [];
}

/** fixed_discrete: both lists non-empty, one more difficulty than max_step (curriculum_scheduler.py:44-47). */
function checkDiscreteLevels(config: ConfigView, schedulePath: JSONPath, schedule: Record<string, unknown>, when: string): Diagnostic[] {
  const { difficulty, max_step: maxStep } = schedule;
  if (!Array.isArray(difficulty) || !Array.isArray(maxStep)) return [];
  const empty = [maxStep.length === 0 ? 'max_step' : undefined, difficulty.length === 0 ? 'difficulty' : undefined].filter((k): k is string => k !== undefined);
  let message: string | undefined;
  if (empty.length > 0) message = config.t('{0} must not be empty', words(config, empty));
  else if (difficulty.length !== maxStep.length + 1) message = config.t('"difficulty" needs exactly one entry more than "max_step" (the last difficulty holds after the last step); got {0} and {1}', difficulty.length, maxStep.length);
  if (!message) return [];
  const path = [...schedulePath, empty[0] ?? 'difficulty'];
  return [config.diagnostic('curriculum-schedule-invalid', 'error', config.valueRange(path), config.t('{0}. DeepSpeed\'s CurriculumScheduler asserts this, so {1} stops with an AssertionError.', message, when), { path })];
}

/** What CurriculumScheduler needs from each schedule it builds. */
export const curriculumSchedules: Rule = (config) => schedulerSites(config).flatMap((site) => checkSchedule(config, site));

/**
 * Legacy curriculum_learning: the engine reads curriculum_params_legacy()["curriculum_type"] without a default
 * on every training forward (engine.py:2756; PipelineEngine skips that branch), so it has no default value.
 */
export const legacyCurriculumType: Rule = (config) => {
  const path = ['curriculum_learning'];
  const section = config.section(path);
  if (!section || !config.isTrue([...path, 'enabled']) || 'curriculum_type' in section) return [];
  return [
    config.diagnostic('missing-key', 'error', config.keyRange(path), config.t('"curriculum_learning" needs "curriculum_type" (usually "seqlen"): the DeepSpeed engine reads it without a default on every training forward (engine.py:2756), so the first step stops with KeyError: \'curriculum_type\'. Only the pipeline engine skips this read.'), {
      path,
      missing: ['curriculum_type'],
      fixes: [fix(config.t('Add {0}', '"curriculum_type": "seqlen"'), [{ op: 'set', path: [...path, 'curriculum_type'], value: 'seqlen' }])],
    }, undefined, `${DS}:deepspeed/runtime/engine.py#L2756`),
  ];
};

/**
 * DeepSpeedDataSampler reads difficulty_type and clustering_type of every metric without a default
 * (data_sampling/data_sampler.py:89-92). Rank 0 then opens index_to_sample_path for a metric not in
 * "single_cluster" (:94-98), and index_to_metric_path too when its difficulty_type is "value" (:99-103).
 */
function metricKeysMissing(config: ConfigView, path: JSONPath): Diagnostic[] {
  const metric = config.section(path);
  if (!metric) return [];
  const clustered = 'clustering_type' in metric && metric.clustering_type !== 'single_cluster';
  const needed = ['difficulty_type', 'clustering_type', ...(clustered ? ['index_to_sample_path'] : []), ...(clustered && metric.difficulty_type === 'value' ? ['index_to_metric_path'] : [])];
  const missing = needed.filter((key) => !(key in metric));
  if (missing.length === 0) return [];
  const why = clustered && missing.some((key) => key.startsWith('index_to_')) ? config.t(' (a metric clustered by schedule reads its index files on rank 0)') : '';
  return [
    config.diagnostic('missing-key', 'error', config.keyRange(path), missing.length > 1
        ? config.t('"{0}" needs {1}: DeepSpeed\'s data sampler reads them without a default{2}, so {3} stops with KeyError: \'{4}\'.', showPath(path), words(config, missing), why, dataLoaderBuild(config), missing[0])
        : config.t('"{0}" needs {1}: DeepSpeed\'s data sampler reads it without a default{2}, so {3} stops with KeyError: \'{4}\'.', showPath(path), words(config, missing), why, dataLoaderBuild(config), missing[0]), {
      path,
      missing,
    }, undefined, `${DS}:deepspeed/runtime/data_pipeline/data_sampling/data_sampler.py#L89-103`),
  ];
}

export const curriculumMetricKeys: Rule = (config) => metricPaths(config).flatMap((path) => metricKeysMissing(config, path));

export const curriculumRules: Rule[] = [curriculumSchedules, legacyCurriculumType, curriculumMetricKeys];
