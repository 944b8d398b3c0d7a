import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver-types';
import type { ParsedConfig } from '../parse';
import { acceptsAuto, defaultSnippetsOf, enumValuesOf, metaOf, proseOf, schemaForPath, typesOf, valueSchemaOf } from '../schemaIndex';
import { translator, type Locale } from '../../l10n';
import { autoFiller, defaultOf, describeValue } from '../hover/describe';
import type { ValueContext } from './cursorContext';
import { escapeSnippet, previewOf, snippetText } from './snippets';
import { rangeOf } from './textEdits';

/**
 * Values for the key under the cursor: the default first, then "auto" where a tool fills it, the enum
 * values (with what each means) or true/false, examples, and for objects the schema's section snippets.
 */
export function valueCompletions(context: ValueContext, document: TextDocument, parsed: ParsedConfig, locale: Locale = 'en'): CompletionItem[] {
  const t = translator(locale);
  const node = schemaForPath(context.path, parsed.value);
  if (!node) return [];
  const range = rangeOf(document, context.replace);
  const trailing = context.needsTrailingComma ? ',' : '';
  // Triggered by typing ':' — keep the usual `"key": value` spacing.
  const lead = !context.partial && document.getText().charAt(context.replace.start - 1) === ':' ? ' ' : '';
  const defaultValue = defaultOf(node);
  const items = new Map<string, CompletionItem>();
  const enumValues = enumValuesOf(node, locale);

  const addValue = (value: unknown, order: number, documentation?: string, detail?: string): void => {
    const text = JSON.stringify(value);
    if (text === undefined || items.has(text)) return;
    const isDefault = value === defaultValue;
    const doc = describeValue(context.path, node, value, text, parsed.value, locale);
    const meaning = enumValues.find((e) => e.value === value)?.description?.replace(/`/g, '');
    items.set(text, {
      label: text,
      kind: CompletionItemKind.Value,
      detail: [isDefault ? t({ message: 'default', comment: 'the default value' }) : detail, meaning].filter(Boolean).join(' · ') || undefined,
      documentation: { kind: 'markdown', value: documentation ? `${documentation}\n\n${doc}` : doc },
      // The default first, then "auto", then the schema's order.
      sortText: `${isDefault ? '0' : value === 'auto' ? '1' : '2'}_${String(order).padStart(3, '0')}`,
      filterText: text,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range, newText: lead + escapeSnippet(text) + trailing },
    });
  };

  const meta = metaOf(node);
  const types = typesOf(node);
  // A null default means "derived or unset": offered only where null is legal and no object body is expected.
  const offerDefault =
    defaultValue !== undefined &&
    (defaultValue === null ? types.includes('null') && !types.includes('object') : typeof defaultValue !== 'object' || Array.isArray(defaultValue));
  if (offerDefault) addValue(defaultValue, 0);
  if (acceptsAuto(node)) addValue('auto', 0, undefined, meta.auto ? t('filled by {0}', autoFiller(meta.auto, t, locale)) : undefined);
  enumValues.forEach((entry, i) => addValue(entry.value, i + 1));
  if (enumValues.length === 0 && types.includes('boolean')) {
    addValue(true, 1);
    addValue(false, 2);
  }
  const view = valueSchemaOf(node);
  if (Array.isArray(view.examples)) view.examples.forEach((example, i) => addValue(example, 50 + i, undefined, t('example')));

  const result = [...items.values()];
  if (types.includes('object')) {
    defaultSnippetsOf(node).forEach((snippet, i) => {
      const body = snippetText(snippet);
      const label = proseOf(snippet, 'label', locale);
      result.push({
        label: label ?? previewOf(body).replace(/\s+/g, ' ').slice(0, 40),
        kind: CompletionItemKind.Snippet,
        detail: proseOf(snippet, 'description', locale),
        documentation: { kind: 'markdown', value: [proseOf(snippet, 'markdownDescription', locale), '```json\n' + previewOf(body) + '\n```'].filter(Boolean).join('\n\n') },
        sortText: `3_${String(i).padStart(3, '0')}`,
        filterText: context.partial?.text.startsWith('{') ? `{${label ?? ''}` : label,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range, newText: lead + body + trailing },
      });
    });
    result.push({
      label: '{}',
      kind: CompletionItemKind.Module,
      detail: t('empty object'),
      sortText: '4',
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range, newText: lead + '{\n\t$1\n}' + trailing },
    });
  } else if (types.includes('array')) {
    result.push({ label: '[]', kind: CompletionItemKind.Value, sortText: '4', insertTextFormat: InsertTextFormat.Snippet, textEdit: { range, newText: lead + '[$1]' + trailing } });
  }
  return result;
}
