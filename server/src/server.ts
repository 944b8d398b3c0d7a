/**
 * The LSP layer: wires protocol requests to the pure language service and nothing more.
 * Runs standalone with `node dist/server.js --stdio` (or --node-ipc when started by the VS Code client).
 */
import {
  CodeActionKind,
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  FileChangeType,
  LSPErrorCodes,
  MessageType,
  ProposedFeatures,
  ResponseError,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type DocumentDiagnosticReport,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { Console } from 'node:console';
import { runInNewContext } from 'node:vm';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService, type ZeroLensLanguageService } from './languageService';
import { completionOrigin, type CompletionClientSupport } from './completionList';
import { warmUpDsConfig } from './dsconfig/warmUp';
import { OneChunkMessageReader } from './stdioMessageReader';
import { OneChunkMessageWriter } from './stdioMessageWriter';
import { yieldToEventLoop } from './util/pacer';
import { withOpenDocuments } from './host';
import { fsTrace, NodeFileSystem, NodeWorkspace, withOpenLaunchFiles } from './nodeHost';
import { startClientWatch, watchClientProcess, watchedFor } from './clientWatch';
import { withBudget } from './requestBudget';
import { Cancelled, timeBudget, type Budget } from './util/budget';
import { describeIgnoredSetting, ignoredSettings, withDefaults, type ZeroLensSettings } from './settings';
import { resolveLocale, translator, type Locale } from './l10n';
import { DependentsRefresh, EstimatesChanged } from './dependentsRefresh';
import { PullDiagnostics, pullSupportOf } from './pullDiagnostics';
import { ApplyOptionRequest, CatalogRequest, ConfigurationChangedNotification, EstimatesChangedNotification, EstimateViewRequest, SettingsEditRequest, WorkspaceTrustNotification, releaseWatchGlobs, type EstimatesChangedParams, type RequestSpec, type WorkspaceTrustParams } from './protocol';
import { settingsEdit } from './settingsEdit';
import { jsonBasics } from './jsonBasics';
import { ModelFolderWatch } from './modelFolderWatch';
import { folderHolding } from './util/paths';
import { ListingRecheck } from './listingRecheck';

let shutdownRequested = false;
const connection: Connection = process.argv.includes('--stdio') ? stdioConnection() : createConnection(ProposedFeatures.all);

/**
 * Over stdio the server opens the streams itself, to write each message in one chunk (see
 * stdioMessageWriter.ts), so it also does what the library does when it opens them.
 */
function stdioConnection(): Connection {
  // stdout carries the protocol; console output goes to stderr, which editors keep as the server's log.
  globalThis.console = new Console(process.stderr, process.stderr);
  // Our stdin closing means the editor is gone.
  const exit = (): never => process.exit(shutdownRequested ? 0 : 1);
  process.stdin.on('end', exit);
  process.stdin.on('close', exit);
  return createConnection(ProposedFeatures.all, new OneChunkMessageReader(process.stdin), new OneChunkMessageWriter(process.stdout));
}
// The server ends within a fraction of a second of its client, however busy: the watch starts here, and its
// thread before the first huge text is worked on (watchedFor).
startClientWatch(() => process.exit(shutdownRequested ? 0 : 1));
const documents = new TextDocuments(TextDocument);
const workspace = new NodeWorkspace([]);
/** The disk; `ZERO_LENS_TRACE_FS` logs every path it touches (the restricted-mode tests read that log). */
const disk = new NodeFileSystem(fsTrace(process.env.ZERO_LENS_TRACE_FS), watchedFor);
/** Walks the workspace again now and then for files whose events never came; `ZERO_LENS_RELIST_MS` (tests) sets how often. */
const listingRecheck = new ListingRecheck(
  {
    relist: () => workspace.relist(),
    changed: (paths) => filesChangedOnDisk(paths.map((p) => URI.file(p).toString())),
    reportError: (error) => connection.console.error(`ZeRO Lens could not list the workspace again: ${String(error)}`),
  },
  Number(process.env.ZERO_LENS_RELIST_MS) || undefined,
);
/** Created on initialize, once the editor's capabilities are known; requests before that are refused (`notInitialized`). */
let service: ZeroLensLanguageService;
let followingDocuments = false;

/** A request that comes before initialize gets the protocol's ServerNotInitialized error. */
function initialized(): void {
  if (service !== undefined) return;
  const t = translator(displayLocale);
  throw new ResponseError(ErrorCodes.ServerNotInitialized, t('The server is not initialized yet.'));
}

let canPullConfiguration = false;
/**
 * The editor takes a dynamic registration for settings changes (`workspace.didChangeConfiguration.dynamicRegistration`);
 * LSP 3.17 (client/registerCapability.md): "A client opts in via the `dynamicRegistration` property on the specific
 * client capabilities". Editors that send the notification anyway (Neovim, Helix, Eglot) need none.
 */
let canRegisterConfiguration = false;
/** The editor reports workspace folder changes (`workspace.workspaceFolders`); others name one rootUri. */
let foldersChange = false;
/**
 * The editor takes workspace/inlayHint/refresh (`workspace.inlayHint.refreshSupport`, LSP 3.17 language/inlayHint.md,
 * InlayHintWorkspaceClientCapabilities); others answer it with an error, or log one, at every settings or file change.
 */
let canRefreshInlayHints = false;
/** The editor watches files for a server that registers them (`workspace.didChangeWatchedFiles.dynamicRegistration`). */
let canWatchFiles = false;
/**
 * What the server reads besides open documents: launch scripts (and batch scripts), launcher YAML, configs, model
 * weights and a Hugging Face cache's refs (a model folder or cache in the workspace), and what the DeepSpeed release
 * is read from (pins, environments). Edited outside the editor (a `git pull`, a script that writes its ds_config, a
 * download, a new pin), they change other documents' estimates and checks.
 */
const watchedFiles = ['**/*.{sh,bash,zsh,slurm,sbatch,pbs,yaml,yml,json,safetensors}', '**/models--*--*/refs/main', ...releaseWatchGlobs()].map((globPattern) => ({ globPattern }));
/**
 * Model folders outside the workspace, watched where the editor takes a RelativePattern (LSP 3.17
 * workspace/didChangeWatchedFiles.md L27-33, L77-96 @60f2bb8a: `relativePatternSupport`, `{ baseUri, pattern }`).
 */
let modelWatch: ModelFolderWatch | undefined;
/** What a model's size is read from in its folder (readModelFolder, memory/modelFolder.ts), not its subfolders. */
const modelFiles = ['config.json', '*.safetensors', '*.safetensors.index.json'];
/**
 * The same in a Hugging Face cache folder's snapshots, and the ref that names one (memory/modelCache.ts). A pattern
 * with a `/` has VS Code watch the folder recursively (extHostFileSystemEventService.ts, ensureWatching).
 */
const modelWatchPattern = (folder: string) =>
  /[\\/]models--[^\\/]+--[^\\/]+$/.test(folder) ? `{refs/main,${modelFiles.map((f) => `snapshots/*/${f}`).join(',')}}` : `{${modelFiles.join(',')}}`;
/** Said once: an editor that takes no RelativePattern is not asked to watch a model folder outside the workspace. */
let toldModelsUnwatched = false;
let globalSettings: unknown = {};
/**
 * The language texts are written in when `zeroLens.language` is `auto`: `initializationOptions.language`
 * (`en`, `zh-cn`; for editors without settings), else the editor's display language (`InitializeParams.locale`,
 * which VS Code fills from its own).
 */
let displayLocale: Locale = 'en';
/**
 * The editor's own JSON server checks `json`/`jsonc` documents (VS Code's client says so in initializationOptions):
 * otherwise ZeRO Lens reports their syntax, comments, trailing commas and duplicate keys itself.
 */
let editorChecksJson = false;
/** Validation waits this long after the last keystroke; stale runs are dropped by version. */
let validationDelayMs = 120;
const settingsByUri = new Map<string, Promise<ZeroLensSettings>>();
/** Cancels the validation scheduled for a URI. */
const pendingValidation = new Map<string, () => void>();
/** Set when the editor pulls diagnostics (pullDiagnostics.ts); otherwise they are pushed after a debounce. */
let pulled: PullDiagnostics | undefined;
/** Format, outline, folding and Expand Selection for ds_config documents (jsonBasics.ts). */
let basics: ReturnType<typeof jsonBasics>;
/** Set when the client asks to be told which open documents' estimates may differ (`initializationOptions.estimatesChanged`). */
let estimatesChanged: EstimatesChanged | undefined;

/** How much of a completion list the editor lets us leave out (see completionList.ts). */
function completionSupportOf(capabilities: ClientCapabilities): CompletionClientSupport {
  const completion = capabilities.textDocument?.completion;
  const itemDefaults = completion?.completionList?.itemDefaults ?? [];
  const resolvable = completion?.completionItem?.resolveSupport?.properties ?? [];
  return {
    resolveDocumentation: resolvable.includes('documentation'),
    resolveDetail: resolvable.includes('detail'),
    defaultEditRange: itemDefaults.includes('editRange'),
    defaultData: itemDefaults.includes('data'),
    defaultInsertTextFormat: itemDefaults.includes('insertTextFormat'),
    snippets: completion?.completionItem?.snippetSupport === true,
  };
}

/**
 * A full collection, when a huge script's analysis was just dropped for its next version (releaseMemory): V8
 * would otherwise collect it only once the heap has doubled what its last collection kept, so the old analysis and the new one
 * (about 45 MB each for a 1 MB script) would be in memory together. It takes about 10 ms on that heap, beside a
 * second of analysis. `gc` exists only with --expose-gc (v8Flags.ts, set at boot), in a context made after.
 */
function collectGarbage(): () => void {
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return () => gc?.();
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  const fs = withOpenDocuments(disk, (file) => documents.get(URI.file(file).toString())?.getText());
  const openDocument = (file: string) => documents.get(URI.file(file).toString());
  const snippetEdits = params.capabilities.workspace?.workspaceEdit?.snippetEditSupport === true;
  const openFiles = () => documents.all().flatMap((d) => (d.uri.startsWith('file:') ? [{ path: URI.parse(d.uri).fsPath, length: d.getText().length }] : []));
  service = getLanguageService({ fs, workspace: withOpenLaunchFiles(workspace, openFiles), completion: completionSupportOf(params.capabilities), markupFormats: { hover: params.capabilities.textDocument?.hover?.contentFormat, documentation: params.capabilities.textDocument?.completion?.completionItem?.documentationFormat }, openDocument, snippetEdits, releaseMemory: collectGarbage(), modelSized });
  canPullConfiguration = !!params.capabilities.workspace?.configuration;
  canRegisterConfiguration = params.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
  canRefreshInlayHints = params.capabilities.workspace?.inlayHint?.refreshSupport === true;
  foldersChange = params.capabilities.workspace?.workspaceFolders === true;
  canWatchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  if (canWatchFiles && params.capabilities.workspace?.didChangeWatchedFiles?.relativePatternSupport === true) modelWatch = new ModelFolderWatch({ wanted: watchedModelFolders, register: watchModelFolder });
  const options = (params.initializationOptions ?? {}) as { settings?: unknown; validationDelayMs?: number; language?: unknown; trusted?: unknown; editorChecksJson?: unknown; estimatesChanged?: unknown };
  editorChecksJson = options.editorChecksJson === true;
  if (options.estimatesChanged === true) estimatesChanged = new EstimatesChanged(() => validationDelayMs, tellEstimatesChanged);
  // Editors without workspace trust send nothing: trusted. VS Code's client says whether the user trusts the folder.
  disk.setTrusted(options.trusted !== false);
  watchClientProcess(params.processId);
  globalSettings = options.settings ?? {};
  displayLocale = resolveLocale([typeof options.language === 'string' ? options.language : undefined], [params.locale]);
  if (typeof options.validationDelayMs === 'number') validationDelayMs = Math.max(0, options.validationDelayMs);
  const folders = params.workspaceFolders?.map((f) => URI.parse(f.uri).fsPath) ?? (params.rootUri ? [URI.parse(params.rootUri).fsPath] : []);
  workspace.setFolders(folders);
  disk.setFolders(folders);
  const pullSupport = pullSupportOf(params.capabilities);
  if (pullSupport.pull) pulled = new PullDiagnostics({ refresh: () => connection.languages.diagnostics.refresh(), reportError: reportRefreshError }, pullSupport.refresh);
  basics = jsonBasics(connection, documents, () => service, params.capabilities);
  // Documents are followed from here on: the protocol drops notifications that come before initialize.
  if (!followingDocuments) documents.listen(connection);
  followingDocuments = true;
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      // Scripts and configs feed each other's diagnostics; an editor that takes refresh requests is told which
      // changed, others re-pull open documents themselves.
      ...(pulled && { diagnosticProvider: { interFileDependencies: !pullSupport.refresh, workspaceDiagnostics: false } }),
      completionProvider: { triggerCharacters: ['"', ':', ' ', '-', '=', '/'], resolveProvider: true },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, 'source.fixAll.zeroLens'] },
      inlayHintProvider: true,
      documentLinkProvider: { resolveProvider: false },
      definitionProvider: true,
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'ZeRO Lens', version: '0.1.0' },
  };
});

connection.onShutdown(() => {
  shutdownRequested = true;
});

/**
 * A registration the client refuses (it answers client/registerCapability with an error) is logged: the
 * server goes on without it. Left unhandled, the rejection ended the process.
 */
function registrationRefused(method: string, error: unknown): void {
  connection.console.warn(`ZeRO Lens could not register ${method} with the client: ${error instanceof Error ? error.message : String(error)}`);
}

connection.onInitialized(() => {
  if (canRegisterConfiguration) {
    connection.client.register(DidChangeConfigurationNotification.type, undefined).catch((error: unknown) => registrationRefused(DidChangeConfigurationNotification.method, error));
  }
  basics.register(registrationRefused);
  if (canWatchFiles) {
    connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: watchedFiles })
      .catch((error: unknown) => registrationRefused(DidChangeWatchedFilesNotification.method, error));
  }
  // The library throws when asked to listen to a client that cannot report folder changes.
  if (!foldersChange) return;
  // The event says which folders came and went (LSP 3.17 workspace/didChangeWorkspaceFolders.md,
  // WorkspaceFoldersChangeEvent): asking the client for the whole list again could fail, and a failed request in
  // this handler was an unhandled rejection that ended the process.
  connection.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => {
    const gone = new Set(removed.map((f) => URI.parse(f.uri).fsPath));
    const kept = workspace.folders().filter((folder) => !gone.has(folder));
    const folders = [...kept, ...added.map((f) => URI.parse(f.uri).fsPath).filter((folder) => !kept.includes(folder))];
    workspace.setFolders(folders);
    disk.setFolders(folders);
    // Which launches use a config, which folder's settings a file reads, what may be read: all may differ now.
    // Only marking pulled documents stale kept the service's cached launches (the same answer again), and an
    // editor that does not pull got nothing.
    refreshAll();
  });
});

/** Ignored setting values already shown, by name and value: each is said once, not at every request. */
const toldIgnored = new Set<string>();

/**
 * The settings a client sent, read as `withDefaults` reads them; a value the definition refuses is ignored, and the
 * user is told which, why and what is used instead (shown once per value, and logged).
 */
function readSettings(sent: unknown): ZeroLensSettings {
  const settings = withDefaults(sent, displayLocale, editorChecksJson);
  for (const ignored of ignoredSettings(sent)) {
    const key = `${ignored.name}=${JSON.stringify(ignored.value)}`;
    if (toldIgnored.has(key)) continue;
    toldIgnored.add(key);
    const message = describeIgnoredSetting(ignored, translator(settings.locale));
    connection.console.warn(message);
    // A notification (window/showMessage), not showWarningMessage's request: nothing for the editor to answer.
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
  }
  return settings;
}

/** Settings are per resource: a folder may describe other GPUs than its neighbour. */
function settingsFor(uri: string): Promise<ZeroLensSettings> {
  if (!canPullConfiguration) return Promise.resolve(readSettings(globalSettings));
  let settings = settingsByUri.get(uri);
  if (!settings) {
    settings = connection.workspace
      .getConfiguration({ scopeUri: uri, section: 'zeroLens' })
      .then(
        (value: unknown) => readSettings(value),
        () => withDefaults({}, displayLocale, editorChecksJson),
      );
    settingsByUri.set(uri, settings);
  }
  return settings;
}

/** Asks the editor to ask for inlay hints again, where it can be asked. */
function refreshInlayHints(): void {
  if (canRefreshInlayHints) void connection.languages.inlayHint.refresh().catch(() => undefined);
}

function refreshAll(): void {
  settingsByUri.clear();
  workspace.invalidate();
  service.invalidateWorkspace();
  if (pulled) pulled.changedAll();
  else for (const document of documents.all()) scheduleValidation(document, 0);
  refreshInlayHints();
  estimatesChanged?.add(documents.keys());
}

/** Sent from a timer: a write that fails (the client went away meanwhile) is no unhandled rejection, as with inlay hints. */
function tellEstimatesChanged(uris: string[]): void {
  const params: EstimatesChangedParams = { uris };
  connection.sendNotification(EstimatesChangedNotification.method, params).catch(() => undefined);
}

connection.onDidChangeConfiguration((change) => {
  if (!canPullConfiguration) globalSettings = (change.settings as { zeroLens?: unknown })?.zeroLens ?? globalSettings;
  refreshAll();
});
connection.onNotification(ConfigurationChangedNotification.method, refreshAll);
connection.onNotification(WorkspaceTrustNotification.method, (params: WorkspaceTrustParams) => {
  disk.setTrusted(params?.trusted === true);
  refreshAll();
  modelWatch?.schedule();
});

/** A model was sized: watch its folder, or say once that this editor cannot be asked to (no relativePatternSupport). */
function modelSized(): void {
  if (modelWatch) return modelWatch.schedule();
  if (toldModelsUnwatched || !canWatchFiles) return;
  const outside = watchedModelFolders();
  if (!outside.length) return;
  toldModelsUnwatched = true;
  const t = translator(displayLocale);
  connection.console.info(t('The editor watches no folder outside the workspace for ZeRO Lens (it takes no `RelativePattern`): a change in {0} shows once the document is edited or opened again.', outside[0]));
}

/** Model folders and hub ids' cache folders outside the workspace (the workspace's watchers cover the rest); none untrusted. */
function watchedModelFolders(): string[] {
  return disk.restricted() ? [] : service.modelFolders().filter((folder) => !folderHolding(folder, workspace.folders()));
}

function watchModelFolder(folder: string): Promise<{ dispose(): void } | undefined> {
  const globPattern = { baseUri: URI.file(folder).toString(), pattern: modelWatchPattern(folder) };
  return connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern }] }).catch((error: unknown) => {
    registrationRefused(DidChangeWatchedFilesNotification.method, error);
    return undefined;
  });
}
connection.onDidChangeWatchedFiles((params) => {
  // A file created or deleted changes the workspace's listing; a changed one only what was read from it.
  if (params.changes.some((c) => c.type !== FileChangeType.Changed)) workspace.invalidate();
  filesChangedOnDisk(params.changes.map((c) => c.uri));
});

/** Files changed on disk (a file event, or the listing's recheck): what was read from them goes, their dependents follow. */
function filesChangedOnDisk(uris: string[]): void {
  const affected = service.filesChanged(uris);
  revalidate(affected);
  if (affected.length) refreshInlayHints();
}

/**
 * Open documents whose diagnostics may have changed: pushed again, or the editor is asked to pull them. Their
 * estimates too: the client that follows one (the sidebar) is told.
 */
function revalidate(uris: string[]): void {
  estimatesChanged?.add(uris);
  if (pulled) return pulled.changed(uris);
  for (const uri of uris) {
    const document = documents.get(uri);
    if (document) scheduleValidation(document, 0);
  }
}

/** Push only: validate and publish once typing pauses (at once for a document just opened). */
function scheduleValidation(document: TextDocument, delay = validationDelayMs): void {
  if (pulled) return;
  pendingValidation.get(document.uri)?.();
  const run = (): void => {
    pendingValidation.delete(document.uri);
    void validate(document.uri, document.version);
  };
  // setTimeout(…, 0) still waits a millisecond or more; without a delay, run right after pending messages.
  if (delay <= 0) {
    const immediate = setImmediate(run);
    pendingValidation.set(document.uri, () => clearImmediate(immediate));
  } else {
    const timer = setTimeout(run, delay);
    pendingValidation.set(document.uri, () => clearTimeout(timer));
  }
}

async function validate(uri: string, version: number): Promise<void> {
  const document = documents.get(uri);
  if (!document || document.version !== version) return;
  const settings = await settingsFor(uri);
  const watching = watchedFor(document.getText());
  if (watching) await watching;
  // Stale work stops at its next checkpoint: a newer version or a close schedules its own run.
  const stale = timeBudget(Infinity, () => documents.get(uri)?.version !== version);
  const diagnostics = await guard('validation', () => service.doValidation(document, settings, stale), []);
  // A newer edit arrived while we worked: its own run will publish.
  if (documents.get(uri)?.version !== version) return;
  await connection.sendDiagnostics({ uri, version, diagnostics });
  warmUpOnce();
}

connection.languages.diagnostics.on(async ({ textDocument: { uri }, previousResultId }, token): Promise<DocumentDiagnosticReport> => {
  const document = documents.get(uri);
  if (!document || !pulled) return { kind: 'full', items: [] };
  listingRecheck.touch();
  const version = document.version;
  // Nothing the diagnostics depend on changed since the report the editor holds: "unchanged", nothing validated.
  const resultId = pulled.resultId(uri, version);
  if (previousResultId === resultId) {
    warmUpOnce();
    return { kind: 'unchanged', resultId };
  }
  // Stops at its next checkpoint when the editor cancels the pull or a newer version arrives. Such a pull is
  // answered "cancelled", never with an empty list that would read as "no problems".
  const stale = timeBudget(Infinity, () => token.isCancellationRequested || documents.get(uri)?.version !== version);
  // Awaited only when there is something to wait for: each await on a keystroke's path is garbage.
  const watching = watchedFor(document.getText());
  if (watching) await watching;
  const settings = await settingsFor(uri);
  const diagnostics = await guard('validation', () => service.doValidation(document, settings, stale), undefined);
  if (!diagnostics) {
    // Stopped: the editor gave up (RequestCancelled), or a newer version came and the editor asks again (ServerCancelled).
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, new Cancelled('cancelled').message);
    if (documents.get(uri)?.version !== version) throw new ResponseError(LSPErrorCodes.ServerCancelled, new Cancelled('cancelled').message, { retriggerRequest: true });
  }
  warmUpOnce();
  // Without diagnostics here the validation failed, which guard logged.
  return { kind: 'full', resultId, items: diagnostics ?? [] };
});

let warmedUp = false;
/** Told once the warm-up is over (boot/server.ts saves the code cache then); undefined once it is. */
let warmUpListeners: (() => void)[] | undefined = [];

/** Once the first diagnostics are out, compile the hot paths in idle time (see dsconfig/warmUp.ts). */
function warmUpOnce(): void {
  if (warmedUp) return;
  warmedUp = true;
  void warmUpDsConfig(yieldToEventLoop)
    .catch(() => undefined)
    .then(() => {
      const listeners = warmUpListeners ?? [];
      warmUpListeners = undefined;
      for (const listener of listeners) listener();
    });
}

export function afterWarmUp(listener: () => void): void {
  if (warmUpListeners) warmUpListeners.push(listener);
  else listener();
}

/** The document a request names; undefined when its params (from any client) name none. */
function requestedUri(params: unknown): string | undefined {
  const p = params as { textDocument?: { uri?: unknown }; uri?: unknown } | null | undefined;
  const uri = p?.textDocument?.uri ?? p?.uri;
  return typeof uri === 'string' ? uri : undefined;
}

/** A request on a document, with its settings, under a time budget that `$/cancelRequest` also ends. */
async function withSettings<T>(
  uri: string | undefined,
  run: (document: TextDocument, settings: ZeroLensSettings, budget: Budget) => Promise<T>,
  fallback: T,
  token?: CancellationToken,
): Promise<T> {
  initialized();
  listingRecheck.touch();
  const document = uri === undefined ? undefined : documents.get(uri);
  if (!document) return fallback;
  const settings = await settingsFor(document.uri);
  // Only a huge text has the watchdog to wait for; awaited otherwise, each request would pay for a settled await.
  const watching = watchedFor(document.getText());
  if (watching) await watching;
  return withBudget('request', token, (budget) => run(document, settings, budget), fallback, (message) => connection.console.error(message));
}

/** A failing feature must never take the server down: log it and answer with nothing. */
async function guard<T>(what: string, run: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof Cancelled)) connection.console.error(`ZeRO Lens ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return fallback;
  }
}

const reportRefreshError = (error: unknown): void => connection.console.error(`ZeRO Lens context refresh failed: ${String(error)}`);
const dependents = new DependentsRefresh({
  delayMs: () => validationDelayMs,
  changed: (uris) => service.filesChanged(uris),
  revalidate: (uri) => revalidate([uri]),
  refreshInlayHints,
  reportError: reportRefreshError,
});

/** A script or config changed, saved or not: what other open documents show of it may be stale. */
function contextSourceTouched(document: TextDocument): void {
  dependents.touched(document.uri);
}

/** Documents just opened, validated at once rather than after the typing debounce. */
const justOpened = new Set<string>();
documents.onDidOpen((event) => justOpened.add(event.document.uri));
// Also fires when a document opens (a script restored unsaved arrives that way), right after onDidOpen.
documents.onDidChangeContent((event) => {
  void watchedFor(event.document.getText());
  scheduleValidation(event.document, justOpened.delete(event.document.uri) ? 0 : validationDelayMs);
  contextSourceTouched(event.document);
});
documents.onDidClose((event) => {
  pendingValidation.get(event.document.uri)?.();
  pendingValidation.delete(event.document.uri);
  // Closed unsaved, the file reads from disk again.
  contextSourceTouched(event.document);
  service.documentClosed(event.document.uri);
  settingsByUri.delete(event.document.uri);
  // An editor that pulls drops a closed document's diagnostics itself.
  if (pulled) pulled.closed(event.document.uri);
  else void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
});

connection.onCompletion((p, token) => withSettings(requestedUri(p), (d, s) => service.doComplete(d, p.position, s), null, token));
connection.onCompletionResolve((item, token) => {
  const uri = completionOrigin(item)?.uri;
  return uri ? withSettings(uri, (d, s) => service.resolveCompletion(d, item, s), item, token) : item;
});
connection.onHover((p, token) => withSettings(requestedUri(p), (d, s) => service.doHover(d, p.position, s), null, token));
connection.onCodeAction((p, token) => withSettings(requestedUri(p), (d, s, budget) => service.getCodeActions(d, p.range, p.context, s, budget), [], token));
connection.languages.inlayHint.on((p, token) => withSettings(requestedUri(p), (d, s) => service.getInlayHints(d, p.range, s), [], token));
connection.onDocumentLinks((p, token) => withSettings(requestedUri(p), (d, s) => service.getDocumentLinks(d, s), [], token));
connection.onDefinition((p, token) => withSettings(requestedUri(p), (d, s) => service.getDefinition(d, p.position, s), [], token));
/** A custom request of the shared protocol, with the types it declares. */
function handle<P, R>(spec: RequestSpec<P, R>, handler: (params: P) => Promise<R> | R): void {
  connection.onRequest(spec.method, (params: unknown): Promise<unknown> => {
    initialized();
    return Promise.resolve(handler(params as P));
  });
}
handle(EstimateViewRequest, (p) => withSettings(requestedUri(p), (d, s) => service.getEstimateView(d, s), null));
handle(ApplyOptionRequest, (p) => {
  const t = translator(displayLocale);
  return withSettings(requestedUri(p), (d, s) => service.getApplyOptionEdit(d, p, s), { edit: null, reason: t('The document is not open.') });
});
handle(CatalogRequest, () => service.getModelCatalog());
handle(SettingsEditRequest, settingsEdit);

connection.listen();
