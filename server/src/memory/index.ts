/**
 * A summary of the memory estimator for tests, the bench and tools. Inside the server each module imports the
 * file it needs; which folders may import memory/ is the layer check's business (.dependency-cruiser.cjs).
 *
 *   estimate(input)            one setup → per-GPU / per-node CPU / NVMe bytes, fits, notes
 *   estimateAllOptions(input)  the same setup at stages 0–3 with the usual offload choices
 *   resolveModel(spec, fs)     hub id / ModelScope id / folder / cache → ModelInfo (never the network)
 *   findCatalogModel(id)       built-in catalog lookup (case-insensitive, aliases, bare names)
 *   modelFromNameSize(id)      an unknown id sized from its name (`…-13B-…`, `30B-A3B`), marked approximate
 *   extractConfigFacts(json)   ds_config → the settings that matter, each with its JSON path
 *   estimateDeepSpeed(input)   DeepSpeed's own estimator, to the byte
 */
export * from './types';
export { estimate, estimateAllOptions } from './estimate';
export { usesBf16Optimizer } from './precisionPlan';
export { catalogEntries, findCatalogModel, findCatalogEntry, findCatalogModelByPath, type CatalogEntry } from './catalog';
export { resolveModel } from './resolveModel';
export { modelFromNameSize, statedSize, NAME_SIZE_LABEL, type StatedSize } from './nameSize';
export { readModelFolder } from './modelFolder';
export { findCachedModel, findInHuggingFaceCache, findInModelScopeCache } from './modelCache';
export { countParams, type ParamCount } from './paramCount';
export { architectureFromConfig } from './configJson';
export { derivableBatchTotal, derivedGradientAccumulation, derivedMicroBatch, extractConfigFacts, estimateInputFromFacts, hfAutoBuffers, type ConfigFacts, type Fact } from './configFacts';
export { estimateDeepSpeed, deepSpeedZero2, deepSpeedZero3, formatDeepSpeedTable, deepSpeedTableRows, type DeepSpeedEstimate } from './deepspeed';
export { estimateDeepSpeedResult, type DeepSpeedModeOptions } from './deepspeedResult';
export { formatStageTable, fitMark, type StageColumn } from './report';
export { defaultEstimateInput, estimateDefaults } from './defaults';
export { optimizerFromName, optimizerNames } from './optimizers';
export { loraTrainableParams, NF4_DOUBLE_QUANT_BYTES } from './lora';
export { activationBytes } from './activations';
export { deepSpeedBufferDefaults, overlapCommDefault } from './buffers';
export { deepSpeedGiB, parseCount, GiB } from './units';
export { zeroPaperModelStates } from './zeroPaper';
