import { InsertTextFormat, InsertTextMode, type CompletionItem, type CompletionList, type Position, type Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { snippetAsText } from './util/snippet';
import { formattingOf, unitOf } from './util/jsonEdits';

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
  /** The editor expands snippets (`completionItem.snippetSupport`); others get each snippet's plain text. */
  snippets: boolean;
}

export const inlineCompletion: CompletionClientSupport = {
  resolveDocumentation: false,
  resolveDetail: false,
  defaultEditRange: false,
  defaultData: false,
  defaultInsertTextFormat: false,
  snippets: true,
};

/**
 * An item as a contributor returns it. `lazy` computes the parts only the focused item shows (documentation,
 * detail): building markdown for fifty keys costs more than the rest of the list, and an editor that resolves
 * items asks for one of them.
 */
export interface CompletionDraft extends CompletionItem {
  lazy?: () => Pick<CompletionItem, 'documentation' | 'detail'>;
}

/** The item with its lazy parts filled in, as an editor without `completionItem/resolve` needs it. */
export function completed(draft: CompletionDraft): CompletionItem {
  if (!draft.lazy) return draft;
  const { lazy, ...item } = draft;
  return fillParts(item, lazy());
}

/** Sets the documentation and detail `item` lacks from `parts`; parts an item already carries win. */
function fillParts(item: CompletionItem, parts: Pick<CompletionItem, 'documentation' | 'detail'>): CompletionItem {
  if (item.documentation === undefined && parts.documentation !== undefined) item.documentation = parts.documentation;
  if (item.detail === undefined && parts.detail !== undefined) item.detail = parts.detail;
  return item;
}

/** Where a list was computed; resolve recomputes it there to find an item's documentation. */
export interface CompletionOrigin {
  uri: string;
  version: number;
  position: Position;
}

const originKey = 'zeroLensCompletion';

/**
 * Copies the fields that go to the editor as they are; the shaped ones (documentation, detail, textEdit,
 * insertTextFormat, data) are handled apart. Spelt out field by field: a loop over field names makes every
 * read a megamorphic keyed load, and this runs for each item of each list, on every keystroke.
 */
function copyPlainFields(from: CompletionItem, to: CompletionItem): void {
  if (from.labelDetails !== undefined) to.labelDetails = from.labelDetails;
  if (from.kind !== undefined) to.kind = from.kind;
  if (from.tags !== undefined) to.tags = from.tags;
  if (from.deprecated !== undefined) to.deprecated = from.deprecated;
  if (from.preselect !== undefined) to.preselect = from.preselect;
  if (from.sortText !== undefined) to.sortText = from.sortText;
  if (from.filterText !== undefined) to.filterText = from.filterText;
  if (from.insertText !== undefined) to.insertText = from.insertText;
  if (from.insertTextMode !== undefined) to.insertTextMode = from.insertTextMode;
  if (from.textEditText !== undefined) to.textEditText = from.textEditText;
  if (from.additionalTextEdits !== undefined) to.additionalTextEdits = from.additionalTextEdits;
  if (from.commitCharacters !== undefined) to.commitCharacters = from.commitCharacters;
  if (from.command !== undefined) to.command = from.command;
}

/**
 * How the document lays out lines where the list was asked for: the line's indentation, the file's indent unit and
 * line end. An editor expands a snippet's line breaks and leading tabs into these; plain text has to carry them.
 */
export interface TextLayout {
  lineIndent: string;
  unit: string;
  eol: string;
}

/** The layout of `document` at `position`: its line's indentation, the indent unit and line end the file uses. */
export function textLayoutAt(document: TextDocument, position: Position): TextLayout {
  const before = document.getText({ start: { line: position.line, character: 0 }, end: position });
  const format = formattingOf(document.getText());
  return { lineIndent: /^[ \t]*/.exec(before)![0], unit: unitOf(format), eol: format.eol ?? '\n' };
}

/** The snippet's text as an editor without snippets must get it: defaults for tab stops, lines in the file's layout. */
function plainText(snippet: string, layout: TextLayout | undefined): string {
  const text = snippetAsText(snippet);
  if (!layout) return text;
  return text.replace(/\r?\n(\t*)/g, (_, tabs: string) => layout.eol + layout.lineIndent + layout.unit.repeat(tabs.length));
}

/** A snippet item as plain text, every tab stop at its default, for an editor that would insert `$1` literally. */
function withoutSnippet(item: CompletionDraft, layout: TextLayout | undefined): CompletionDraft {
  if (item.insertTextFormat !== InsertTextFormat.Snippet) return item;
  const plain: CompletionDraft = { ...item, insertTextFormat: InsertTextFormat.PlainText };
  if (item.insertText !== undefined) plain.insertText = plainText(item.insertText, layout);
  if (item.textEdit !== undefined) plain.textEdit = { ...item.textEdit, newText: plainText(item.textEdit.newText, layout) };
  // Already in the line's indentation: an editor that adjusts indentation by default would add it twice
  // (LSP 3.17 completion.md, InsertTextMode, microsoft/language-server-protocol@60f2bb8 lines 478-497).
  if (layout && /\n/.test(plain.textEdit?.newText ?? plain.insertText ?? '')) plain.insertTextMode = InsertTextMode.asIs;
  return plain;
}

/**
 * Shapes the merged items of one completion request for the editor's capabilities; `layout` (the document's at the
 * request) lays out the snippets an editor without snippet support gets as plain text.
 */
export function shapeCompletionList(drafts: CompletionDraft[], support: CompletionClientSupport, origin: CompletionOrigin, layout?: TextLayout): CompletionList {
  const items = support.snippets ? drafts : drafts.map((item) => withoutSnippet(item, layout));
  // An item with data of its own keeps everything inline.
  const deferrable = (item: CompletionDraft) => item.data === undefined;
  const lazyDocumentation = support.resolveDocumentation && items.some((item) => (item.documentation !== undefined || item.lazy) && deferrable(item));
  const lazyDetail = support.resolveDetail && items.some((item) => (item.detail !== undefined || item.lazy) && deferrable(item));
  const range = support.defaultEditRange ? sharedRange(items) : undefined;
  const format = support.defaultInsertTextFormat ? sharedFormat(items) : undefined;
  if (!lazyDocumentation && !lazyDetail && !range && format === undefined) return { isIncomplete: false, items: items.map(completed) };

  const data = lazyDocumentation || lazyDetail ? { [originKey]: origin } : undefined;
  const defaults: NonNullable<CompletionList['itemDefaults']> = {};
  if (data && support.defaultData) defaults.data = data;
  if (range) defaults.editRange = range;
  if (format !== undefined) defaults.insertTextFormat = format;
  // Built field by field: object rest and delete are several times slower, and this runs on every keystroke.
  const shaped = items.map((item) => {
    const lean: CompletionItem = { label: item.label };
    copyPlainFields(item, lean);
    const defer = deferrable(item);
    const keepDocumentation = !(lazyDocumentation && defer);
    const keepDetail = !(lazyDetail && defer);
    const parts = item.lazy && (keepDocumentation || keepDetail) ? item.lazy() : undefined;
    const documentation = item.documentation ?? parts?.documentation;
    const detail = item.detail ?? parts?.detail;
    if (documentation !== undefined && keepDocumentation) lean.documentation = documentation;
    if (detail !== undefined && keepDetail) lean.detail = detail;
    if (item.insertTextFormat !== undefined && format === undefined) lean.insertTextFormat = item.insertTextFormat;
    if (item.textEdit !== undefined) {
      if (!range) lean.textEdit = item.textEdit;
      else if (item.textEdit.newText !== item.label) lean.textEditText = item.textEdit.newText;
    }
    if (!defer) lean.data = item.data;
    else if (data && !support.defaultData) lean.data = data;
    return lean;
  });
  return Object.keys(defaults).length > 0 ? { isIncomplete: false, items: shaped, itemDefaults: defaults } : { isIncomplete: false, items: shaped };
}

/** The origin a resolve request's item came from, or undefined for items that carry their documentation. */
export function completionOrigin(item: CompletionItem): CompletionOrigin | undefined {
  const origin = (item.data as Record<string, unknown> | undefined)?.[originKey] as CompletionOrigin | undefined;
  const valid =
    origin && typeof origin.uri === 'string' && typeof origin.version === 'number' && typeof origin.position?.line === 'number' && typeof origin.position?.character === 'number';
  return valid ? origin : undefined;
}

/** The item with what the list left out taken from its counterpart in a recomputed list (same label and sort text). */
export function withResolvedParts(item: CompletionItem, drafts: CompletionDraft[]): CompletionItem {
  const match = drafts.find((candidate) => candidate.label === item.label && candidate.sortText === item.sortText);
  return match ? fillParts({ ...item }, completed(match)) : item;
}

/** The range every item replaces, when they all replace the same one (sent once in `itemDefaults.editRange`). */
function sharedRange(items: CompletionDraft[]): Range | undefined {
  const first = items[0]?.textEdit;
  if (!first || !('range' in first)) return undefined;
  const shared = first.range;
  return items.every((item) => item.textEdit && 'range' in item.textEdit && sameRange(item.textEdit.range, shared)) ? shared : undefined;
}

/** The insert text format of every item, when they all have the same one. */
function sharedFormat(items: CompletionDraft[]): CompletionItem['insertTextFormat'] {
  const format = items[0]?.insertTextFormat;
  return format !== undefined && items.every((item) => item.insertTextFormat === format) ? format : undefined;
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
