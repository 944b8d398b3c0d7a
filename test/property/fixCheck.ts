/**
 * What every code action's edit must do, checked on generated documents (issue 29): touch only the keys or
 * words its title names, keep every comment that is not on a removed line, insert no placeholder the title
 * does not ask the user to fill in, and stop at the end of the word it removes. Shared by the config and the
 * script property tests (not a test file itself).
 */
import assert from 'node:assert/strict';
import { createScanner, getNodePath, parse, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-types';
import { parseShell } from '../../server/src/launch/shell/parser';

type Path = (string | number)[];

/** A snippet's text as the editor inserts it before the user types: tab stops hold their defaults. */
function snippetText(value: string): { text: string; stops: string[] } {
  const stops: string[] = [];
  const text = value.replace(/\$\{\d+:((?:\\.|[^}\\])*)\}/g, (_, inner: string) => {
    const plain = inner.replace(/\\(.)/g, '$1');
    stops.push(plain);
    return plain;
  });
  return { text: text.replace(/\\([\\$}])/g, '$1'), stops };
}

/**
 * The edits of an action for its document, and the values it leaves for the user to fill in (the defaults
 * of its snippet's tab stops): plain `changes`, or one TextDocumentEdit of snippet edits.
 */
export function editsOf(action: CodeAction, uri: string): TextEdit[] & { toFill?: string[] } {
  const changes = action.edit?.documentChanges;
  if (changes) {
    assert.equal(changes.length, 1, `"${action.title}" edits one document`);
    const change = changes[0] as { textDocument: { uri: string }; edits: ({ range: TextEdit['range']; snippet: { value: string } } | TextEdit)[] };
    assert.equal(change.textDocument.uri, uri);
    const toFill: string[] = [];
    const edits = change.edits.map((e) => {
      if (!('snippet' in e)) return e;
      const { text, stops } = snippetText(e.snippet.value);
      toFill.push(...stops);
      return { range: e.range, newText: text };
    });
    return Object.assign(edits, { toFill });
  }
  const edits = action.edit?.changes?.[uri];
  assert.ok(edits && edits.length > 0, `"${action.title}" has edits for the document`);
  assert.deepEqual(Object.keys(action.edit!.changes!), [uri], `"${action.title}" edits only its own document`);
  return edits;
}

/** Ranges of `before` the edits replace, as offsets. */
function replaced(document: TextDocument, edits: TextEdit[]): [number, number][] {
  return edits.map((e) => [document.offsetAt(e.range.start), document.offsetAt(e.range.end)]);
}

/** Lines of the text that an edit removes whole (start and end inside one replaced range). */
function removedLines(text: string, spans: [number, number][]): [number, number][] {
  const lines: [number, number][] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    const end = start + line.length;
    const content = line.replace(/\r$/, '');
    if (content.trim() && spans.some(([s, e]) => s <= start + (content.length - content.trimStart().length) && end - (line.length - content.length) <= e)) lines.push([start, end]);
    start = end + 1;
  }
  return lines;
}

/** Every comment of the text that does not stand on a line the edit removes survives, as written. */
function assertCommentsKept(title: string, before: string, after: string, comments: { offset: number; length: number }[], spans: [number, number][], alsoGone: [number, number][] = []): void {
  const gone = [...removedLines(before, spans), ...alsoGone];
  for (const c of comments) {
    if (gone.some(([s, e]) => c.offset >= s && c.offset < e)) continue;
    // A comment inside a replaced range but on a line that stays: it must still be in the text.
    const body = before.slice(c.offset, c.offset + c.length);
    assert.ok(after.includes(body.trimEnd()), `"${title}" keeps the comment ${JSON.stringify(body)}`);
  }
}

/** A CRLF text stays CRLF: an edit that writes a bare `\n` into it leaves the file with mixed line ends. */
export function assertLineEndsKept(title: string, before: string, after: string): void {
  const loneLf = /(^|[^\r])\n/;
  if (before.includes('\r\n') && !loneLf.test(before)) assert.doesNotMatch(after, loneLf, `"${title}" writes a bare LF into a CRLF file:\n${JSON.stringify(after)}`);
}

/** The comments of JSONC text. */
export function jsonComments(text: string): { offset: number; length: number }[] {
  const scanner = createScanner(text, false);
  const out: { offset: number; length: number }[] = [];
  for (let kind = scanner.scan(); kind !== 17; kind = scanner.scan()) if (kind === 12 || kind === 13) out.push({ offset: scanner.getTokenOffset(), length: scanner.getTokenLength() });
  return out;
}

function parseJsonc(text: string): { value: unknown; errors: number } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return { value, errors: errors.length };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The leaf paths of a value (an empty object is a leaf). */
function leaves(value: unknown, at: Path): Path[] {
  return isObject(value) && Object.keys(value).length > 0 ? Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, k])) : [at];
}

/** Leaf paths whose value differs: under a key added or removed, or a leaf (or array) changed. */
function changedPaths(a: unknown, b: unknown, at: Path = []): Path[] {
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => (k in a && k in b ? changedPaths(a[k], b[k], [...at, k]) : leaves(k in a ? a[k] : b[k], [...at, k])));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [at];
}

/** New or changed string values under a path (what the edit wrote). */
function writtenStrings(before: unknown, after: unknown): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown): void => {
    if (typeof b === 'string') {
      if (a !== b) out.push(b);
    } else if (b && typeof b === 'object') {
      for (const [k, v] of Object.entries(b)) walk(a && typeof a === 'object' ? (a as Record<string, unknown>)[k] : undefined, v);
    }
  };
  walk(before, after);
  return out;
}

const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether the title names a key: the key itself, or the words it stands for. */
function titleNames(title: string, key: string): boolean {
  const t = squash(title);
  if (t.includes(squash(key))) return true;
  const lower = title.toLowerCase();
  if (key === 'stage') return /zero-?\d|stage/i.test(title);
  if (key === 'offload_optimizer' || key === 'cpu_offload') return /optimizer/.test(lower) && /offload/.test(lower);
  if (key === 'offload_param' || key === 'cpu_offload_param') return /param/.test(lower) && /offload/.test(lower);
  if (key === 'device') return /offload|cpu|nvme/.test(lower);
  if (['train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps'].includes(key)) return /batch/.test(lower);
  return false;
}

const startsWith = (path: Path, prefix: Path): boolean => prefix.length <= path.length && prefix.every((s, i) => s === path[i]);

/**
 * A ds_config action: valid JSONC after, no key changed that its title does not name (or the diagnostic is
 * not about), every comment kept that is not on a removed line, and no string written that is not in its
 * title (no invented path, no placeholder).
 */
export function checkConfigAction(document: TextDocument, action: CodeAction, diagnostic: Diagnostic | undefined): void {
  const before = document.getText();
  const edits = editsOf(action, document.uri);
  const after = TextDocument.applyEdits(document, edits);
  const title = action.title;
  const b = parseJsonc(before);
  const a = parseJsonc(after);
  assert.ok(a.errors <= b.errors, `"${title}" leaves the JSON valid:\n${after}`);
  const subject = ((diagnostic?.data as { path?: Path } | undefined)?.path ?? []) as Path;
  for (const path of changedPaths(b.value, a.value)) {
    const named = path.some((segment) => typeof segment === 'string' && titleNames(title, segment));
    const own = subject.length > 0 && (startsWith(path, subject) || startsWith(subject, path));
    assert.ok(named || own, `"${title}" changes ${path.join('.') || '(root)'}, which its title does not name\nbefore:\n${before}\nafter:\n${after}`);
  }
  // A value to fill in is a tab stop of a snippet, and the title says so.
  const toFill = edits.toFill ?? [];
  if (toFill.length) assert.match(title, /fill in/, `"${title}" leaves ${JSON.stringify(toFill)} to fill in without saying so`);
  for (const value of writtenStrings(b.value, a.value)) {
    assert.ok(['auto', 'none', 'cpu', 'nvme'].includes(value) || title.includes(value) || toFill.includes(value), `"${title}" writes ${JSON.stringify(value)}, which its title does not say`);
  }
  assertCommentsKept(title, before, after, jsonComments(before), replaced(document, edits), linesOfRemovedKeys(before, a.value));
  assertLineEndsKept(title, before, after);
}

/** The lines of the properties of `before` whose key is gone from `afterValue`: their comments may go with them. */
function linesOfRemovedKeys(before: string, afterValue: unknown): [number, number][] {
  const out: [number, number][] = [];
  const has = (path: Path): boolean => {
    let node: unknown = afterValue;
    for (const segment of path) {
      if (!node || typeof node !== 'object' || !(String(segment) in (node as object))) return false;
      node = (node as Record<string, unknown>)[String(segment)];
    }
    return true;
  };
  const visit = (node: Node | undefined): void => {
    for (const child of node?.children ?? []) {
      if (child.type === 'property' && !has(getNodePath(child.children![0]))) {
        const start = before.lastIndexOf('\n', child.offset - 1) + 1;
        const newline = before.indexOf('\n', child.offset + child.length);
        out.push([start, newline < 0 ? before.length : newline]);
      }
      visit(child);
    }
  };
  visit(parseTree(before, [], { allowTrailingComma: true, disallowComments: false }));
  return out;
}

/** The words of a script's commands (quote-removed values), as a multiset. */
function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const command of parseShell(text).commands) {
    for (const word of [...command.envPrefix.map((a) => ({ value: text.slice(a.start, a.end) })), ...command.words]) counts.set(word.value, (counts.get(word.value) ?? 0) + 1);
  }
  return counts;
}

function minus(a: Map<string, number>, b: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [w, n] of a) for (let i = 0; i < n - (b.get(w) ?? 0); i++) out.push(w);
  return out;
}

/** `#` comments of a script (outside quotes), by the parser. */
function shellComments(text: string): { offset: number; length: number }[] {
  return parseShell(text).comments.map((c) => ({ offset: c.start, length: c.end - c.start }));
}

/**
 * A launch-script action: the words it removes are the ones its title names or the diagnostic marks (a
 * removed flag takes its value with it, and nothing after that), the words it adds are in its title, and
 * every comment survives that is not on a removed line.
 */
export function checkScriptAction(document: TextDocument, action: CodeAction, diagnostic: Diagnostic): void {
  const before = document.getText();
  const edits = editsOf(action, document.uri);
  const after = TextDocument.applyEdits(document, edits);
  const title = action.title;
  const removed = minus(words(before), words(after));
  const added = minus(words(after), words(before));
  const marked = document.getText(diagnostic.range);
  const spans = replaced(document, edits);
  const flag = /^Remove (-\S+|[A-Z_][A-Z0-9_]*)$/.exec(title)?.[1];
  if (flag) {
    // "Remove --flag": the flag and its value, nothing else; a cut that ran on past the value's end (to the
    // end of the file behind an open quote) or into the next word would remove or change another word.
    const values = followingWords(before, flag);
    assert.ok(removed.some((w) => w === flag || w.startsWith(`${flag}=`)), `"${title}" removes ${JSON.stringify(removed)}`);
    for (const w of removed) assert.ok(w === flag || w.startsWith(`${flag}=`) || values.has(w), `"${title}" also removes ${JSON.stringify(w)}`);
    assert.ok(removed.length <= 2, `"${title}" removes ${JSON.stringify(removed)}`);
    assert.deepEqual(added, [], `"${title}" adds ${JSON.stringify(added)}`);
  } else {
    // "Start with torchrun …", "Run with swift sft": what the command started with is what they replace.
    const starter = /^(Start|Run) with /.test(title) ? (w: string) => /^python\d*(\.\d+)?$/.test(w) || /\.py$/.test(w) || w === '-m' || /^swift\./.test(w) : () => false;
    for (const w of removed) {
      assert.ok(marked.includes(w) || title.includes(w) || w.includes(marked.trim()) || marked.includes(w.split('=')[0]) || (w.includes('=') && title.includes(w.split('=')[0])) || starter(w), `"${title}" removes ${JSON.stringify(w)}, which neither its title nor the diagnostic (${JSON.stringify(marked)}) names`);
    }
    for (const w of added) {
      const inTitle =
        title.includes(w) ||
        w.split(/[=\s]/).every((part) => title.includes(part)) ||
        (/valid JSON/.test(title) && isJson(w)) ||
        removed.some((was) => title.includes(changedToken(was, w)));
      assert.ok(inTitle, `"${title}" adds ${JSON.stringify(w)}, which its title does not say`);
    }
  }
  assertCommentsKept(title, before, after, shellComments(before), spans);
  assertLineEndsKept(title, before, after);
}

/**
 * The token of `word` where it differs from `was`, widened to whole name characters: `zero3` for
 * `CMD+=(--deepspeed zero2)` → `CMD+=(--deepspeed zero3)` (a word the shell reads apart from how it splits).
 */
function changedToken(was: string, word: string): string {
  let start = 0;
  while (start < was.length && start < word.length && was[start] === word[start]) start++;
  let end = 0;
  while (end < was.length - start && end < word.length - start && was[was.length - 1 - end] === word[word.length - 1 - end]) end++;
  let from = start;
  let to = word.length - end;
  while (from > 0 && /[\w.-]/.test(word[from - 1])) from--;
  while (to < word.length && /[\w.-]/.test(word[to])) to++;
  return word.slice(from, to) || word;
}

/** The words after each `flag` word of the script (its values, where it has one). */
function followingWords(text: string, flag: string): Set<string> {
  const out = new Set<string>();
  for (const command of parseShell(text).commands) {
    command.words.forEach((w, i) => {
      const next = command.words[i + 1];
      if (w.value === flag && next) out.add(next.value);
    });
  }
  return out;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
