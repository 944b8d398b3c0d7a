import { format } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FormattingOptions, Range, TextEdit } from 'vscode-languageserver-types';
import { maxParsedLength } from '../parse';
import { rangeOfSpan } from '../../util/textRange';

/**
 * Format Document / Format Selection for a ds_config: jsonc-parser's formatter, which only ever changes
 * whitespace, so comments, trailing commas and Python's NaN/Infinity survive as written. Indentation follows
 * the editor (`tabSize`, `insertSpaces`), line ends and a final line break follow the file. A file too big to
 * parse is left alone.
 */
export function formatConfig(document: TextDocument, range: Range | undefined, options: FormattingOptions): TextEdit[] {
  const text = document.getText();
  if (text.length > maxParsedLength) return [];
  const span = range && { offset: document.offsetAt(range.start), length: document.offsetAt(range.end) - document.offsetAt(range.start) };
  const edits = format(text, span, {
    tabSize: options.tabSize,
    insertSpaces: options.insertSpaces,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    // jsonc-parser drops a final line break unless asked to write one: keep the one the file has.
    insertFinalNewline: options.insertFinalNewline === true || text.endsWith('\n'),
    keepLines: false,
  });
  return edits.map((e) => ({ range: rangeOfSpan(document, e), newText: e.content }));
}
