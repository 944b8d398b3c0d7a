import { getNodePath, type Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Hover, Position } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { ConfigParses } from '../parse';
import { schemaForPath } from '../schemaIndex';
import { describeKey, describeValue } from './describe';
import { nodeAtOffset } from '../../util/nodeAtOffset';
import type { Locale } from '../../l10n';

/** Hover on a ds_config key or value: the schema's documentation for it, as markdown. */
export async function hover(parses: ConfigParses, document: TextDocument, position: Position, settings: ZeroLensSettings): Promise<Hover | null> {
  try {
    return hoverAt(parses, document, position, settings.locale);
  } catch {
    return null; // a hover is never worth an error popup
  }
}

function hoverAt(parses: ConfigParses, document: TextDocument, position: Position, locale: Locale): Hover | null {
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
  const range = { start: document.positionAt(node.offset), end: document.positionAt(node.offset + node.length) };
  const value = isKey
    ? describeKey(path, schema, parsed.value, locale)
    : describeValue(path, schema, node.value, parsed.text.substr(node.offset, node.length), parsed.value, locale);
  return { contents: { kind: 'markdown', value }, range };
}

function scalarAt(root: Node, offset: number): Node | undefined {
  if (offset < 0) return undefined;
  const node = nodeAtOffset(root, offset);
  return node && node.type !== 'object' && node.type !== 'array' && node.type !== 'property' ? node : undefined;
}
