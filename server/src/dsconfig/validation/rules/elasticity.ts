import type { Diagnostic } from 'vscode-languageserver-types';
import { metaOf, schemaForPath } from '../../schemaIndex';
import { fix, showValue } from '../configView';
import { writtenAsFloat } from '../valueChecks';
import type { Rule } from './rule';
import type { ConfigView } from '../configView';
import type { WorldSize } from '../worldSize';
import { joinList } from '../../../l10n';

const batchKeys = ['train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps'];

/** Elasticity computes the batch keys itself and refuses explicit ones unless told to ignore them (§12). */
export const elasticityBatchKeys: Rule = (config) => {
  if (!config.isTrue(['elasticity', 'enabled']) || config.isTrue(['elasticity', 'ignore_non_elastic_batch_info'])) return [];
  return batchKeys
    .filter((key) => config.has([key]))
    .map((key) =>
      config.diagnostic('elasticity-with-batch-keys', 'error', config.keyRange([key]),
        config.t('With elasticity enabled DeepSpeed computes "{0}" itself and refuses a config that also sets it (ElasticityConfigError), unless "elasticity.ignore_non_elastic_batch_info" is true.', key),
        {
          path: [key],
          fixes: [
            fix(config.t('Set "{0}": {1}', 'ignore_non_elastic_batch_info', 'true'), [{ op: 'set', path: ['elasticity', 'ignore_non_elastic_batch_info'], value: true }], true),
            fix(config.t('Remove "{0}"', key), [{ op: 'remove', path: [key] }]),
          ],
        },
      ),
    );
};

/** Cross-key checks DeepSpeed's elasticity module makes when enabled (§12); single-value ranges are in the schema. */
export const elasticitySettings: Rule = (config) => {
  if (!config.isTrue(['elasticity', 'enabled'])) return [];
  const out: Diagnostic[] = [];
  const say = (path: string[], message: string) => out.push(config.diagnostic('elasticity-invalid', 'error', config.valueRange(path), message, { path }));
  const minGpus = config.number(['elasticity', 'min_gpus']);
  const maxGpus = config.number(['elasticity', 'max_gpus']);
  if (minGpus !== undefined && maxGpus !== undefined && minGpus > maxGpus) say(['elasticity', 'min_gpus'], config.t('"min_gpus" ({0}) is larger than "max_gpus" ({1}).', minGpus, maxGpus));
  const maxBatch = config.number(['elasticity', 'max_train_batch_size']);
  const micro = config.get(['elasticity', 'micro_batch_sizes']);
  if (maxBatch !== undefined && Array.isArray(micro)) {
    const tooBig = micro.filter((m) => typeof m === 'number' && m > maxBatch);
    if (tooBig.length > 0) say(['elasticity', 'micro_batch_sizes'], config.t('Micro batch sizes {0} are larger than "max_train_batch_size" ({1}); DeepSpeed refuses them.', joinList(config.t, tooBig), maxBatch));
  }
  return out;
};

/** float(version) the way compute_elastic_config reads it; undefined where float() raises. */
function versionNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

const versionPath = ['elasticity', 'version'];
const useVersion = (config: ConfigView, version: number, preferred = false) => fix(config.t('Use version {0}', version), [{ op: 'set' as const, path: versionPath, value: version }], preferred);

/**
 * compute_elastic_config (elasticity/elasticity.py), run by DeepSpeedConfig when elasticity is on (runtime/config.py:733):
 * float(version) must be 0.1 or 0.2 (:301 ElasticityConfigError above 0.2, :348 NotImplementedError otherwise; a
 * string such as "0.2" is fine), model parallelism needs 0.2 (:296), and 0.2 needs num_gpus_per_node divisible by
 * model_parallel_size (:145, both default 1). The rule owns "version": the schema lists 0.1 and 0.2 for completion.
 */
export const elasticityVersion: Rule = (config) => {
  if (!config.isTrue(['elasticity', 'enabled'])) return [];
  const raw = config.has(versionPath) ? config.get(versionPath) : 0.2;
  const version = versionNumber(raw);
  if (version !== 0.1 && version !== 0.2) {
    const message =
      version === undefined
        ? config.t('"version" must be 0.1 or 0.2: DeepSpeed compares float(version) with exactly these, and float() fails on {0}.', showValue(raw))
        : version > 0.2
          ? config.t('"version" must be 0.1 or 0.2: DeepSpeed compares float(version) with exactly these, and it raises ElasticityConfigError above 0.2.')
          : config.t('"version" must be 0.1 or 0.2: DeepSpeed compares float(version) with exactly these, and it has no elastic logic for {0} (NotImplementedError).', showValue(raw));
    return [config.diagnostic('elasticity-invalid', 'error', config.valueRange(versionPath), message, { path: versionPath, fixes: [useVersion(config, 0.2, true), useVersion(config, 0.1)] })];
  }
  const modelParallel = config.number(['elasticity', 'model_parallel_size']) ?? 1;
  if (modelParallel > 1 && version === 0.1) {
    const path = ['elasticity', 'model_parallel_size'];
    return [
      config.diagnostic('elasticity-invalid', 'error', config.valueRange(path), config.t('Elasticity version 0.1 does not support model parallelism: with "model_parallel_size" {0} DeepSpeed raises ElasticityConfigError. Use version 0.2.', modelParallel), {
        path,
        fixes: [useVersion(config, 0.2, true), fix(config.t('Set "{0}": {1}', 'model_parallel_size', 1), [{ op: 'set', path, value: 1 }])],
      }),
    ];
  }
  const perNode = config.number(['elasticity', 'num_gpus_per_node']) ?? 1;
  if (version === 0.2 && modelParallel >= 1 && perNode % modelParallel !== 0) {
    const written = config.has(['elasticity', 'num_gpus_per_node']);
    const path = ['elasticity', written ? 'num_gpus_per_node' : 'model_parallel_size'];
    return [
      config.diagnostic('elasticity-invalid', 'error', config.valueRange(path), written
        ? config.t('"num_gpus_per_node" ({0}) must be divisible by "model_parallel_size" ({1}); elasticity 0.2 raises ElasticityError otherwise.', perNode, modelParallel)
        : config.t('"num_gpus_per_node" ({0}, the default) must be divisible by "model_parallel_size" ({1}); elasticity 0.2 raises ElasticityError otherwise.', perNode, modelParallel), { path }),
    ];
  }
  return [];
};

/**
 * ElasticityConfig checks isinstance(m, int) for every micro batch (elasticity/config.py:69). hjson (DeepSpeed's
 * loader for a path) turns 2.0 into 2; json.load (HF Trainer, accelerate) keeps a float. The schema's integer items
 * cannot see the difference, since 2.0 parses as 2.
 */
export const elasticityMicroBatchFloats: Rule = (config) => {
  const path = ['elasticity', 'micro_batch_sizes'];
  const list = config.valueNode(path);
  if (!config.isTrue(['elasticity', 'enabled']) || list?.type !== 'array') return [];
  const docs = metaOf(schemaForPath(path, config.root) ?? {}).docs;
  return (list.children ?? []).flatMap((item, i) => writtenAsFloat(config, item, [...path, i], 'micro_batch_sizes', docs, 'ElasticityConfigError'));
};

export const elasticityRules: Rule[] = [elasticityBatchKeys, elasticitySettings, elasticityVersion, elasticityMicroBatchFloats];
export const elasticityOwnedPaths = [versionPath];

// ---------------------------------------------------------------- the GPU counts an elastic config allows

/** The smallest highly composite numbers DeepSpeed scales a base batch by (elasticity/elasticity.py:21-24). */
const hcnList = [
  1, 2, 4, 6, 12, 24, 36, 48, 60, 120, 180, 240, 360, 720, 840, 1260, 1680, 2520, 5040, 7560, 10080, 15120, 20160, 25200, 27720, 45360, 50400, 55440, 83160,
  110880, 166320, 221760, 277200, 332640, 498960, 554400, 665280, 720720,
];

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** get_candidate_batch_sizes (:27-42). */
function candidateBatchSizes(bases: number[], maxBatch: number): number[] {
  const out = new Set<number>();
  for (const base of bases) {
    if (base > maxBatch) continue;
    if (base === maxBatch) {
      out.add(base);
      continue;
    }
    const value = Math.floor(maxBatch / base);
    // np.argmax(HCN > value); index - 1 wraps to the last entry when none is larger (index 0), as Python does.
    const index = hcnList.findIndex((h) => h > value);
    const at = index <= 0 ? hcnList.length - 1 : index - 1;
    out.add(hcnList[at] * base);
  }
  return [...out];
}

/** get_valid_gpus (:45-64). */
function validGpus(batch: number, micro: number[], minGpus: number, maxGpus: number): number[] {
  const valid = new Set<number>();
  for (const m of micro) {
    if (batch % m !== 0) continue;
    const most = Math.floor(batch / m);
    if (minGpus <= most && most <= maxGpus) valid.add(most);
    for (let i = 1; i <= Math.floor(most / 2); i++) {
      if (i > maxGpus) break;
      if (i < minGpus) continue;
      if (most % i === 0) valid.add(i);
    }
  }
  return [...valid].sort((a, b) => a - b);
}

/**
 * _get_compatible_gpus_v01 (:86-125) with get_best_candidates (:67-83): the valid GPU counts, or undefined when a
 * value is not what the arithmetic needs (the other rules report those). The candidate sets are iterated in the
 * order Python's set of small ints gives, ascending, which only matters for ties.
 */
function compatibleGpusV01(micro: number[], maxBatch: number, minGpus: number | undefined, maxGpus: number | undefined, preferLarger: boolean): number[] | undefined {
  if (micro.length === 0 || micro.some((m) => m > maxBatch)) return undefined;
  const min = minGpus || 1;
  const max = maxGpus || Math.floor(maxBatch / Math.min(...micro));
  const lcm = micro.reduce((a, b) => (a * b) / gcd(a, b));
  const candidates = candidateBatchSizes([...micro, lcm], maxBatch).sort((a, b) => a - b);
  let best: number[] | undefined;
  let bestCount = 0;
  let finalBatch = Math.min(...micro);
  for (const batch of candidates) {
    const current = validGpus(batch, micro, min, max);
    if (current.length > bestCount || (current.length === bestCount && ((preferLarger && batch > finalBatch) || (!preferLarger && batch < finalBatch)))) {
      bestCount = current.length;
      best = current;
      finalBatch = batch;
    }
  }
  return best ?? [];
}

/**
 * The data-parallel sizes compute_elastic_config accepts at `world` processes (:322-356); undefined when the config
 * is not one it can compute (other elasticity rules say why).
 */
export function elasticValidGpus(config: ConfigView, world: number): number[] | undefined {
  const get = (key: string) => config.get(['elasticity', key]);
  const int = (key: string, fallback: number) => {
    const value = config.has(['elasticity', key]) ? get(key) : fallback;
    return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
  };
  const version = versionNumber(config.has(versionPath) ? config.get(versionPath) : 0.2);
  const maxBatch = int('max_train_batch_size', 2000);
  const microValue = config.has(['elasticity', 'micro_batch_sizes']) ? get('micro_batch_sizes') : [2, 4, 6];
  const micro = Array.isArray(microValue) && microValue.every((m) => typeof m === 'number' && Number.isInteger(m) && m > 0) ? (microValue as number[]) : undefined;
  const minGpus = int('min_gpus', 1);
  const maxGpus = int('max_gpus', 10000);
  const preferValue = config.has(['elasticity', 'prefer_larger_batch']) ? get('prefer_larger_batch') : true;
  const perNode = int('num_gpus_per_node', 1);
  const modelParallel = int('model_parallel_size', 1);
  if (!micro || maxBatch === undefined || minGpus === undefined || maxGpus === undefined || typeof preferValue !== 'boolean' || !perNode || !modelParallel) return undefined;
  if (version === 0.1) return compatibleGpusV01(micro, maxBatch, minGpus, maxGpus, preferValue);
  if (version !== 0.2 || perNode % modelParallel !== 0) return undefined;
  // _get_compatible_gpus_v02 (:128-183), at node level.
  const dpPerNode = Math.floor(perNode / modelParallel);
  const valid = compatibleGpusV01(micro, Math.trunc(maxBatch / dpPerNode), Math.trunc(minGpus / perNode), Math.trunc(maxGpus / perNode), preferValue);
  if (!valid) return undefined;
  const validDp = valid.map((i) => i * dpPerNode);
  if (validDp.includes(Math.floor(world / modelParallel))) return validDp;
  return [Math.trunc((world / perNode) * dpPerNode)];
}

/**
 * ElasticityIncompatibleWorldSize (elasticity/elasticity.py:352-354): DeepSpeedConfig passes the world size to
 * compute_elastic_config (runtime/config.py:733-737), which refuses a count outside the valid list.
 */
export function elasticityWorldChecks(config: ConfigView, world: WorldSize): Diagnostic[] {
  if (!config.isTrue(['elasticity', 'enabled'])) return [];
  const valid = elasticValidGpus(config, world.gpus);
  if (!valid || valid.includes(world.gpus)) return [];
  const shown = valid.length > 12 ? joinList(config.t, [...valid.slice(0, 12), '…']) : joinList(config.t, valid) || config.t('none');
  return [
    config.diagnostic('elasticity-invalid', 'error', config.keyRange(['elasticity', 'enabled']),
      config.t('This elastic config does not allow the world size of {0}: DeepSpeed raises ElasticityIncompatibleWorldSize at start. GPU counts it allows: {1}.', world.label, shown),
      { path: ['elasticity', 'enabled'], world: world.gpus, valid: valid.slice(0, 64) },
    ),
  ];
}
