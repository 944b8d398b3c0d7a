/**
 * The one way text from a file or a setting enters Markdown (hovers, tooltips, completion docs). Such text
 * is data: a model name written as `[click me](command:…)` or `![x](https://…)` must show as those
 * characters, never as a link, an image or a command. Only Markdown the server writes itself (tables,
 * bold labels, its own command links) goes in unescaped.
 */
import { eastAsianWide } from './textWidth';

/** C0 and C1 controls (tab and line feed aside) and the marks that reorder text (U+202E and the like). */
const hiddenCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Controls and bidirectional marks written as `\u{…}`, so a file cannot hide or reorder what is shown. */
export function visibleText(text: string): string {
  return text.replace(hiddenCharacters, (c) => `\\u{${c.charCodeAt(0).toString(16).padStart(4, '0')}}`);
}

/**
 * Text shown as written, inside a line: every character that starts Markdown syntax there escaped (links and
 * images need `[`, emphasis `*` or `_`, code a backtick, HTML and autolinks `<`, bare URLs a `:` or `www.`,
 * tables `|`, headings and lists `#` or `+` after a list marker), on one line.
 */
export function markdownText(text: string): string {
  return visibleText(text)
    .replace(/[\\`*[\]#+|<>~&:@$]/g, '\\$&')
    // An underscore between letters or digits never starts emphasis (`num_gpus`); elsewhere it may.
    .replace(/_/g, (u, at: number, all: string) => (/[A-Za-z0-9]/.test(all[at - 1] ?? '') && /[A-Za-z0-9]/.test(all[at + 1] ?? '') ? u : '\\_'))
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/\r?\n/g, ' ');
}

/** What inline code has to rewrite or fence around: controls, line breaks, reordering marks, backticks. */
const needsCare = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`]/;

/** Text shown as inline code: fenced by more backticks than it holds, on one line. */
export function markdownCode(text: string): string {
  // A key or a path, as nearly every hover names one: one test instead of three passes.
  if (!needsCare.test(text)) return `\`${text}\``;
  const flat = visibleText(text).replace(/\r?\n/g, ' ');
  const longestRun = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Between two East Asian wide characters, where a browser may break a line. */
const breakableBetween = new RegExp(`(${eastAsianWide})(?=${eastAsianWide})`, 'g');

/**
 * A label in a table cell whose CJK words stay whole ("优化器更新"); it still wraps at its spaces, as English does.
 * VS Code's hover is narrow, and a browser squeezes first the columns it may break anywhere: Chinese labels
 * wrapped one or two characters to a line. A word joiner (U+2060) goes between CJK characters.
 */
export function cjkWordsWhole(text: string): string {
  return text.replace(breakableBetween, '$1\u2060');
}

/** A short table cell kept on one line: a size ("101.6 GiB", the unit not wrapped under the number), "2Ψ (1×)". */
export function unbrokenCell(text: string): string {
  return cjkWordsWhole(text.replace(/ /g, '\u00a0'));
}
