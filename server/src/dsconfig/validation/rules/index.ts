import type { JSONPath } from 'jsonc-parser';
import { autotuningRules } from './autotuning';
import { batchRules } from './batch';
import { compressionRules } from './compression';
import { curriculumRules } from './curriculum';
import { deepcompileRules } from './deepcompile';
import { elasticityOwnedPaths, elasticityRules } from './elasticity';
import { expertParallelRules } from './expertParallel';
import { optimizerOwnedPaths, optimizerRules } from './optimizer';
import { parallelismOwnedPaths, parallelismRules } from './parallelism';
import { pipelineLoggingRules } from './pipelineLogging';
import { precisionRules } from './precision';
import type { Rule } from './rule';
import { trainingRules } from './training';
import { valueOwnedPaths, valueRules } from './values';
import { zeroRules } from './zero';
import { zeroppLocoRules } from './zeroppLoco';
import { zenflowValueRules } from './zenflowValues';

/** Every cross-key rule (§2.1, §3.3, §4, §14 of the DeepSpeed reference), one group per file. */
export const allRules: Rule[] = [
  ...batchRules,
  ...precisionRules,
  ...zeroRules,
  ...zeroppLocoRules,
  ...optimizerRules,
  ...parallelismRules,
  ...zenflowValueRules,
  ...deepcompileRules,
  ...expertParallelRules,
  ...trainingRules,
  ...pipelineLoggingRules,
  ...autotuningRules,
  ...elasticityRules,
  ...curriculumRules,
  ...compressionRules,
  ...valueRules,
];

/** Paths whose values a rule checks itself, so the generic schema error there would be a duplicate. */
export const ruleOwnedPaths: JSONPath[] = [...optimizerOwnedPaths, ...parallelismOwnedPaths, ...elasticityOwnedPaths, ...valueOwnedPaths];
