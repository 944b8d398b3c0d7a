/**
 * The custom requests between the ZeRO Lens client and server, each with its parameter and result types in
 * one place (as vscode-eslint's shared protocol). Both sides go through `RequestSpec`, so a change of a type
 * here is a compile error on the side that did not follow.
 */
import type { WorkspaceEdit } from 'vscode-languageserver-types';
import type { AlternativeOption, Precision, StageOption } from './estimate';
import type { ZeroOption } from './options';
import type { Sourced } from './sources';

/** A request method with its parameter and result types (the types exist only for the compiler). */
export interface RequestSpec<P, R> {
  readonly method: string;
  readonly types?: { params: P; result: R };
}

/** A notification method with its parameter type. */
export interface NotificationSpec<P> {
  readonly method: string;
  readonly types?: { params: P };
}

export interface DocumentParams {
  uri: string;
}

/** What is missing for numbers: the model, the GPU count, the DeepSpeed config; gpuMemoryGiB only stops the fit check. */
export type MissingInput = 'model' | 'gpusPerNode' | 'gpuMemoryGiB' | 'deepspeed';

/** The values of a training context that the training layer resolves and the wire carries as they are. */
export interface ContextValues {
  gpusPerNode?: Sourced<number>;
  nodes: Sourced<number>;
  gpuMemoryGiB?: Sourced<number>;
  sequenceLength: Sourced<number>;
  microBatchSize: Sourced<number>;
  gradientCheckpointing: Sourced<boolean>;
  dtype: Sourced<Precision>;
}

/** The training context a document's estimate assumes, each value with where it came from. */
export interface TrainingContextView extends ContextValues {
  model?: Sourced<{ id: string; displayName: string; totalParams: number }>;
  loraRank?: Sourced<number>;
}

/** The server's estimate for a document, for the sidebar, the language status item and the stage quick pick. */
export interface EstimateView {
  uri: string;
  kind: 'ds-config' | 'launch-script' | 'launch-yaml';
  /** What is missing for numbers; empty when the estimate is complete. */
  missing: MissingInput[];
  context: TrainingContextView;
  /** The option the document currently describes, when it says. */
  current: ZeroOption | null;
  /** Every option (stages 0–3, optimizer offload for 1–3, parameter offload for 3); empty without numbers. */
  options: StageOption[];
  /** The same job under FSDP (and the Megatron layout a launch runs), beside the ZeRO options; empty without numbers. */
  alternatives?: AlternativeOption[];
  gpuMemoryBytes?: number;
}

export interface ApplyOptionParams extends ZeroOption {
  uri: string;
}

export interface ApplyOptionResult {
  edit: WorkspaceEdit | null;
  /** Why there is no edit (e.g. the script uses no --deepspeed flag). */
  reason?: string;
}

/** A model of the built-in catalog, for model pickers (no network: the bundled catalog only). */
export interface CatalogEntry {
  id: string;
  displayName: string;
  totalParams: number;
  /** Other names of the same model (ModelScope ids, Instruct/Chat/-it releases), for the model search. */
  aliases?: string[];
}

/** The estimate for a document (null for files ZeRO Lens does not handle). */
export const EstimateViewRequest: RequestSpec<DocumentParams, EstimateView | null> = { method: 'zeroLens/estimateView' };
/** The edit that moves a document to an option (the same edit as the quick fix); the client applies it. */
export const ApplyOptionRequest: RequestSpec<ApplyOptionParams, ApplyOptionResult> = { method: 'zeroLens/applyOption' };
/** The model catalog for the sidebar's model search. */
export const CatalogRequest: RequestSpec<void, CatalogEntry[]> = { method: 'zeroLens/catalog' };
/** The client changed zeroLens.* settings itself (sidebar inputs): re-read settings and refresh. */
export const ConfigurationChangedNotification: NotificationSpec<void> = { method: 'zeroLens/configurationChanged' };

/** Open documents whose estimate may differ now. */
export interface EstimatesChangedParams {
  uris: string[];
}
/**
 * Server to client: what these open documents read changed (a file on disk or unsaved, the settings, the
 * workspace folders, trust), so the sidebar and the language status ask again when they show one of them. Sent
 * only to a client that asks with `initializationOptions.estimatesChanged: true` (other editors have no use for it).
 */
export const EstimatesChangedNotification: NotificationSpec<EstimatesChangedParams> = { method: 'zeroLens/estimatesChanged' };

/** Whether the user trusts the workspace (VS Code's workspace trust); also sent as `initializationOptions.trusted`. */
export interface WorkspaceTrustParams {
  trusted: boolean;
}
/**
 * The user granted trust to the workspace. Until then (initialization option `trusted: false`) the server
 * reads no model folder, no cache and nothing outside the workspace folders.
 */
export const WorkspaceTrustNotification: NotificationSpec<WorkspaceTrustParams> = { method: 'zeroLens/workspaceTrust' };

/** A `.vscode/settings.json` text and one of its flat keys (`zeroLens.model`) to set, or to remove with null. */
export interface SettingsEditParams {
  text: string;
  key: string;
  value: string | number | boolean | null;
}
/** The one replacement that makes the edit, as offsets in the text; null when nothing changes or the file is not a JSON object. */
export interface SettingsEditResult {
  edit: { start: number; end: number; newText: string } | null;
}
/**
 * The settings edit the sidebar writes, made by the server's comment-preserving JSONC edits (the same ones
 * every fix uses), so a comment above or beside a key outlives the key's change.
 */
export const SettingsEditRequest: RequestSpec<SettingsEditParams, SettingsEditResult> = { method: 'zeroLens/settingsEdit' };
