import type { Diagnostic } from 'vscode-languageserver-types';
import { metaOf, schemaForPath } from '../../schemaIndex';
import { fix, showValue } from '../configView';
import { writtenAsFloat } from '../valueChecks';
import type { Rule } from './rule';

const batchKeys = ['train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps'];

/** Elasticity computes the batch keys itself and refuses explicit ones unless told to ignore them (§12). */
export const elasticityBatchKeys: Rule = (config) => {
  if (!config.isTrue(['elasticity', 'enabled']) || config.isTrue(['elasticity', 'ignore_non_elastic_batch_info'])) return [];
  return batchKeys
    .filter((key) => config.has([key]))
    .map((key) =>
      config.diagnostic(
        'elasticity-with-batch-keys',
        'error',
        config.keyRange([key]),
        `With elasticity enabled DeepSpeed computes "${key}" itself and refuses a config that also sets it (ElasticityConfigError), unless "elasticity.ignore_non_elastic_batch_info" is true.`,
        {
          path: [key],
          fixes: [
            fix('Set "ignore_non_elastic_batch_info": true', [{ op: 'set', path: ['elasticity', 'ignore_non_elastic_batch_info'], value: true }], true),
            fix(`Remove "${key}"`, [{ op: 'remove', path: [key] }]),
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
  if (minGpus !== undefined && maxGpus !== undefined && minGpus > maxGpus) say(['elasticity', 'min_gpus'], `"min_gpus" (${minGpus}) is larger than "max_gpus" (${maxGpus}).`);
  const maxBatch = config.number(['elasticity', 'max_train_batch_size']);
  const micro = config.get(['elasticity', 'micro_batch_sizes']);
  if (maxBatch !== undefined && Array.isArray(micro)) {
    const tooBig = micro.filter((m) => typeof m === 'number' && m > maxBatch);
    if (tooBig.length > 0) say(['elasticity', 'micro_batch_sizes'], `Micro batch sizes ${tooBig.join(', ')} are larger than "max_train_batch_size" (${maxBatch}); DeepSpeed refuses them.`);
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
const versionFixes = [fix('Use version 0.2', [{ op: 'set' as const, path: versionPath, value: 0.2 }], true), fix('Use version 0.1', [{ op: 'set' as const, path: versionPath, value: 0.1 }])];

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
    const why = version === undefined ? `float() fails on ${showValue(raw)}` : version > 0.2 ? `it raises ElasticityConfigError above 0.2` : `it has no elastic logic for ${showValue(raw)} (NotImplementedError)`;
    return [config.diagnostic('elasticity-invalid', 'error', config.valueRange(versionPath), `"version" must be 0.1 or 0.2: DeepSpeed compares float(version) with exactly these, and ${why}.`, { path: versionPath, fixes: versionFixes })];
  }
  const modelParallel = config.number(['elasticity', 'model_parallel_size']) ?? 1;
  if (modelParallel > 1 && version === 0.1) {
    const path = ['elasticity', 'model_parallel_size'];
    return [
      config.diagnostic('elasticity-invalid', 'error', config.valueRange(path), `Elasticity version 0.1 does not support model parallelism: with "model_parallel_size" ${modelParallel} DeepSpeed raises ElasticityConfigError. Use version 0.2.`, {
        path,
        fixes: [fix('Use version 0.2', [{ op: 'set', path: versionPath, value: 0.2 }], true), fix('Set "model_parallel_size": 1', [{ op: 'set', path, value: 1 }])],
      }),
    ];
  }
  const perNode = config.number(['elasticity', 'num_gpus_per_node']) ?? 1;
  if (version === 0.2 && modelParallel >= 1 && perNode % modelParallel !== 0) {
    const written = config.has(['elasticity', 'num_gpus_per_node']);
    const path = ['elasticity', written ? 'num_gpus_per_node' : 'model_parallel_size'];
    return [
      config.diagnostic('elasticity-invalid', 'error', config.valueRange(path), `"num_gpus_per_node" (${perNode}${written ? '' : ', the default'}) must be divisible by "model_parallel_size" (${modelParallel}); elasticity 0.2 raises ElasticityError otherwise.`, { path }),
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
