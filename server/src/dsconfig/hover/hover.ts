import { getNodePath, type Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Hover, Position, Range } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { ConfigParses } from '../parse';
import { schemaForPath } from '../schemaIndex';
import { describeKey, describeValue } from './describe';
import { nodeAtOffset } from '../../util/nodeAtOffset';
import { changedDefaults, releaseDefault, type DeepSpeedRelease } from '../deepspeedRelease';
import { translator } from '../../l10n';
import { rangeOfSpan } from '../../util/textRange';

/** The DeepSpeed release the document's workspace pins or has installed (dsConfigFeatures.ts keeps it per document). */
export type ReleaseLookup = () => Promise<DeepSpeedRelease | undefined>;

const unknownRelease: ReleaseLookup = () => Promise.resolve(undefined);

/** Hover on a ds_config key or value: the schema's documentation for it, as markdown. */
export function hover(parses: ConfigParses, document: TextDocument, position: Position, settings: ZeroLensSettings, release: ReleaseLookup = unknownRelease): Promise<Hover | null> {
  try {
    // Settled at once unless a changed default needs the workspace's release: no async frames per hover.
    const answer = hoverAt(parses, document, position, settings, release);
    return answer instanceof Promise ? answer.catch(() => null) : Promise.resolve(answer);
  } catch {
    return Promise.resolve(null); // a hover is never worth an error popup
  }
}

/** The last key of each default that changed between releases: only these keys need their dotted path. */
const changedDefaultKeys = new Set(Object.keys(changedDefaults).map((dotted) => dotted.slice(dotted.lastIndexOf('.') + 1)));

function hoverAt(parses: ConfigParses, document: TextDocument, position: Position, settings: ZeroLensSettings, lookUpRelease: ReleaseLookup): Hover | null | Promise<Hover> {
  const parsed = parses.parse(document);
  if (!parsed.root) return null;
  const offset = document.offsetAt(position);
  // The character under the mouse first; then the token that ends at the cursor (keyboard hover).
  const node = scalarAt(parsed.root, offset) ?? scalarAt(parsed.root, offset - 1);
  if (!node) return null;
  const property = node.parent?.type === 'property' ? node.parent : undefined;
  const isKey = !!property && property.children?.[0] === node;
  if (!isKey && node.parent?.type !== 'property' && node.parent?.type !== 'array') return null;
  const path = getNodePath(node);
  const schema = schemaForPath(path, parsed.value);
  if (!schema) return null;
  const range = rangeOfSpan(document, node);
  if (!isKey) return markdownHover(range, describeValue(path, schema, node.value, parsed.text.substr(node.offset, node.length), parsed.value, settings.locale));
  // Only for the few keys whose default changed between releases is the workspace's release looked up.
  const dotted = changedDefaultKeys.has(node.value) ? path.filter((p) => typeof p === 'string').join('.') : undefined;
  if (!dotted || !changedDefaults[dotted]) return markdownHover(range, describeKey(path, schema, parsed.value, settings.locale));
  return lookUpRelease().then((release) =>
    markdownHover(range, describeKey(path, schema, parsed.value, settings.locale, releaseDefault(dotted, undefined, release, translator(settings.locale)).note)),
  );
}

function markdownHover(range: Range, value: string): Hover {
  return { contents: { kind: 'markdown', value }, range };
}

function scalarAt(root: Node, offset: number): Node | undefined {
  if (offset < 0) return undefined;
  const node = nodeAtOffset(root, offset);
  return node && node.type !== 'object' && node.type !== 'array' && node.type !== 'property' ? node : undefined;
}
