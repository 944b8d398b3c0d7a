import { sameOption, type AlternativeOption, type MissingInput, type Source, type ZeroOption } from '../protocol';
import type { EstimateInput, EstimateResult, ModelInfo, TrainingEngine } from '../memory/types';
import type { TrainingContext } from './context';

/** One option with its estimate. */
export interface OptionEstimate {
  target: ZeroOption;
  label: string;
  result: EstimateResult;
}

/**
 * Everything the hint, hover, diagnostic, quick fixes and sidebar say about one config version in one
 * context, computed once and cached (see service.ts).
 */
export interface ConfigAnalysis {
  configPath: string;
  context: TrainingContext;
  /** The resolved model; undefined when none is named or it could not be sized. */
  model?: ModelInfo;
  /** Why a named model has no size (not in the catalog, folder without config.json). */
  modelProblem?: string;
  /** The option the config describes (or the caller chose, as the CLI's --stage). */
  current: ZeroOption;
  /** Every option with its estimate; empty when numbers cannot be given. */
  options: OptionEstimate[];
  /**
   * Who trains: DeepSpeed (the ZeRO option `current` names), plain PyTorch, FSDP or Megatron. Under FSDP or Megatron
   * `estimate(current)` is the run as written, and the ZeRO options are what DeepSpeed would hold for the same job.
   */
  engine: TrainingEngine;
  /** The same job under FSDP (and the Megatron layout it runs), beside the ZeRO options; empty without numbers. */
  alternatives: AlternativeOption[];
  /** Estimate for any option (computed on demand for options outside the standard list); undefined without numbers. */
  estimate(target: ZeroOption): EstimateResult | undefined;
  /** The estimator's input for the current option and where each of its values came from; undefined without numbers. */
  input?: EstimateInput;
  inputSources: Record<string, Source>;
  gpuMemoryBytes?: number;
  /** What the reader should know about how the numbers were made: the context's remarks, "auto" values filled. */
  notes: string[];
  /** Missing inputs; "model" or "gpusPerNode" here means there are no numbers at all. */
  missing: MissingInput[];
}

/** Numbers are only shown when both the model and the GPU count are known: never invented ones. */
export function hasNumbers(analysis: ConfigAnalysis): boolean {
  return !!analysis.model && !!analysis.context.gpusPerNode && analysis.options.length > 0;
}

export function findOption(options: OptionEstimate[], target: ZeroOption): OptionEstimate | undefined {
  return options.find((o) => sameOption(o.target, target));
}

