import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemKind, CompletionItemTag, InsertTextFormat, type CompletionItem, type TextEdit } from 'vscode-languageserver-types';
import type { CompletionDraft } from '../../completionList';
import type { ParsedConfig } from '../parse';
import { defaultSnippetsOf, metaOf, proseOf, schemaIndex, type SchemaNode } from '../schemaIndex';
import { translator, type Locale } from '../../l10n';
import { describeKey, detailOf, zeroStageOf } from '../hover/describe';
import type { KeyContext } from './cursorContext';
import { membersFromBody, previewOf, snippetText, valuePlaceholder } from './snippets';
import { rangeOf } from './textEdits';
import { valueAt } from '../../util/valueAt';
import { NodeMemo } from '../hover/memo';

/** Sort groups: keys for this file first, then keys its ZeRO stage ignores, short aliases, deprecated keys. */
const group = { relevant: '0', otherStage: '1', alias: '2', deprecated: '9' } as const;

/**
 * Keys the schema allows in the object under the cursor and that it does not hold yet (an alias counts as
 * its canonical key), each inserting `"key": <value>` with the cursor on the value; plus whole-section
 * snippets (`"zero_optimization": { ZeRO-3 … }`) taken from the schema's defaultSnippets. Documentation and
 * detail are lazy: most of a list's cost, and an editor shows them for the focused item only.
 */
export function keyCompletions(context: KeyContext, document: TextDocument, parsed: ParsedConfig, locale: Locale = 'en'): CompletionDraft[] {
  const t = translator(locale);
  const index = schemaIndex();
  const objectSchema = index.schemaForPath(context.objectPath, parsed.value);
  if (!objectSchema) return [];
  const properties = index.propertiesOf(objectSchema, valueAt(parsed.value, context.objectPath));
  const canonical = index.canonicalNames(objectSchema);
  const taken = new Set([...context.presentKeys].map((key) => canonical.get(key) ?? key));
  const stage = zeroStageOf(parsed.value);
  const range = rangeOf(document, context.replace);
  const quote = context.partial?.quoted ? '"' : '';
  // The comma a value before the cursor lacks. Right where the item goes (`}|`) it is part of the item's text:
  // LSP 3.16 CompletionItem.additionalTextEdits "must not overlap (including the same insert position) with the
  // main edit" (vscode-languageserver-types 3.18 lib/umd/main.d.ts:1636), and an editor that applies both in
  // order puts it after the key.
  const commaAt = context.leadingCommaAt;
  const lead = commaAt !== undefined && commaAt === context.replace.start ? ',' : '';
  const additionalTextEdits: TextEdit[] | undefined = commaAt !== undefined && !lead ? [{ range: rangeOf(document, { start: commaAt, end: commaAt }), newText: ',' }] : undefined;
  const trailing = context.needsTrailingComma ? ',' : '';

  const items: CompletionDraft[] = [];
  // for…in rather than Object.entries: the root object has ~70 keys and this runs on every keystroke.
  for (const key in properties) {
    const node = properties[key];
    if (taken.has(canonical.get(key) ?? key) || node.doNotSuggest === true) continue;
    const meta = metaOf(node);
    const deprecated = !!(meta.deprecated || node.deprecationMessage);
    const sortGroup = deprecated
      ? group.deprecated
      : meta.aliasOf
        ? group.alias
        : stage !== undefined && meta.stages && !meta.stages.includes(stage)
          ? group.otherStage
          : group.relevant;
    const newText = lead + (context.keyHasValue ? quotedKeys.get(node, key, () => JSON.stringify(key)) : memberText(key, node) + trailing);
    items.push({
      label: key,
      kind: CompletionItemKind.Property,
      lazy: () => ({
        detail: [meta.aliasOf && t('alias of {0}', meta.aliasOf), detailOf(node, locale), sortGroup === group.otherStage && t('ignored at stage {0}', stage ?? '')].filter(Boolean).join(' · '),
        documentation: { kind: 'markdown', value: describeKey([...context.objectPath, key], node, parsed.value, locale) },
      }),
      filterText: quote + key + quote,
      sortText: `${sortGroup}_${key}_0`,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range, newText },
      additionalTextEdits,
      ...(deprecated ? { tags: [CompletionItemTag.Deprecated] } : {}),
    });
    if (context.keyHasValue || deprecated) continue;
    for (const snippet of defaultSnippetsOf(node)) {
      const body = snippetText(snippet);
      const label = proseOf(snippet, 'label', locale) ?? key;
      items.push({
        label,
        labelDetails: { description: key },
        kind: CompletionItemKind.Snippet,
        lazy: () => ({
          detail: proseOf(snippet, 'description', locale) ?? t('"{0}" section', key),
          documentation: {
            kind: 'markdown',
            value: [proseOf(snippet, 'markdownDescription', locale) ?? proseOf(snippet, 'description', locale), '```json\n' + `"${key}": ${previewOf(body)}` + '\n```'].filter(Boolean).join('\n\n'),
          },
        }),
        // The English label too, so typing the words of either language finds the snippet.
        filterText: `${quote}${key} ${label}${snippet.label && label !== snippet.label ? ` ${snippet.label}` : ''}${quote}`,
        sortText: `${sortGroup}_${key}_1_${label}`,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range, newText: `${lead}${JSON.stringify(key)}: ${body}${trailing}` },
        additionalTextEdits,
      });
    }
  }
  if (!context.keyHasValue) items.push(...memberSnippets(objectSchema, context, range, { lead, trailing, additionalTextEdits }, locale));
  return items;
}

const quotedKeys = new NodeMemo<string>();
const memberTexts = new NodeMemo<string>();

/** `"key": <value placeholder>`, the same for every request that offers the key. */
function memberText(key: string, node: SchemaNode): string {
  return memberTexts.get(node, key, () => `${JSON.stringify(key)}: ${valuePlaceholder(node)}`);
}

/**
 * The object's own defaultSnippets, inserted as members since the braces exist already; offered while none
 * of their keys is present (a whole-config skeleton in an empty file, an optimizer+scheduler pair, …).
 */
function memberSnippets(
  objectSchema: SchemaNode,
  context: KeyContext,
  range: ReturnType<typeof rangeOf>,
  commas: { lead: string; trailing: string; additionalTextEdits: TextEdit[] | undefined },
  locale: Locale,
): CompletionItem[] {
  const quote = context.partial?.quoted ? '"' : '';
  return defaultSnippetsOf(objectSchema)
    .filter((s) => s.body && typeof s.body === 'object' && !Array.isArray(s.body))
    .filter((s) => Object.keys(s.body as object).every((key) => !context.presentKeys.has(key)))
    .map((snippet) => {
      const members = membersFromBody(snippet.body as Record<string, unknown>);
      const label = proseOf(snippet, 'label', locale) ?? Object.keys(snippet.body as object).join(', ');
      return {
        label,
        kind: CompletionItemKind.Snippet,
        detail: proseOf(snippet, 'description', locale),
        documentation: { kind: 'markdown', value: [proseOf(snippet, 'markdownDescription', locale), '```json\n' + previewOf(members) + '\n```'].filter(Boolean).join('\n\n') },
        filterText: `${quote}${label}${quote}`,
        sortText: `3_${label}`,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range, newText: commas.lead + members + commas.trailing },
        additionalTextEdits: commas.additionalTextEdits,
      } satisfies CompletionItem;
    });
}
