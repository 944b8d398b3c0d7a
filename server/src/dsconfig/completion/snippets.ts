import { enumValuesOf, typesOf, valueSchemaOf, type DefaultSnippet, type SchemaNode } from '../schemaIndex';
import { NodeMemo } from '../hover/memo';
import { snippetAsText } from '../../util/snippet';

/** Text that a snippet inserts literally (`$`, `}` and `\` are snippet syntax). */
export function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (c) => '\\' + c);
}

function escapeChoice(text: string): string {
  return text.replace(/[\\$}|,]/g, (c) => '\\' + c);
}

/** Default first, then the rest in schema order. */
function defaultFirst<T>(values: T[], defaultValue: unknown): T[] {
  const index = values.findIndex((v) => v === defaultValue);
  return index <= 0 ? values : [values[index], ...values.slice(0, index), ...values.slice(index + 1)];
}

/**
 * The snippet for a key's value, with the cursor (tab stop 1) on it: a choice list for enums and booleans,
 * the default selected for numbers, an empty string or object body otherwise.
 */
export function valuePlaceholder(node: SchemaNode): string {
  return placeholders.get(node, '', () => buildPlaceholder(node));
}

const placeholders = new NodeMemo<string>();

function buildPlaceholder(node: SchemaNode): string {
  const view = valueSchemaOf(node);
  const defaultValue = node.default ?? view.default;
  const enumValues = enumValuesOf(node).map((e) => e.value);
  if (enumValues.length > 0) {
    const ordered = defaultFirst(enumValues, defaultValue);
    if (ordered.every((v) => typeof v === 'string')) return `"\${1|${ordered.map((v) => escapeChoice(v as string)).join(',')}|}"`;
    return `\${1|${ordered.map((v) => escapeChoice(JSON.stringify(v))).join(',')}|}`;
  }
  const types = typesOf(node);
  if (types.includes('object')) return '{\n\t$1\n}';
  if (types.includes('array')) return '[$1]';
  if (types.includes('boolean')) return defaultValue === true ? '${1|true,false|}' : '${1|false,true|}';
  if (types.includes('number') || types.includes('integer')) return `\${1:${String(numberToFill(view, defaultValue))}}`;
  if (types.includes('string')) return typeof defaultValue === 'string' && defaultValue ? `"\${1:${escapeSnippet(defaultValue)}}"` : '"$1"';
  if (types.length === 1 && types[0] === 'null') return 'null';
  // Every tab stop in a value's place has a default that is JSON: an editor without snippets inserts the defaults.
  return '${1:null}';
}

/** The number a value's tab stop starts with: the default, else the smallest the schema allows, else 0. */
function numberToFill(view: SchemaNode, defaultValue: unknown): number {
  const exact = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER;
  if (exact(defaultValue)) return defaultValue;
  if (exact(view.minimum)) return view.minimum;
  if (exact(view.exclusiveMinimum)) return Math.floor(view.exclusiveMinimum) + 1;
  return 0;
}

/**
 * A `defaultSnippets` body as snippet text, VS Code's convention: strings are JSON strings whose `${1:x}`
 * placeholders stay live, a leading `^` inserts the rest raw (unquoted).
 */
export function snippetFromBody(body: unknown, indent = ''): string {
  if (typeof body === 'string') return body.startsWith('^') ? body.slice(1) : JSON.stringify(body);
  if (Array.isArray(body)) {
    if (body.every((item) => item === null || typeof item !== 'object')) return `[${body.map((item) => snippetFromBody(item)).join(', ')}]`;
    const inner = indent + '\t';
    return `[\n${body.map((item) => inner + snippetFromBody(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (body && typeof body === 'object') {
    const entries = Object.entries(body);
    if (entries.length === 0) return '{}';
    return `{\n${membersFromBody(body as Record<string, unknown>, indent + '\t')}\n${indent}}`;
  }
  return JSON.stringify(body ?? null);
}

/** The members of an object body, one per line, for inserting into an object that is already open. */
export function membersFromBody(body: Record<string, unknown>, indent = ''): string {
  return Object.entries(body)
    .map(([key, value]) => `${indent}${JSON.stringify(key)}: ${snippetFromBody(value, indent)}`)
    .join(',\n');
}

/** Snippet text of a whole `defaultSnippets` entry (its `bodyText` wins, as in VS Code). */
export function snippetText(snippet: DefaultSnippet): string {
  let text = snippetTexts.get(snippet);
  if (text === undefined) {
    text = typeof snippet.bodyText === 'string' ? snippet.bodyText : snippetFromBody(snippet.body);
    snippetTexts.set(snippet, text);
  }
  return text;
}

/** Snippets are schema objects that never change: their text is built once. */
const snippetTexts = new WeakMap<DefaultSnippet, string>();

/** Plain-text preview of a snippet (placeholders replaced by their defaults) for the documentation popup. */
export function previewOf(snippet: string): string {
  let preview = previews.get(snippet);
  if (preview === undefined) {
    if (previews.size >= 512) previews.clear();
    preview = snippetAsText(snippet);
    previews.set(snippet, preview);
  }
  return preview;
}

/** Previews of the schema's snippets, asked for on every completion request. */
const previews = new Map<string, string>();
