/**
 * Values of the documented flags in scripts: the words of the Trainer's `--fsdp` (one quoted string), ms-swift's
 * `--fsdp` preset, FSDP JSON files in the workspace for `--fsdp_config` and ms-swift's `--fsdp`, and the values
 * of Megatron's and accelerate's documented flags; and the hover of a `--fsdp` word or preset.
 */
import { CompletionItemKind, type CompletionItem, type Hover, type Range } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { Locale, Translate } from '../../l10n';
import { relativePath } from '../../util/paths';
import type { SourceContext } from '../command/context';
import type { CursorTarget } from '../locate';
import { optionValues } from '../optionSchema';
import { swiftFsdpOption, swiftFsdpPreset, trainerFsdpWords } from '../fsdp/options';
import { documentedFlags } from './parallelFlags';
import { valueItems } from './optionDocs';

type ValueTarget = Extract<CursorTarget, { kind: 'value' }>;

/** Workspace JSON files whose path says FSDP, relative to the script. */
async function fsdpJsonItems(hosts: Hosts, fromDir: string, range: Range, t: Translate, write: (path: string) => string = (path) => path): Promise<CompletionItem[]> {
  const files = (await hosts.workspace.jsonFiles()).filter((f) => /fsdp/i.test(f)).slice(0, 200);
  return files.map((file, i) => {
    let rel = relativePath(fromDir, file);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return { label: rel, kind: CompletionItemKind.File, detail: t('FSDP config in the workspace'), textEdit: { range, newText: write(rel) }, sortText: `1${String(i).padStart(4, '0')}` };
  });
}

/** The word of `--fsdp "full_shard au…"` being typed: its start, and the words already written. */
function typedWord(ctx: SourceContext, target: ValueTarget, offset: number): { start: number; written: Set<string> } {
  const before = ctx.document.getText().slice(target.start, offset);
  const m = /[^\s"']*$/.exec(before)!;
  const written = new Set(target.text.split(/\s+/).filter(Boolean));
  return { start: offset - m[0].length, written };
}

/**
 * Completions for the value of a documented flag, or undefined when the flag is none of them. `write` writes a
 * file path as the place needs it (one shell word outside quotes).
 */
export async function documentedValueCompletions(
  ctx: SourceContext,
  hosts: Hosts,
  target: ValueTarget,
  offset: number,
  t: Translate,
  locale: Locale | undefined,
  write?: (path: string) => string,
): Promise<CompletionItem[] | undefined> {
  const flag = documentedFlags(target.launch, target.owner, t).get(target.option.name);
  if (!flag) return undefined;
  const range = ctx.span(target.start, target.end).range;
  const trainer = target.launch.trainer?.kind;
  if (target.owner === 'trainer' && trainer === 'python' && flag.name === 'fsdp') {
    const typed = typedWord(ctx, target, offset);
    const wordRange = ctx.span(typed.start, offset).range;
    return optionValues(trainerFsdpWords(), locale)
      .filter((v) => !typed.written.has(v.value) || ctx.document.getText().slice(typed.start, offset) === v.value)
      .map((v, i) => ({ label: v.value, kind: CompletionItemKind.EnumMember, documentation: { kind: 'markdown', value: v.doc }, textEdit: { range: wordRange, newText: v.value }, sortText: String(i).padStart(3, '0') }));
  }
  if (target.owner === 'trainer' && trainer === 'python' && flag.name === 'fsdp_config') return fsdpJsonItems(hosts, ctx.fileDir, range, t, write);
  if (target.owner === 'trainer' && trainer === 'swift' && flag.name === 'fsdp') return [...valueItems(swiftFsdpOption(), range, locale), ...(await fsdpJsonItems(hosts, ctx.fileDir, range, t, write))];
  return valueItems(flag.entry, range, locale);
}

/** The hover of a `--fsdp` word (the Trainer) or preset (ms-swift) under the cursor. */
export function fsdpValueHover(ctx: SourceContext, target: ValueTarget, offset: number, t: Translate, locale: Locale | undefined): Hover | null {
  if (target.owner !== 'trainer' || target.option.name !== 'fsdp') return null;
  const trainer = target.launch.trainer?.kind;
  const text = ctx.document.getText();
  let start = offset;
  let end = offset;
  while (start > target.start && /[\w-]/.test(text[start - 1])) start--;
  while (end < target.end && /[\w-]/.test(text[end])) end++;
  const word = text.slice(start, end);
  const range = ctx.span(start, end).range;
  if (trainer === 'python') {
    const value = optionValues(trainerFsdpWords(), locale).find((v) => v.value === word);
    return value ? { contents: { kind: 'markdown', value: `**${word}** (\`--fsdp\`)\n\n${value.doc}` }, range } : null;
  }
  const preset = trainer === 'swift' ? swiftFsdpPreset(word) : undefined;
  const doc = optionValues(swiftFsdpOption(), locale).find((v) => v.value === word)?.doc;
  if (!preset || !doc) return null;
  const json = ['```json', JSON.stringify(preset, null, 2), '```'].join('\n');
  return { contents: { kind: 'markdown', value: `**${t('ms-swift FSDP preset `{0}`', word)}**\n\n${doc}\n\n${json}` }, range };
}
