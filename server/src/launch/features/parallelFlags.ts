/**
 * Flags documented as data, for completion and hover in scripts: FSDP's (the Trainer's `--fsdp`/`--fsdp_config`,
 * ms-swift's `--fsdp`, `accelerate launch --use_fsdp --fsdp_*`) and Megatron-SWIFT's parallel sizes. These come
 * before the static tables of `flagDocs.ts`, in the reader's language.
 */
import { CompletionItemKind, type CompletionItem, type Hover, type Range } from 'vscode-languageserver-types';
import type { Locale, Translate } from '../../l10n';
import type { SourceContext } from '../command/context';
import type { Option } from '../command/options';
import { optionMarkdown } from './optionDocs';
import type { LaunchCommand } from '../command/launchCommand';
import { accelerateFsdpOptions, swiftFsdpOption, trainerFsdpWords } from '../fsdp/options';
import { optionEntry, type OptionEntry } from '../optionSchema';
import { megatronOptions } from '../parallel/megatronOptions';
import schemaJson from '../../../../schemas/fsdp.schema.json';

export interface DocumentedFlag {
  name: string;
  /** The program's name for the hover and the completion item's detail. */
  program: string;
  entry: OptionEntry;
}

const definitions = (schemaJson as { definitions: Record<string, unknown> }).definitions;
let trainerConfigFlag: OptionEntry | undefined;

/** `--fsdp_config` documented as the definition of what it holds. */
function fsdpConfigFlag(): OptionEntry {
  return (trainerConfigFlag ??= optionEntry('fsdp_config', definitions.trainerFsdpConfig, 'x-fsdp'));
}

/** `--use_fsdp`: no option of its own in the schema, so its entry is made here (translated through the catalog). */
function useFsdpFlag(t: Translate): OptionEntry {
  const doc = t("Train with PyTorch FSDP; its settings come from the `--fsdp_*` flags, else from the config file's `fsdp_config`.");
  return { name: 'use_fsdp', types: ['boolean'], meta: {}, record: { markdownDescription: doc } };
}

/** The documented flags of one side of a launch, by name. */
export function documentedFlags(launch: LaunchCommand, owner: 'launcher' | 'trainer', t: Translate): Map<string, DocumentedFlag> {
  const out = new Map<string, DocumentedFlag>();
  const add = (program: string, entry: OptionEntry) => out.set(entry.name, { name: entry.name, program, entry });
  if (owner === 'launcher') {
    if (launch.launcher?.kind !== 'accelerate') return out;
    const program = 'accelerate launch'; // l10n-ignore: the program's name
    add(program, useFsdpFlag(t));
    for (const entry of accelerateFsdpOptions().values()) add(program, entry);
    return out;
  }
  const trainer = launch.trainer;
  if (trainer?.kind === 'python') {
    add('Hugging Face TrainingArguments', trainerFsdpWords());
    add('Hugging Face TrainingArguments', fsdpConfigFlag());
  } else if (trainer?.kind === 'swift') {
    add(`swift ${trainer.subcommand ?? ''}`.trim(), swiftFsdpOption());
  } else if (trainer?.kind === 'megatron') {
    for (const entry of megatronOptions().values()) add(`megatron ${trainer.subcommand ?? ''}`.trim(), entry);
  }
  return out;
}

/** Completion items for the documented flags of one side of a launch. */
export function documentedFlagItems(flags: Map<string, DocumentedFlag>, range: Range, dashes: string, t: Translate, locale: Locale | undefined): CompletionItem[] {
  return [...flags.values()].map((flag) => ({
    label: `--${flag.name}`,
    kind: CompletionItemKind.Property,
    detail: flag.program,
    documentation: { kind: 'markdown', value: optionMarkdown(flag.entry, `--${flag.name}`, t, locale) },
    filterText: `${dashes}${flag.name}`,
    textEdit: { range, newText: `--${flag.name}` },
  }));
}

/** The hover of a documented flag's name. */
export function documentedFlagHover(ctx: SourceContext, flag: DocumentedFlag, option: Option, t: Translate, locale: Locale | undefined): Hover {
  return { contents: { kind: 'markdown', value: optionMarkdown(flag.entry, option.written, t, locale, flag.program) }, range: ctx.span(option.nameStart, option.nameEnd).range };
}
