/**
 * Options documented as data: `schemas/fsdp.schema.json` (accelerate's `fsdp_config`, the Trainer's `--fsdp`
 * words and `--fsdp_config` keys, ms-swift's `--fsdp`) and `schemas/megatron.schema.json` (Megatron-SWIFT's
 * parallel sizes). Each option is a JSON-schema property with its documentation beside its Chinese
 * (`markdownDescription-zh-cn`) and, in `x-fsdp` / `x-megatron`, where upstream reads it and its docs page.
 * This file only reads them; what the options mean to a launch is in `fsdp/` and `parallel/`.
 */
import { localizedField, localizedList, type Locale } from '../l10n';

/** Where upstream reads an option (`owner/repo@commit:path#Lx`), its docs page, and per family what else. */
export interface OptionMeta {
  docs?: string;
  reads?: string;
  /** The line that raises for a value it refuses, when that is not where it reads. */
  invalid?: string;
  /** FSDP versions that read the option. */
  versions?: (1 | 2)[];
  /** Megatron: which parallel size the option is. */
  size?: 'tp' | 'pp' | 'cp' | 'ep' | 'etp';
  presets?: Record<string, unknown>;
}

export interface OptionEntry {
  name: string;
  /** JSON types the option takes. */
  types: string[];
  values?: (string | number | boolean)[];
  default?: unknown;
  minimum?: number;
  meta: OptionMeta;
  /** The schema record itself, for its documentation in a locale. */
  record: Record<string, unknown>;
}

type SchemaRecord = Record<string, unknown>;

function asRecord(value: unknown): SchemaRecord | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as SchemaRecord) : undefined;
}

/** One schema definition read as options (its `properties`), with the metadata under `metaKey`. */
export function optionEntries(definition: unknown, metaKey: 'x-fsdp' | 'x-megatron'): Map<string, OptionEntry> {
  const out = new Map<string, OptionEntry>();
  const properties = asRecord(asRecord(definition)?.properties) ?? {};
  for (const [name, value] of Object.entries(properties)) {
    const record = asRecord(value);
    if (!record) continue;
    out.set(name, entryOf(name, record, metaKey));
  }
  return out;
}

/** A definition that is itself one option (an enum of words: the Trainer's `--fsdp`, ms-swift's presets). */
export function optionEntry(name: string, definition: unknown, metaKey: 'x-fsdp' | 'x-megatron'): OptionEntry {
  return entryOf(name, asRecord(definition) ?? {}, metaKey);
}

function entryOf(name: string, record: SchemaRecord, metaKey: string): OptionEntry {
  const type = record.type;
  const types = Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
  const entry: OptionEntry = { name, types, meta: (asRecord(record[metaKey]) ?? {}) as OptionMeta, record };
  if (Array.isArray(record.enum)) entry.values = record.enum as (string | number | boolean)[];
  if (record.default !== undefined) entry.default = record.default;
  if (typeof record.minimum === 'number') entry.minimum = record.minimum;
  return entry;
}

/** The option's documentation in the reader's language. */
export function optionDoc(entry: OptionEntry, locale: Locale | undefined): string | undefined {
  return localizedField(entry.record, 'markdownDescription', locale) ?? localizedField(entry.record, 'description', locale);
}

/** The option's values with their documentation, in the reader's language (booleans: true and false). */
export function optionValues(entry: OptionEntry, locale: Locale | undefined): { value: string; doc: string }[] {
  if (entry.values) {
    const docs = localizedList(entry.record, 'markdownEnumDescriptions', locale) ?? [];
    return entry.values.map((value, i) => ({ value: String(value), doc: docs[i] ?? '' }));
  }
  return entry.types.includes('boolean') ? ['true', 'false'].map((value) => ({ value, doc: '' })) : [];
}
