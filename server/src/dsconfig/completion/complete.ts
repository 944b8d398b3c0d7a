import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type Position } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { CompletionDraft } from '../../completionList';
import type { ConfigParses } from '../parse';
import { defaultSnippetsOf, proseOf, rootSchema } from '../schemaIndex';
import { translator, type Locale } from '../../l10n';
import { cursorContext, type Span } from './cursorContext';
import { keyCompletions } from './keyCompletions';
import { previewOf, snippetText } from './snippets';
import { rangeOf } from './textEdits';
import { valueCompletions } from './valueCompletions';

/** Completion in a ds_config document: keys, values and section snippets from the schema. Never throws. */
export async function complete(parses: ConfigParses, document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<CompletionDraft[]> {
  const locale = settings.locale;
  try {
    const parsed = parses.parse(document);
    if (parsed.limits.length > 0) return []; // too large or too deep to be a hand-written config
    // A file without syntax errors lets the cursor scan start from the tree (cheap in long files).
    const context = cursorContext(parsed.text, document.offsetAt(position), parsed.syntaxErrors.length === 0 ? parsed.root : undefined);
    switch (context.kind) {
      case 'key':
        return keyCompletions(context, document, parsed, locale);
      case 'value':
        return valueCompletions(context, document, parsed, locale);
      case 'document':
        return wholeConfigSnippets(document, context.replace, locale);
      default:
        return [];
    }
  } catch {
    return [];
  }
}

/** In a blank file: the schema's whole-config skeletons, or an empty object. */
function wholeConfigSnippets(document: TextDocument, replace: Span, locale: Locale): CompletionItem[] {
  const range = rangeOf(document, replace);
  const t = translator(locale);
  const snippets = defaultSnippetsOf(rootSchema()).map((snippet, i): CompletionItem => {
    const body = snippetText(snippet);
    return {
      label: proseOf(snippet, 'label', locale) ?? t('DeepSpeed config {0}', i + 1),
      kind: CompletionItemKind.Snippet,
      detail: proseOf(snippet, 'description', locale),
      documentation: { kind: 'markdown', value: [proseOf(snippet, 'markdownDescription', locale), '```json\n' + previewOf(body) + '\n```'].filter(Boolean).join('\n\n') },
      sortText: String(i).padStart(3, '0'),
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range, newText: body },
    };
  });
  return [...snippets, { label: '{}', kind: CompletionItemKind.Module, sortText: '999', insertTextFormat: InsertTextFormat.Snippet, textEdit: { range, newText: '{\n\t$1\n}' } }];
}
