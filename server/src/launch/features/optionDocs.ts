/**
 * How an option documented as data (`launch/optionSchema.ts`) reads in a hover or a completion item: its
 * documentation in the reader's language, its values, its default, which FSDP versions read it, its docs page
 * and the upstream line that reads it.
 */
import { CompletionItemKind, type CompletionItem, type Range } from 'vscode-languageserver-types';
import { joinList, type Locale, type Translate } from '../../l10n';
import { optionDoc, optionValues, type OptionEntry } from '../optionSchema';
import { lineLink } from '../upstream';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The markdown for one option: `title` (the name as written, with the program that reads it), its documentation and its facts. */
export function optionMarkdown(entry: OptionEntry, title: string, t: Translate, locale: Locale | undefined, program?: string): string {
  const lines = [`**${title}**${program ? ` (${program})` : ''}`, '', optionDoc(entry, locale) ?? ''];
  const versions = entry.meta.versions;
  if (versions && versions.length === 1) lines.push('', t('Read by FSDP{0} only.', versions[0]));
  const values = optionValues(entry, locale);
  if (values.length) lines.push('', t('Values: {0}', joinList(t, values.map((v) => `\`${v.value}\``))));
  if (entry.default !== undefined) lines.push('', t('Default: {0}', `\`${shown(entry.default)}\``));
  const links: string[] = [];
  if (entry.meta.docs) links.push(`[${t('Documentation')}](${entry.meta.docs})`);
  if (entry.meta.reads) links.push(`[${t('Where it is read')}](${lineLink(entry.meta.reads)})`);
  if (links.length) lines.push('', links.join(' · '));
  return lines.join('\n');
}

/**
 * Completion items for option names (those not yet written), each documented; `write` gives the text inserted for a
 * name (YAML adds `: `, JSON quotes it).
 */
export function nameItems(entries: Iterable<OptionEntry>, range: Range, detail: string, t: Translate, locale: Locale | undefined, written: ReadonlySet<string> = new Set(), write: (name: string) => string = (name) => name): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const entry of entries) {
    if (written.has(entry.name)) continue;
    out.push({
      label: entry.name,
      kind: CompletionItemKind.Property,
      detail,
      documentation: { kind: 'markdown', value: optionMarkdown(entry, entry.name, t, locale) },
      textEdit: { range, newText: write(entry.name) },
    });
  }
  return out;
}

/** Completion items for an option's values, in the schema's order; `write` gives the text inserted for a value. */
export function valueItems(entry: OptionEntry, range: Range, locale: Locale | undefined, write: (value: string) => string = (value) => value): CompletionItem[] {
  return optionValues(entry, locale).map((v, i) => ({
    label: v.value,
    kind: CompletionItemKind.EnumMember,
    documentation: v.doc ? { kind: 'markdown', value: v.doc } : undefined,
    textEdit: { range, newText: write(v.value) },
    sortText: String(i).padStart(3, '0'),
  }));
}
