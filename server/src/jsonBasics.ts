/**
 * The JSON editing basics for ds_config documents, over LSP: Format Document / Selection, the outline, folding and
 * Expand Selection. ZeRO Lens gives ds_config files a language of their own (`ds-config`), and VS Code's JSON
 * support serves only `json` and `jsonc`, so without these a ds_config could not even be formatted. Each is
 * registered for that language alone, dynamically: json files stay with the editor's JSON support (two
 * formatters for one file would make the editor ask which, and an empty answer from us could win). An editor that
 * cannot register one dynamically is not offered it: there a ds_config is whatever language the user made it.
 */
import {
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  SelectionRangeRequest,
  type ClientCapabilities,
  type Connection,
  type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ZeroLensLanguageService } from './languageService';

const language = 'ds-config';
const documentSelector = [{ language }];

/**
 * Wires the handlers now; `register`, called once the client is initialized, registers what the editor supports
 * and passes a registration the client refuses to `refused` (a rejected promise left alone would end the process).
 */
export function jsonBasics(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  service: () => ZeroLensLanguageService,
  capabilities: ClientCapabilities,
): { register(refused: (method: string, error: unknown) => void): void } {
  const text = capabilities.textDocument;
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
    register(refused) {
      const client = connection.client;
      const settle = (method: string, registration: Promise<unknown>): void => void registration.catch((error: unknown) => refused(method, error));
      if (text?.formatting?.dynamicRegistration) settle(DocumentFormattingRequest.method, client.register(DocumentFormattingRequest.type, { documentSelector }));
      if (text?.rangeFormatting?.dynamicRegistration) settle(DocumentRangeFormattingRequest.method, client.register(DocumentRangeFormattingRequest.type, { documentSelector }));
      if (text?.documentSymbol?.dynamicRegistration) settle(DocumentSymbolRequest.method, client.register(DocumentSymbolRequest.type, { documentSelector, label: 'ZeRO Lens' }));
      if (text?.foldingRange?.dynamicRegistration) settle(FoldingRangeRequest.method, client.register(FoldingRangeRequest.type, { documentSelector }));
      if (text?.selectionRange?.dynamicRegistration) settle(SelectionRangeRequest.method, client.register(SelectionRangeRequest.type, { documentSelector }));
    },
  };
}
