import type { CompletionItem, CompletionList, Position, Range, TextEdit } from 'vscode-languageserver-types';

/**
 * What the editor can do with a completion list, from its LSP capabilities. A list answers every keystroke,
 * so it carries as little as the editor allows: documentation comes on `completionItem/resolve` for the one
 * item the user looks at, and a range shared by every item is sent once.
 */
export interface CompletionClientSupport {
  /** The editor resolves `documentation` lazily (`completionItem.resolveSupport.properties`). */
  resolveDocumentation: boolean;
  /** The editor resolves `detail` lazily (VS Code shows it for the focused item only). */
  resolveDetail: boolean;
  /** The editor reads `CompletionList.itemDefaults.editRange` (LSP 3.17). */
  defaultEditRange: boolean;
  /** The editor reads `CompletionList.itemDefaults.data`. */
  defaultData: boolean;
  /** The editor reads `CompletionList.itemDefaults.insertTextFormat`. */
  defaultInsertTextFormat: boolean;
}

export const inlineCompletion: CompletionClientSupport = {
  resolveDocumentation: false,
  resolveDetail: false,
  defaultEditRange: false,
  defaultData: false,
  defaultInsertTextFormat: false,
};

/** Where a list was computed; resolve recomputes it there to find an item's documentation. */
export interface CompletionOrigin {
  uri: string;
  version: number;
  position: Position;
}

const originKey = 'zeroLensCompletion';

/** Shapes the merged items of one completion request for the editor's capabilities. */
export function shapeCompletionList(items: CompletionItem[], support: CompletionClientSupport, origin: CompletionOrigin): CompletionList {
  const list: CompletionList = { isIncomplete: false, items };
  const lazy = (item: CompletionItem) =>
    (support.resolveDocumentation && item.documentation !== undefined) || (support.resolveDetail && item.detail !== undefined);
  if (items.some(lazy)) {
    const data = { [originKey]: origin };
    // An item with data of its own keeps everything inline.
    list.items = items.map((item) => {
      if (!lazy(item) || item.data !== undefined) return item;
      const lean = { ...item };
      if (support.resolveDocumentation) delete lean.documentation;
      if (support.resolveDetail) delete lean.detail;
      if (!support.defaultData) lean.data = data;
      return lean;
    });
    if (support.defaultData) list.itemDefaults = { data };
  }
  if (support.defaultEditRange) hoistSharedRange(list);
  if (support.defaultInsertTextFormat) hoistSharedFormat(list);
  return list;
}

/** The origin a resolve request's item came from, or undefined for items that carry their documentation. */
export function completionOrigin(item: CompletionItem): CompletionOrigin | undefined {
  const origin = (item.data as Record<string, unknown> | undefined)?.[originKey] as CompletionOrigin | undefined;
  const valid =
    origin && typeof origin.uri === 'string' && typeof origin.version === 'number' && typeof origin.position?.line === 'number' && typeof origin.position?.character === 'number';
  return valid ? origin : undefined;
}

/** The item with what the list left out taken from its full counterpart in a recomputed list (same label and sort text). */
export function withResolvedParts(item: CompletionItem, full: CompletionItem[]): CompletionItem {
  const match = full.find((candidate) => candidate.label === item.label && candidate.sortText === item.sortText);
  if (!match) return item;
  const resolved = { ...item };
  if (resolved.documentation === undefined && match.documentation !== undefined) resolved.documentation = match.documentation;
  if (resolved.detail === undefined && match.detail !== undefined) resolved.detail = match.detail;
  return resolved;
}

/** When every item replaces the same range, send the range once and each item only its text. */
function hoistSharedRange(list: CompletionList): void {
  const first = list.items[0]?.textEdit;
  if (!first || !('range' in first)) return;
  const shared = first.range;
  if (!list.items.every((item) => item.textEdit && 'range' in item.textEdit && sameRange(item.textEdit.range, shared))) return;
  list.itemDefaults = { ...list.itemDefaults, editRange: shared };
  list.items = list.items.map(({ textEdit, ...rest }) => {
    const newText = (textEdit as TextEdit).newText;
    return newText === rest.label ? rest : { ...rest, textEditText: newText };
  });
}

/** When every item has the same insert text format, send it once. */
function hoistSharedFormat(list: CompletionList): void {
  const format = list.items[0]?.insertTextFormat;
  if (format === undefined || !list.items.every((item) => item.insertTextFormat === format)) return;
  list.itemDefaults = { ...list.itemDefaults, insertTextFormat: format };
  list.items = list.items.map(({ insertTextFormat: _shared, ...rest }) => rest);
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
