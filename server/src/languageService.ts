import type { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CodeActionContext,
  CompletionItem,
  CompletionList,
  Diagnostic,
  DocumentLink,
  DocumentSymbol,
  FoldingRange,
  FormattingOptions,
  Hover,
  InlayHint,
  Location,
  MarkupContent,
  Position,
  Range,
  SelectionRange,
  TextEdit,
} from 'vscode-languageserver-types';
import type { FileSystemHost, WorkspaceHost } from './host';
import type { ApplyOptionParams, ApplyOptionResult, CatalogEntry, EstimateView } from './protocol';
import { emptyWorkspace } from './host';
import type { ZeroLensSettings } from './settings';
import type { DocumentKind, EstimatedKind, FeatureContributor } from './feature';
import { completionOrigin, inlineCompletion, shapeCompletionList, textLayoutAt, withResolvedParts, type CompletionClientSupport, type CompletionDraft } from './completionList';
import { classifyDocument } from './classify';
import { catalogEntries } from './memory';
import { createDsConfigFeatures } from './dsconfig/dsConfigFeatures';
import { createFsdpConfigFeatures } from './launch/features/fsdpConfigFeatures';
import { createLaunchFeatures } from './launch/launchFeatures';
import type { CallerInputs, DocumentAnalysis } from './training/service';
import { contextWorldSize } from './training/worldSize';
import { createAnalyses } from './analyses';
import { createConfigEstimates } from './estimates/configEstimates';
import { createLaunchEstimates } from './estimates/launchEstimates';
import { estimateView } from './estimates/estimateView';
import { applyOptionEdit } from './estimates/applyOption';
import { pathOf } from './util/paths';
import { translator, type Translate } from './l10n';
import { Cancelled, unlimited, type Budget } from './util/budget';
import { makeDiagnostic } from './diagnostics/makeDiagnostic';
import { diagnosticData } from './diagnostics/fixData';
import { formatConfig } from './dsconfig/structure/formatting';
import { configSymbols } from './dsconfig/structure/documentSymbols';
import { configFoldingRanges } from './dsconfig/structure/foldingRanges';
import { configSelectionRanges } from './dsconfig/structure/selectionRanges';
import type { ParsedConfig } from './dsconfig/parse';
import { yieldToEventLoop } from './util/pacer';
import { asPlainText } from './util/plainText';

export interface LanguageServiceParams {
  fs: FileSystemHost;
  workspace?: WorkspaceHost;
  /** What the editor does with completion lists (defaults: documentation inline, no item defaults). */
  completion?: CompletionClientSupport;
  /**
   * The formats the editor lists for hovers and completion documentation, as it sends them (default: none listed,
   * so Markdown). `markdownSupportOf` decides from them who gets plain text (`util/plainText.ts`).
   */
  markupFormats?: MarkupFormats;
  /** Whether the editor applies snippet edits in workspace edits (LSP 3.18): fixes with a value to fill in need them. */
  snippetEdits?: boolean;
  /** The document open in the editor at an absolute path, if any: its parse is shared with what reads that path. */
  openDocument?: (path: string) => TextDocument | undefined;
  /**
   * Asked when the analysis of a huge open script was dropped for its newer version, before that is built: the
   * server collects the garbage then, so the two versions are never in memory together.
   */
  releaseMemory?: () => void;
  /** Told when a model was sized: `modelFolders()` may have changed (the server watches them). */
  modelSized?: () => void;
}

/** What the editor lists in `textDocument.hover.contentFormat` and `completionItem.documentationFormat` (LSP 3.17). */
export interface MarkupFormats {
  hover?: unknown;
  documentation?: unknown;
}

/** Where the editor gets Markdown: hovers (and inlay-hint tooltips), completion documentation. */
export interface MarkdownSupport {
  hover: boolean;
  documentation: boolean;
}

/**
 * The one decision of who gets Markdown. LSP 3.17 (microsoft/language-server-protocol@60f2bb8 hover.md lines 20-23,
 * completion.md lines 51-54): the formats a client lists are those it supports, and "the order describes the
 * preferred format of the client". So Markdown goes to a client that lists `markdown` before `plaintext`, and to
 * one that lists nothing (or predates MarkupContent, whose MarkedString is Markdown too); plain text to one that
 * lists `plaintext` first or lists no `markdown`.
 */
export function markdownSupportOf(formats: MarkupFormats = {}): MarkdownSupport {
  const markdownFirst = (listed: unknown) => !Array.isArray(listed) || listed.find((f) => f === 'markdown' || f === 'plaintext') === 'markdown';
  return { hover: markdownFirst(formats.hover), documentation: markdownFirst(formats.documentation) };
}

/**
 * The pure ZeRO Lens language service: text and settings in, LSP types out. No connection, no `vscode`,
 * no I/O except through the injected hosts. The LSP server and the CLI are thin wrappers around it.
 */
export interface ZeroLensLanguageService {
  classify(document: TextDocument, settings: ZeroLensSettings): DocumentKind | null;
  /** `budget` (default: none) lets the server yield and stop stale work; a failing check is reported, the others still run. */
  doValidation(document: TextDocument, settings: ZeroLensSettings, budget?: Budget): Promise<Diagnostic[]>;
  doComplete(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<CompletionList>;
  /** Fills in what `doComplete` left for later (documentation), for an item of a list on `document`. */
  resolveCompletion(document: TextDocument, item: CompletionItem, settings: ZeroLensSettings): Promise<CompletionItem>;
  doHover(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<Hover | null>;
  getCodeActions(document: TextDocument, range: Range, context: CodeActionContext, settings: ZeroLensSettings, budget?: Budget): Promise<CodeAction[]>;
  getInlayHints(document: TextDocument, range: Range, settings: ZeroLensSettings): Promise<InlayHint[]>;
  getDocumentLinks(document: TextDocument, settings: ZeroLensSettings): Promise<DocumentLink[]>;
  getDefinition(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<Location[]>;
  /**
   * The training analysis of a config or launch script (null for other files): what every estimate feature
   * shows. The CLI passes its flags as `caller`.
   */
  getDocumentAnalysis(document: TextDocument, settings: ZeroLensSettings, caller?: CallerInputs): Promise<DocumentAnalysis | null>;
  /** The sidebar's estimate for a config or launch script (null for other files). */
  getEstimateView(document: TextDocument, settings: ZeroLensSettings): Promise<EstimateView | null>;
  /** The edit that moves a document to a ZeRO option (the stage quick fix's edit). */
  getApplyOptionEdit(document: TextDocument, params: ApplyOptionParams, settings: ZeroLensSettings): Promise<ApplyOptionResult>;
  /**
   * Files changed on disk, or open documents were edited (their URIs): forget what was read from them and
   * return the URIs of the open documents whose answers may differ now.
   */
  filesChanged(uris: string[]): string[];
  /** A document closed: forget its parse and what it depended on. */
  documentClosed(uri: string): void;
  /** Settings or workspace folders changed: drop everything read from disk and the last completion list. */
  invalidateWorkspace(): void;
  /** The folders a model's config.json was read from, for the models sized until now. */
  modelFolders(): string[];
  /** The built-in model catalog, for model pickers. */
  getModelCatalog(): CatalogEntry[];
  /**
   * The JSON editing basics of a ds_config document, which VS Code's JSON support gives only to files of the
   * `json` language: Format Document / Selection (whitespace only: comments and values kept as written), the
   * outline, folding and Expand Selection. The server offers them for the `ds-config` language only.
   */
  format(document: TextDocument, range: Range | undefined, options: FormattingOptions): TextEdit[];
  /** The editor asks for these on its own after every change: a huge file's parse yields between slices (empty when the document changed meanwhile). */
  getDocumentSymbols(document: TextDocument): Promise<DocumentSymbol[]>;
  getFoldingRanges(document: TextDocument, limit?: number): Promise<FoldingRange[]>;
  getSelectionRanges(document: TextDocument, positions: Position[]): Promise<SelectionRange[]>;
}

export function getLanguageService(params: LanguageServiceParams): ZeroLensLanguageService {
  const hosts = { fs: params.fs, workspace: params.workspace ?? emptyWorkspace };
  // The parses of open documents and everything read from disk live in this instance, not in module state.
  const { configParses, launchParses, fsdpConfigFiles, parses, training } = createAnalyses(hosts, params.openDocument, params.releaseMemory, params.modelSized);
  // The config's world-size rules use its training context's GPU count (a launch script's before the settings').
  const worldOf = async (document: TextDocument, settings: ZeroLensSettings) => contextWorldSize((await training.analyzeConfig(document, settings)).context, translator(settings.locale));
  const hostsFor = (uri: string) => training.hostsReadingFor(uri);
  const dsConfig = createDsConfigFeatures(hosts, configParses, params.snippetEdits === true, worldOf, hostsFor);
  const configEstimates = createConfigEstimates(training, configParses);
  const launchEstimates = createLaunchEstimates(training, parses.launch);
  const launch = createLaunchFeatures({
    hosts,
    hostsFor,
    parse: parses.launch,
    parseForValidation: (document, budget) => launchParses.forValidation(document, budget),
    factsOfFile: (path) => training.factsOfFile(path),
    presetEstimates: (written, settings) => launchEstimates.presetEstimates(written, settings),
  });
  const contributors: Record<DocumentKind, FeatureContributor[]> = {
    // The estimates answer first on `stage`: their table is what people hover for, and VS Code cuts long
    // hovers off at the bottom. On a launch, what a `--deepspeed` value is comes before what it costs.
    'ds-config': [configEstimates, dsConfig],
    'launch-script': [launch, launchEstimates],
    'launch-yaml': [launch, launchEstimates],
    'fsdp-config': [createFsdpConfigFeatures(fsdpConfigFiles, () => hosts.workspace.folders())],
  };

  /** The document's kind when it describes a run to estimate. */
  const estimatedKind = (document: TextDocument, settings: ZeroLensSettings): EstimatedKind | null => {
    const kind = classifyDocument(document, settings);
    return kind === 'fsdp-config' ? null : kind;
  };

  const forDocument = (document: TextDocument, settings: ZeroLensSettings): FeatureContributor[] => {
    const kind = classifyDocument(document, settings);
    return kind ? contributors[kind] : [];
  };

  /**
   * Runs one feature on every contributor and flattens the answers, in contributor order. One after another
   * rather than through Promise.all: contributors answer from memory in microseconds, and the promises
   * Promise.all adds cost more than that on every hover and keystroke.
   */
  async function collect<T>(
    document: TextDocument,
    settings: ZeroLensSettings,
    run: (c: FeatureContributor) => Promise<T[]> | undefined,
  ): Promise<T[]> {
    const out: T[] = [];
    for (const contributor of forDocument(document, settings)) {
      const answer = run(contributor);
      if (answer) out.push(...(await answer));
    }
    return out;
  }

  async function hoverAll(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<Hover | null> {
    const hovers: (Hover | null)[] = [];
    for (const contributor of forDocument(document, settings)) if (contributor.hover) hovers.push(await contributor.hover(document, position, settings));
    const merged = mergeHovers(hovers);
    if (!merged || markdown.hover) return merged;
    // A MarkedString is Markdown too (LSP 3.17 hover.md).
    const contents = typeof merged.contents === 'object' && 'kind' in merged.contents ? merged.contents : { kind: 'markdown' as const, value: markdownOf(merged.contents) };
    return { ...merged, contents: asPlainText(contents) };
  }
  const markdown = markdownSupportOf(params.markupFormats);
  /** An item whose documentation the editor can show: a copy, since the drafts of the last list are kept for resolve. */
  const documentedForClient = (item: CompletionItem): CompletionItem =>
    markdown.documentation || typeof item.documentation !== 'object' ? item : { ...item, documentation: asPlainText(item.documentation) };

  /**
   * A hint whose tooltip the editor can show. LSP 3.17 names no format for inlay-hint tooltips; an editor that takes
   * only plain text in hovers is taken to want it there too.
   */
  const hintForClient = (hint: InlayHint): InlayHint =>
    markdown.hover || typeof hint.tooltip !== 'object' ? hint : { ...hint, tooltip: asPlainText(hint.tooltip) };

  const completeAll = (d: TextDocument, p: Position, s: ZeroLensSettings) => collect(d, s, (c) => c.complete?.(d, p, s));
  const completionSupport = params.completion ?? inlineCompletion;
  /** The last list, so moving through the items of one list resolves each without recomputing it. */
  let lastList: { key: string; items: Promise<CompletionDraft[]> } | undefined;

  function draftsAt(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<CompletionDraft[]> {
    const key = `${document.uri}\n${document.version}\n${position.line}:${position.character}`;
    if (lastList?.key !== key) lastList = { key, items: completeAll(document, position, settings) };
    return lastList.items;
  }

  async function resolveCompletion(document: TextDocument, item: CompletionItem, settings: ZeroLensSettings): Promise<CompletionItem> {
    const origin = completionOrigin(item);
    if (!origin || origin.uri !== document.uri) return item;
    return withResolvedParts(item, await draftsAt(document, origin.position, settings));
  }

  /**
   * Validators run one after another, not interleaved: the first one parses a huge document in slices between
   * which the event loop runs, and the next must find that parse cached rather than redo it in one block.
   */
  async function validateInTurn(document: TextDocument, settings: ZeroLensSettings, budget: Budget): Promise<Diagnostic[]> {
    const out: Diagnostic[] = [];
    for (const contributor of forDocument(document, settings)) {
      try {
        out.push(...((await contributor.validate?.(document, settings, budget)) ?? []));
      } catch (error) {
        // Stale or cancelled work reports nothing; a bug in one domain's checks must not hide the others'.
        if (error instanceof Cancelled) throw error;
        const t = translator(settings.locale);
        const what = typeof contributor.name === 'function' ? contributor.name(t) : (contributor.name ?? 'these');
        out.push(checkFailedDiagnostic(document, what, error, t));
      }
    }
    return out;
  }

  /** `answer` on the document's parse, made in slices that yield to the event loop; `none` if the document changed first. */
  async function withParse<T>(document: TextDocument, none: T, answer: (parsed: ParsedConfig) => T): Promise<T> {
    const parsed = await configParses.parseAsync(document, yieldToEventLoop);
    return parsed ? answer(parsed) : none;
  }

  return {
    classify: classifyDocument,
    doValidation: (d, s, budget = unlimited) => (s.validate ? validateInTurn(d, s, budget) : Promise.resolve([])),
    doComplete: async (d, p, s) => {
      const layout = completionSupport.snippets ? undefined : textLayoutAt(d, p);
      const list = shapeCompletionList(await draftsAt(d, p, s), completionSupport, { uri: d.uri, version: d.version, position: p }, layout);
      return markdown.documentation ? list : { ...list, items: list.items.map(documentedForClient) };
    },
    resolveCompletion: async (d, item, s) => documentedForClient(await resolveCompletion(d, item, s)),
    doHover: hoverAll,
    getCodeActions: async (d, r, ctx, s, budget = unlimited) => (await collect(d, s, (c) => c.codeActions?.(d, r, ctx, s, budget))).filter((a) => kindWanted(ctx, a.kind)),
    getInlayHints: async (d, r, s) => (s['inlayHints.enabled'] ? (await collect(d, s, (c) => c.inlayHints?.(d, r, s))).map(hintForClient) : []),
    getDocumentLinks: (d, s) => collect(d, s, (c) => c.documentLinks?.(d, s)),
    getDefinition: (d, p, s) => collect(d, s, (c) => c.definition?.(d, p, s)),
    getDocumentAnalysis: async (d, s, caller) => {
      const kind = estimatedKind(d, s);
      return kind ? training.analyzeDocument(d, kind, s, caller) : null;
    },
    getEstimateView: async (d, s) => {
      const kind = estimatedKind(d, s);
      return kind ? estimateView(training, d, kind, s) : null;
    },
    getApplyOptionEdit: async (d, p, s) => {
      const kind = estimatedKind(d, s);
      const t = translator(s.locale);
      return kind ? applyOptionEdit(training, configParses, d, kind, p, t) : { edit: null, reason: t('ZeRO Lens does not handle this file.') };
    },
    filesChanged: (uris) => {
      lastList = undefined; // a list for the same version may differ now
      return training.filesChanged(uris.map(pathOf));
    },
    documentClosed: (uri) => {
      configParses.forget(uri);
      fsdpConfigFiles.forget(uri);
      launchParses.forget(uri);
      training.documentClosed(uri);
    },
    invalidateWorkspace: () => {
      lastList = undefined; // settings or files changed: a list for the same version may differ now
      training.invalidateAll();
    },
    modelFolders: () => training.modelFolders(),
    getModelCatalog: () => catalogEntries().map((e) => ({ id: e.id, displayName: e.displayName, totalParams: e.info.totalParams, aliases: e.aliases })),
    format: formatConfig,
    getDocumentSymbols: async (d) => withParse(d, [], (parsed) => configSymbols(d, parsed)),
    getFoldingRanges: async (d, limit) => withParse(d, [], (parsed) => configFoldingRanges(d, parsed, limit)),
    getSelectionRanges: async (d, positions) => withParse(d, [], (parsed) => configSelectionRanges(d, parsed, positions)),
  };
}

/**
 * Whether the editor asked for actions of this kind (`context.only`: a kind matches itself and its sub-kinds).
 * A request for `source.fixAll.zeroLens` gets no quick fixes, whichever contributor made them.
 */
function kindWanted(context: CodeActionContext, kind: string | undefined): boolean {
  if (!context.only || context.only.length === 0) return true;
  return !!kind && context.only.some((only) => only === '' || kind === only || kind.startsWith(only + '.'));
}

/**
 * Says that one group of checks stopped with an internal error, at the top of the document, so a bug never
 * passes for "no problems": the other groups' results are shown next to it.
 */
function checkFailedDiagnostic(document: TextDocument, what: string, error: unknown, t: Translate): Diagnostic {
  const reason = error instanceof Error ? error.message : String(error);
  return makeDiagnostic(
    'check-failed',
    { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    t('ZeRO Lens could not finish its {0} checks ({1}); the other checks ran. Please report this.', what, reason),
    diagnosticData(document, { check: what }),
  );
}

/** Several contributors may explain the same spot (key docs plus a memory table): join them in order. */
function mergeHovers(hovers: (Hover | null | undefined)[]): Hover | null {
  const present = hovers.filter((h): h is Hover => !!h);
  if (present.length === 0) return null;
  if (present.length === 1) return present[0];
  const value = present.map((h) => markdownOf(h.contents)).join('\n\n---\n\n');
  const contents: MarkupContent = { kind: 'markdown', value };
  return { contents, range: narrowest(present.map((h) => h.range)) };
}

/** The most specific range of the merged answers (the key rather than the whole property). */
function narrowest(ranges: (Range | undefined)[]): Range | undefined {
  const span = (r: Range) => (r.end.line - r.start.line) * 1e6 + (r.end.character - r.start.character);
  return ranges.reduce<Range | undefined>((best, r) => (r && (!best || span(r) < span(best)) ? r : best), undefined);
}

function markdownOf(contents: Hover['contents']): string {
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map((c) => (typeof c === 'string' ? c : '```' + c.language + '\n' + c.value + '\n```')).join('\n\n');
  if ('kind' in contents) return contents.value;
  return '```' + contents.language + '\n' + contents.value + '\n```';
}
