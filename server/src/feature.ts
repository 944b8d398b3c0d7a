import type { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CodeActionContext,
  Diagnostic,
  DocumentLink,
  Hover,
  InlayHint,
  Location,
  Position,
  Range,
} from 'vscode-languageserver-types';
import type { ZeroLensSettings } from './settings';
import type { CompletionDraft } from './completionList';
import type { Budget } from './util/budget';
import type { Translate } from './protocol/l10n';

/**
 * One domain's contribution to a kind of document. The facade asks every contributor registered for a
 * document's kind and merges the answers, so domains (ds_config, launch scripts, memory context) stay
 * independent of each other and of the LSP.
 */
export interface FeatureContributor {
  /**
   * What its checks are about, for the diagnostic that says one of them failed ("launch script"); a function of
   * the reader's translator where the name is words to translate.
   */
  name?: string | ((t: Translate) => string);
  /** `budget`: the long steps call its checkpoint, so a huge document yields and stops when the work is stale. */
  validate?(document: TextDocument, settings: ZeroLensSettings, budget?: Budget): Promise<Diagnostic[]>;
  complete?(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<CompletionDraft[]>;
  hover?(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<Hover | null>;
  codeActions?(document: TextDocument, range: Range, context: CodeActionContext, settings: ZeroLensSettings, budget?: Budget): Promise<CodeAction[]>;
  inlayHints?(document: TextDocument, range: Range, settings: ZeroLensSettings): Promise<InlayHint[]>;
  documentLinks?(document: TextDocument, settings: ZeroLensSettings): Promise<DocumentLink[]>;
  definition?(document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<Location[]>;
}

/** What kind of file a document is to ZeRO Lens; null means "not ours, answer nothing". */
export type DocumentKind = 'ds-config' | 'launch-script' | 'launch-yaml' | 'fsdp-config';
/** The kinds whose documents describe a run ZeRO Lens estimates (an FSDP config file alone names no model). */
export type EstimatedKind = Exclude<DocumentKind, 'fsdp-config'>;
