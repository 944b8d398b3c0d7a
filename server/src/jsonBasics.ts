/**
 * The JSON editing basics for ds_config documents, over LSP: Format Document / Selection, the outline, folding and
 * Expand Selection. ZeRO Lens gives ds_config files a language of their own (`ds-config`), and VS Code's JSON
 * support serves only `json` and `jsonc`, so without these a ds_config could not even be formatted. They are
 * registered for that language alone wherever the editor registers dynamically: json files stay with VS Code's
 * JSON support (two formatters for one file would make the editor ask which). Editors that cannot register
 * dynamically get them for every document and an answer only for `ds-config` ones.
 */
import {
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  SelectionRangeRequest,
  type ClientCapabilities,
  type Connection,
  type ServerCapabilities,
  type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ZeroLensLanguageService } from './languageService';

const language = 'ds-config';
const documentSelector = [{ language }];

export interface JsonBasics {
  /** What to announce in the initialize result: nothing where they are registered later, for `ds-config` only. */
  staticCapabilities: ServerCapabilities;
  /** After `initialized`: the dynamic registrations, where the editor supports them. */
  register(): void;
}

export function jsonBasics(connection: Connection, documents: TextDocuments<TextDocument>, service: () => ZeroLensLanguageService, capabilities: ClientCapabilities): JsonBasics {
  const text = capabilities.textDocument;
  const dynamic = [text?.formatting, text?.rangeFormatting, text?.documentSymbol, text?.foldingRange, text?.selectionRange].every((c) => c?.dynamicRegistration === true);
  const foldingLimit = text?.foldingRange?.rangeLimit;

  /** Runs `answer` on an open ds_config document; anything else gets `none`. */
  const forConfig = <T>(uri: string, answer: (document: TextDocument) => T | Promise<T>, none: T): T | Promise<T> => {
    const document = documents.get(uri);
    return document?.languageId === language ? answer(document) : none;
  };
  connection.onDocumentFormatting((p) => forConfig(p.textDocument.uri, (d) => service().format(d, undefined, p.options), []));
  connection.onDocumentRangeFormatting((p) => forConfig(p.textDocument.uri, (d) => service().format(d, p.range, p.options), []));
  connection.onDocumentSymbol((p) => forConfig(p.textDocument.uri, (d) => service().getDocumentSymbols(d), []));
  connection.onFoldingRanges((p) => forConfig(p.textDocument.uri, (d) => service().getFoldingRanges(d, foldingLimit), []));
  connection.onSelectionRanges((p) => forConfig(p.textDocument.uri, (d) => service().getSelectionRanges(d, p.positions), []));

  return {
    staticCapabilities: dynamic
      ? {}
      : { documentFormattingProvider: true, documentRangeFormattingProvider: true, documentSymbolProvider: true, foldingRangeProvider: true, selectionRangeProvider: true },
    register() {
      if (!dynamic) return;
      const register = connection.client.register.bind(connection.client);
      void register(DocumentFormattingRequest.type, { documentSelector });
      void register(DocumentRangeFormattingRequest.type, { documentSelector });
      void register(DocumentSymbolRequest.type, { documentSelector, label: 'ZeRO Lens' });
      void register(FoldingRangeRequest.type, { documentSelector });
      void register(SelectionRangeRequest.type, { documentSelector });
    },
  };
}
