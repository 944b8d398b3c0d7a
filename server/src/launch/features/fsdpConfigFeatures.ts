/**
 * An FSDP config file as a document of its own (a Trainer `--fsdp_config` file, an ms-swift `--fsdp` file):
 * completion of its keys and values, hover with their documentation, its checks and their quick fixes. The
 * options are `schemas/fsdp.schema.json`'s, as for the same config inline in a script or an accelerate YAML.
 */
import { findNodeAtOffset, getLocation, getNodePath, type Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemKind, type CompletionItem, type Hover, type Range } from 'vscode-languageserver-types';
import type { FeatureContributor } from '../../feature';
import { translator, type Locale, type Translate } from '../../l10n';
import { SourceContext } from '../command/context';
import { fsdpConfigFileDiagnostics } from '../diagnostics/fsdpConfigFile';
import type { FsdpConfigFile, FsdpConfigFiles } from '../fsdp/configFile';
import { trainerFsdpConfigOption, trainerFsdpConfigOptions, trainerFsdpName, trainerFsdpWords } from '../fsdp/options';
import { optionValues, type OptionEntry } from '../optionSchema';
import { launchCodeActions } from './codeActions';
import { optionMarkdown } from './optionDocs';

/** ms-swift's file: its two keys. */
const swiftKeys = ['fsdp', 'fsdp_config'] as const;

/** The option a key of the file names: a config key, or ms-swift's `"fsdp"` words. */
function optionOf(file: FsdpConfigFile, path: (string | number)[]): OptionEntry | undefined {
  if (file.shape === 'swift' && path.length === 1 && path[0] === 'fsdp') return trainerFsdpWords();
  const inConfig = file.shape === 'swift' ? path.length === 2 && path[0] === 'fsdp_config' : path.length === 1;
  const key = path[path.length - 1];
  return inConfig && typeof key === 'string' ? trainerFsdpConfigOption(key) : undefined;
}

/** A value as JSON text: booleans and numbers bare where the option takes them, everything else a string. */
function jsonLiteral(entry: OptionEntry, value: string): string {
  if ((value === 'true' || value === 'false') && entry.types.includes('boolean')) return value;
  if (/^-?\d+(\.\d+)?$/.test(value) && (entry.types.includes('integer') || entry.types.includes('number')) && !entry.types.includes('string')) return value;
  return JSON.stringify(value);
}

function rangeOf(document: TextDocument, node: Node | undefined, offset: number): Range {
  const start = node && ['string', 'number', 'boolean', 'null'].includes(node.type) ? node.offset : offset;
  const end = node && start === node.offset ? node.offset + node.length : offset;
  return { start: document.positionAt(start), end: document.positionAt(end) };
}

function keyItems(document: TextDocument, file: FsdpConfigFile, names: { name: string; entry?: OptionEntry }[], node: Node | undefined, offset: number, written: Set<string>, t: Translate, locale: Locale | undefined): CompletionItem[] {
  const range = rangeOf(document, node, offset);
  // Inside an existing key only the name is replaced; a new key gets its colon.
  const suffix = node?.type === 'string' ? '' : ': ';
  return names
    .filter(({ name }) => !written.has(name))
    .map(({ name, entry }) => ({
      label: name,
      kind: CompletionItemKind.Property,
      detail: file.shape === 'swift' && !entry ? t('ms-swift FSDP file') : t('Trainer FSDP option'),
      documentation: entry ? { kind: 'markdown', value: optionMarkdown(entry, name, t, locale) } : undefined,
      textEdit: { range, newText: `${JSON.stringify(name)}${suffix}` },
    }));
}

function complete(document: TextDocument, file: FsdpConfigFile, offset: number, t: Translate, locale: Locale | undefined): CompletionItem[] {
  const location = getLocation(document.getText(), offset);
  const path = location.path;
  const node = location.previousNode;
  if (location.isAtPropertyKey) {
    const parent = path.slice(0, -1);
    if (file.shape === 'swift' && parent.length === 0) {
      const written = new Set(file.value ? Object.keys(file.value) : []);
      return keyItems(document, file, swiftKeys.map((name) => ({ name, entry: name === 'fsdp' ? trainerFsdpWords() : undefined })), node, offset, written, t, locale);
    }
    const inConfig = file.shape === 'swift' ? parent.length === 1 && parent[0] === 'fsdp_config' : parent.length === 0;
    if (!inConfig) return [];
    const written = new Set(file.keys.map((k) => trainerFsdpName(k.written)));
    return keyItems(document, file, [...trainerFsdpConfigOptions().values()].map((entry) => ({ name: entry.name, entry })), node, offset, written, t, locale);
  }
  const entry = optionOf(file, path);
  if (!entry || (node && !['string', 'number', 'boolean', 'null'].includes(node.type) && node.offset + node.length < offset)) return [];
  const range = rangeOf(document, node, offset);
  return optionValues(entry, locale).map((v, i) => ({
    label: v.value,
    kind: CompletionItemKind.EnumMember,
    documentation: v.doc ? { kind: 'markdown', value: v.doc } : undefined,
    textEdit: { range, newText: jsonLiteral(entry, v.value) },
    sortText: String(i).padStart(3, '0'),
  }));
}

function hover(document: TextDocument, file: FsdpConfigFile, offset: number, t: Translate, locale: Locale | undefined): Hover | null {
  const node = file.root && findNodeAtOffset(file.root, offset);
  // A key: the first child of a property.
  if (node?.type !== 'string' || node.parent?.type !== 'property' || node.parent.children?.[0] !== node) return null;
  const entry = optionOf(file, getNodePath(node));
  if (!entry) return null;
  return {
    contents: { kind: 'markdown', value: optionMarkdown(entry, String(node.value), t, locale) },
    range: { start: document.positionAt(node.offset), end: document.positionAt(node.offset + node.length) },
  };
}

/** The contributor for documents classified `fsdp-config`. */
export function createFsdpConfigFeatures(files: FsdpConfigFiles, folders: () => string[]): FeatureContributor {
  return {
    name: (t) => t('FSDP config'),
    validate: async (document, settings) => fsdpConfigFileDiagnostics(new SourceContext(document, folders()), files.parse(document), translator(settings.locale)),
    complete: async (document, position, settings) => complete(document, files.parse(document), document.offsetAt(position), translator(settings.locale), settings.locale),
    hover: async (document, position, settings) => hover(document, files.parse(document), document.offsetAt(position), translator(settings.locale), settings.locale),
    codeActions: async (document, _range, context) => launchCodeActions(document, context),
  };
}
