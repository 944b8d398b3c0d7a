/**
 * Completion and hover for the FSDP part of an accelerate config: the keys of `fsdp_config` and their values
 * (from `schemas/fsdp.schema.json`), and `distributed_type: FSDP`.
 */
import { CompletionItemKind, type CompletionItem, type Hover } from 'vscode-languageserver-types';
import type { Locale, Translate } from '../../l10n';
import type { SourceContext } from '../command/context';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import { accelerateFsdpName, accelerateFsdpOption, accelerateFsdpOptions } from '../fsdp/options';
import { nameItems, optionMarkdown, valueItems } from './optionDocs';
import { typedYamlValue } from '../yaml/typedValue';

/** The key of the block mapping a line belongs to (`fsdp_config` for `  fsdp_version: 2`), else undefined. */
export function parentKey(text: string, lineStart: number): string | undefined {
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0].length;
  if (indent === 0) return undefined;
  let end = lineStart - 1;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    if (/^\s*(#.*)?$/.test(line)) continue;
    const m = /^([ \t]*)([A-Za-z_][\w-]*)\s*:\s*(#.*)?$/.exec(line);
    const own = /^[ \t]*/.exec(line)![0].length;
    if (own < indent) return m ? m[2] : undefined;
  }
  return undefined;
}

function distributedTypes(t: Translate): { value: string; doc: string }[] {
  return [
    { value: 'DEEPSPEED', doc: t('DeepSpeed, set in `deepspeed_config`') },
    { value: 'FSDP', doc: t('PyTorch FSDP, set in `fsdp_config`') },
  ];
}

/** Completions for the FSDP part of an accelerate config, or undefined where it has none to give. */
export function fsdpYamlCompletions(ctx: SourceContext, yaml: YamlLaunch | undefined, offset: number, t: Translate, locale: Locale | undefined): CompletionItem[] | undefined {
  if (yaml && yaml.kind !== 'accelerate-yaml') return undefined;
  const text = ctx.document.getText();
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const value = typedYamlValue(text, offset);
  if (value) {
    const range = ctx.span(value.start, value.end).range;
    if (value.key === 'distributed_type' && !/^\s/.test(before)) {
      return distributedTypes(t).map((v) => ({ label: v.value, kind: CompletionItemKind.EnumMember, detail: v.doc, textEdit: { range, newText: v.value } }));
    }
    const option = parentKey(text, lineStart) === 'fsdp_config' ? accelerateFsdpOption(value.key) : undefined;
    return option ? valueItems(option, range, locale) : undefined;
  }
  const name = /^([ \t]+)([A-Za-z_]*)$/.exec(before);
  if (!name || parentKey(text, lineStart) !== 'fsdp_config') return undefined;
  // The whole key under the cursor is replaced; a key that has its `:` already keeps it and its value.
  const after = /^([A-Za-z_]*)([ \t]*:)?/.exec(text.slice(offset))!;
  const range = ctx.span(offset - name[2].length, offset + after[1].length).range;
  const written = new Set([...(yaml?.fsdpConfig.keys() ?? [])].map(accelerateFsdpName));
  return nameItems(accelerateFsdpOptions().values(), range, t('accelerate FSDP option'), t, locale, written, (name) => (after[2] ? name : `${name}: `));
}

/** The documentation of a key of `fsdp_config` under the cursor. */
export function fsdpYamlHover(ctx: SourceContext, yaml: YamlLaunch, offset: number, t: Translate, locale: Locale | undefined): Hover | null {
  for (const entry of yaml.fsdpConfig.values()) {
    if (offset < entry.keyStart || offset > entry.keyEnd) continue;
    const option = accelerateFsdpOption(entry.key);
    if (!option) return null;
    return { contents: { kind: 'markdown', value: optionMarkdown(option, entry.key, t, locale) }, range: ctx.span(entry.keyStart, entry.keyEnd).range };
  }
  return null;
}
