/**
 * Custom messages between the ZeRO Lens client and server, defined once for both sides.
 * The client imports only types and method names from here.
 */
import type { WorkspaceEdit } from 'vscode-languageserver-types';
import type { OffloadDevice, StageOption, ZeroStage } from './memory/types';

/** The server's estimate for a document, for the sidebar, the language status item and the stage quick pick. */
export const EstimateViewRequest = 'zeroLens/estimateView';
/** The edit that moves a document to an option (same edit as the quick fix); the client applies it. */
export const ApplyOptionRequest = 'zeroLens/applyOption';
/** The client changed zeroLens.* settings itself (sidebar inputs): re-read settings and refresh. */
export const ConfigurationChangedNotification = 'zeroLens/configurationChanged';

export interface EstimateViewParams {
  uri: string;
}

/** One resolved input of the training context and where it came from, e.g. "launch script train.sh:4". */
export interface ContextValue<T> {
  value: T;
  /** Human-readable origin: "settings (zeroLens.gpusPerNode)", "train.sh line 4", "ds_config.json", "default". */
  source: string;
}

export interface TrainingContextView {
  model?: ContextValue<{ id: string; displayName: string; totalParams: number }>;
  gpusPerNode: ContextValue<number>;
  nodes: ContextValue<number>;
  gpuMemoryGiB?: ContextValue<number>;
  sequenceLength: ContextValue<number>;
  microBatchSize: ContextValue<number>;
  gradientCheckpointing: ContextValue<boolean>;
  loraRank?: ContextValue<number>;
  dtype: ContextValue<'bf16' | 'fp16' | 'fp32'>;
}

export interface EstimateView {
  uri: string;
  kind: 'ds-config' | 'launch-script' | 'launch-yaml';
  /** What is missing for numbers (e.g. ["model", "gpuMemoryGiB"]); empty when the estimate is complete. */
  missing: string[];
  context: TrainingContextView;
  /** The option the document currently describes, when it says. */
  current: { stage: ZeroStage; offloadOptimizer: OffloadDevice; offloadParam: OffloadDevice } | null;
  /** Every option (stages 0–3, optimizer offload for 1–3, parameter offload for 3); empty when no model is known. */
  options: StageOption[];
  gpuMemoryBytes?: number;
}

export interface ApplyOptionParams {
  uri: string;
  stage: ZeroStage;
  offloadOptimizer: OffloadDevice;
  offloadParam: OffloadDevice;
}

export interface ApplyOptionResult {
  edit: WorkspaceEdit | null;
  /** Why there is no edit (e.g. the script uses no --deepspeed flag). */
  reason?: string;
}

/** The model catalog for the sidebar's model search (no network: the bundled catalog only). */
export const CatalogRequest = 'zeroLens/catalog';

export interface CatalogEntry {
  id: string;
  displayName: string;
  totalParams: number;
  /** Other ids of the model (ModelScope ids, Instruct/Chat releases), for the model search. */
  aliases?: string[];
}
