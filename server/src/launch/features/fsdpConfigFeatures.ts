/**
 * An FSDP config file as a document of its own (a Trainer `--fsdp_config` file, an ms-swift `--fsdp` file):
 * completion of its keys and values, hover with their documentation, its checks and their quick fixes. The
 * options are `schemas/fsdp.schema.json`'s, as for the same config inline in a script or an accelerate YAML.
 */
import { getLocation, getNodePath, type Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { nodeAtOffset } from '../../util/nodeAtOffset';
import { CompletionItemKind, type CompletionItem, type Hover } from 'vscode-languageserver-types';
import type { FeatureContributor } from '../../feature';
import { translator, type Locale, type Translate } from '../../l10n';
import { SourceContext } from '../command/context';
import { fsdpConfigFileDiagnostics } from '../diagnostics/fsdpConfigFile';
import type { FsdpConfigFile, FsdpConfigFiles } from '../fsdp/configFile';
import { trainerFsdpConfigOption, trainerFsdpConfigOptions, trainerFsdpName, trainerFsdpWords } from '../fsdp/options';
import type { OptionEntry } from '../optionSchema';
import { launchCodeActions } from './codeActions';
import { nameItems, optionMarkdown, valueItems } from './optionDocs';
import { rangeOfSpan } from '../../util/textRange';

/** Whether the object at `path` holds the config's keys: the file itself, or ms-swift's `"fsdp_config"`. */
function holdsConfigKeys(file: FsdpConfigFile, path: (string | number)[]): boolean {
  return file.shape === 'swift' ? path.length === 1 && path[0] === 'fsdp_config' : path.length === 0;
}

/** The option a key of the file names: a config key, or ms-swift's `"fsdp"` words. */
function optionOf(file: FsdpConfigFile, path: (string | number)[]): OptionEntry | undefined {
  if (file.shape === 'swift' && path.length === 1 && path[0] === 'fsdp') return trainerFsdpWords();
  const key = path[path.length - 1];
  return holdsConfigKeys(file, path.slice(0, -1)) && typeof key === 'string' ? trainerFsdpConfigOption(key) : undefined;
}

/** A value as JSON text: booleans and numbers bare where the option takes them, everything else a string. */
function jsonLiteral(entry: OptionEntry, value: string): string {
  if ((value === 'true' || value === 'false') && entry.types.includes('boolean')) return value;
  if (/^-?\d+(\.\d+)?$/.test(value) && (entry.types.includes('integer') || entry.types.includes('number')) && !entry.types.includes('string')) return value;
  return JSON.stringify(value);
}

const literalTypes: ReadonlySet<string> = new Set(['string', 'number', 'boolean', 'null']);

/** The node under the cursor when it is a literal (a key being typed, or a value), else undefined. */
function literalAt(node: Node | undefined): Node | undefined {
  return node && literalTypes.has(node.type) ? node : undefined;
}

function complete(document: TextDocument, file: FsdpConfigFile, offset: number, t: Translate, locale: Locale | undefined): CompletionItem[] {
  const location = getLocation(document.getText(), offset);
  const path = location.path;
  const literal = literalAt(location.previousNode);
  // What a completion replaces: the literal under the cursor, else nothing at the cursor.
  const range = rangeOfSpan(document, literal ?? { offset, length: 0 });
  if (location.isAtPropertyKey) {
    // Inside an existing key only the name is replaced; a new key gets its colon.
    const writeKey = (name: string) => `${JSON.stringify(name)}${literal?.type === 'string' ? '' : ': '}`;
    const parent = path.slice(0, -1);
    if (file.shape === 'swift' && parent.length === 0) {
      const written = new Set(file.value ? Object.keys(file.value) : []);
      const items = nameItems([trainerFsdpWords()], range, t('Trainer FSDP option'), t, locale, written, writeKey);
      if (!written.has('fsdp_config')) items.push({ label: 'fsdp_config', kind: CompletionItemKind.Property, detail: t('ms-swift FSDP file'), textEdit: { range, newText: writeKey('fsdp_config') } });
      return items;
    }
    if (!holdsConfigKeys(file, parent)) return [];
    const written = new Set(file.keys.map((k) => trainerFsdpName(k.written)));
    return nameItems(trainerFsdpConfigOptions().values(), range, t('Trainer FSDP option'), t, locale, written, writeKey);
  }
  const entry = optionOf(file, path);
  // After a value that is not a literal (an array, an object), nothing to offer.
  if (!entry || (location.previousNode && !literal && location.previousNode.offset + location.previousNode.length < offset)) return [];
  return valueItems(entry, range, locale, (value) => jsonLiteral(entry, value));
}

function hover(document: TextDocument, file: FsdpConfigFile, offset: number, t: Translate, locale: Locale | undefined): Hover | null {
  const node = file.root && nodeAtOffset(file.root, offset);
  // A key: the first child of a property.
  if (node?.type !== 'string' || node.parent?.type !== 'property' || node.parent.children?.[0] !== node) return null;
  const entry = optionOf(file, getNodePath(node));
  if (!entry) return null;
  return {
    contents: { kind: 'markdown', value: optionMarkdown(entry, String(node.value), t, locale) },
    range: rangeOfSpan(document, node),
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
