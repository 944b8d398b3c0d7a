/**
 * Markdown the server writes, as plain text for an editor that shows only plain text (LSP 3.17:
 * `HoverClientCapabilities.contentFormat`, microsoft/language-server-protocol@0df17bc
 * _specifications/lsp/3.17/language/hover.md lines 20-25; `completionItem.documentationFormat`, @1c961d0
 * completion.md lines 50-54). Some Vim and Emacs setups declare only `plaintext` and would otherwise show raw
 * `**`, backticks and `|---|` rows.
 * Tables become aligned columns (a two-column table "label: value" lines), links "text (url)", code spans and
 * emphasis lose their markers, escapes their backslash; the words stay as they are.
 */
import type { MarkupContent } from 'vscode-languageserver-types';
import { padColumns, textWidth } from './textWidth';

/** `content` for an editor that does not show Markdown: Markdown as plain text, plain text as it is. */
export function asPlainText(content: MarkupContent): MarkupContent {
  return content.kind === 'markdown' ? { kind: 'plaintext', value: markdownAsPlainText(content.value) } : content;
}

const fence = /^\s*(```+|~~~+)/;
const tableRow = /^\s*\|.*\|\s*$/;
const delimiterRow = /^\s*\|(\s*:?-+:?\s*\|)+\s*$/;
const thematicBreak = /^\s*([-*_])(\s*\1){2,}\s*$/;

/** The lines of `markdown` as plain text: blocks first (fences, tables, headings), then each line's inline marks. */
export function markdownAsPlainText(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const open = fence.exec(line);
    if (open) {
      // Code stays as written, without its fence.
      const close = lines.findIndex((l, j) => j > i && l.trim().startsWith(open[1]));
      const end = close < 0 ? lines.length : close;
      out.push(...lines.slice(i + 1, end));
      i = end;
      continue;
    }
    if (tableRow.test(line) && delimiterRow.test(lines[i + 1] ?? '')) {
      let end = i + 2;
      while (end < lines.length && tableRow.test(lines[end])) end++;
      out.push(...plainTable(lines[i], lines[i + 1], lines.slice(i + 2, end)));
      i = end - 1;
      continue;
    }
    if (thematicBreak.test(line)) {
      out.push('---');
      continue;
    }
    const text = plainInline(line.replace(/^\s{0,3}#{1,6}\s+/, '').replace(/^\s{0,3}>\s?/, '').replace(/<\/?details>|<\/?summary>|<br\s*\/?>/gi, ''));
    // A line that only opened or closed a folded section says nothing.
    if (text.trim() === '' && line.trim() !== '') continue;
    out.push(text.trimEnd());
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** The cells of a table row, split at the bars that are not escaped; `\|` is a bar even in code (GFM tables). */
function cellsOf(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/**
 * A table as aligned columns (East Asian characters count two columns, so a Chinese table lines up in a
 * terminal), right-aligned where the Markdown said so; a two-column table reads as "label: value" lines.
 */
function plainTable(header: string, delimiter: string, rows: string[]): string[] {
  const head = cellsOf(header).map(plainInline);
  const body = rows.map((row) => cellsOf(row).map(plainInline));
  if (head.length === 2) {
    const lines = body.map(([label = '', value = '']) => (label ? `${label}: ${value}` : value));
    return head.some((cell) => cell !== '') ? [head.join(': '), ...lines] : lines;
  }
  const right = cellsOf(delimiter).map((cell) => /-:$/.test(cell));
  const all = [head, ...body];
  const widths = head.map((_, column) => Math.max(...all.map((row) => textWidth(row[column] ?? ''))));
  const line = (row: string[]) =>
    widths
      .map((width, column) => padColumns(row[column] ?? '', width, right[column] ? 'start' : 'end'))
      .join('  ')
      .trimEnd();
  return [line(head), ...body.map(line)];
}

/** A private-use character: placeholders for code spans and escapes, so no later pattern reads inside them. */
const hold = '\ue000';
const held = new RegExp(`${hold}(\\d+)${hold}`, 'g');
const holds = new RegExp(`${hold}\\d+${hold}`);

/** One line's inline Markdown as its text: code spans, links, emphasis and escapes without their marks. */
function plainInline(text: string): string {
  const kept: string[] = [];
  const keep = (s: string) => `${hold}${kept.push(s) - 1}${hold}`;
  let out = text
    // Word joiners and no-break spaces only steer a browser's line breaks (markdown.ts, cjkWordsWhole).
    .replace(/\u2060/g, '')
    .replace(/\u00a0/g, ' ')
    // Left to right, as CommonMark reads them: a backslash escapes a backtick outside code, not inside.
    .replace(/\\([!-/:-@[-`{-~])|(`+)(.+?)\2(?!`)/g, (_, escaped: string | undefined, _f: string, code: string) =>
      keep(escaped ?? (/^ .* $/.test(code) ? code.slice(1, -1) : code)),
    )
    .replace(/!\[([^\]]*)\]\(([^)\s]*)\)/g, '$1')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) => linkText(label, url.replace(held, (__, n: string) => kept[Number(n)])))
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)(.+?)(?<=\S)_(?!\w)/g, '$1$2');
  // Placeholders may hold placeholders (an escape inside a link's text): restore until none is left.
  while (holds.test(out)) out = out.replace(held, (_, n: string) => kept[Number(n)]);
  return out;
}

/** A link as its text and address; a command link (an action a plain-text editor cannot run) as its text only. */
function linkText(label: string, url: string): string {
  if (url.startsWith('command:') || url.startsWith('#')) return label;
  return label === url ? url : `${label} (${url})`;
}
