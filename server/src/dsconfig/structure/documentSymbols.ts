import type { Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver-types';
import type { ParsedConfig } from '../parse';
import { rangeOfSpan } from '../../util/textRange';

/** As many symbols as VS Code's own JSON outline lists (vscode-json-languageservice's default resultLimit). */
export const maxDocumentSymbols = 5000;
/** Scalar values longer than this are cut in the outline's detail column. */
const maxDetailLength = 60;

/**
 * The outline and breadcrumbs of a ds_config: every key, nested as in the file (array items by index), with a
 * scalar's value as its detail. Duplicate keys are all listed: the outline shows the file, not what DeepSpeed keeps.
 */
export function configSymbols(document: TextDocument, parsed: ParsedConfig, limit = maxDocumentSymbols): DocumentSymbol[] {
  const root = parsed.root;
  if (!root || (root.type !== 'object' && root.type !== 'array')) return [];
  let budget = limit;

  const symbolOf = (name: string, whole: Node, nameNode: Node, value: Node | undefined): DocumentSymbol | undefined => {
    if (budget <= 0) return undefined;
    budget--;
    const symbol: DocumentSymbol = { name: name || '""', kind: kindOf(value), range: rangeOfSpan(document, whole), selectionRange: rangeOfSpan(document, nameNode) };
    const detail = value && detailOf(parsed.text, value);
    if (detail) symbol.detail = detail;
    const children = value ? childrenOf(value) : [];
    if (children.length) symbol.children = children;
    return symbol;
  };

  const childrenOf = (node: Node): DocumentSymbol[] => {
    const out: DocumentSymbol[] = [];
    if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key) continue;
        const symbol = symbolOf(String(key.value), property, key, value);
        if (symbol) out.push(symbol);
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((item, index) => {
        const symbol = symbolOf(String(index), item, item, item);
        if (symbol) out.push(symbol);
      });
    }
    return out;
  };

  return childrenOf(root);
}

function kindOf(value: Node | undefined): SymbolKind {
  switch (value?.type) {
    case 'object':
      return SymbolKind.Module;
    case 'array':
      return SymbolKind.Array;
    case 'string':
      return SymbolKind.String;
    case 'number':
      return SymbolKind.Number;
    case 'boolean':
      return SymbolKind.Boolean;
    default:
      return SymbolKind.Null;
  }
}

/** A scalar as written (a string with its quotes), shortened; nothing for objects and arrays. */
function detailOf(text: string, value: Node): string | undefined {
  if (value.type === 'object' || value.type === 'array') return undefined;
  const written = text.slice(value.offset, value.offset + value.length).replace(/\s+/g, ' ');
  return written.length > maxDetailLength ? `${written.slice(0, maxDetailLength - 1)}…` : written;
}
