import type { JSONPath, Node } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { metaOf, parsedByPydantic, refusesUnknownKeys, schemaIndex, type SchemaNode } from '../schemaIndex';
import type { ConfigView } from './configView';
import { checkKey, unknownKey } from './keyChecks';
import { checkValue } from './valueChecks';
import type { WalkMemo, WalkSession } from './walkMemo';

/** One property as the walk sees it: where it is, what the schema says, and the object around it. */
export interface PropertySite {
  path: JSONPath;
  key: string;
  keyNode: Node;
  valueNode: Node | undefined;
  value: unknown;
  schema: SchemaNode;
  /** Schema of the enclosing object, and whether DeepSpeed parses it with pydantic (unknown keys and "auto" dropped). */
  parentSchema: SchemaNode;
  parentStrict: boolean;
  /** The enclosing object's value (last duplicate wins). */
  siblings: Record<string, unknown>;
}

export interface WalkResult {
  diagnostics: Diagnostic[];
  /** JSON pointers whose value problems the walk already reported (ajv errors there are dropped). */
  handledPointers: Set<string>;
}

/** A generated or pasted file can hold thousands of unknown keys; past this many problems the walk stops. */
export const maxWalkDiagnostics = 500;

export function pointerOf(path: JSONPath): string {
  let pointer = '';
  for (let i = 0; i < path.length; i++) {
    const s = String(path[i]);
    pointer += '/' + (s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s);
  }
  return pointer;
}

/**
 * Walks the parsed tree next to the schema: unknown keys, deprecated keys, aliases, stage-only keys,
 * "auto" and integer values. Plain recursion is safe: parse.ts refuses trees deeper than maxNestingDepth.
 */
export function walkWithSchema(config: ConfigView, ownedPointers: Set<string>, memo?: WalkMemo): WalkResult {
  const result: WalkResult = { diagnostics: [], handledPointers: new Set() };
  const root = config.parsed.root;
  if (!root || root.type !== 'object') return result;
  const index = schemaIndex();
  const session = memo?.session(config);
  try {
    walkObject({ config, result, owned: ownedPointers, session }, root, [], config.root, index.view(index.root), true, false);
  } finally {
    session?.close();
  }
  return result;
}

/** What every object's walk shares: the config, the results so far, the rules' paths, the previous version's findings. */
interface Walk {
  config: ConfigView;
  result: WalkResult;
  owned: Set<string>;
  session: WalkSession | undefined;
}

/** An object's problems: taken over from the previous version when nothing they depend on changed (walkMemo.ts). */
function walkObject(walk: Walk, node: Node, path: JSONPath, value: unknown, schema: SchemaNode, isRoot: boolean, underIgnored: boolean): void {
  const { result, session } = walk;
  const earlier = session?.takeOver(value, node, path, schema, underIgnored);
  if (earlier && result.diagnostics.length + earlier.diagnostics.length < maxWalkDiagnostics) {
    result.diagnostics.push(...earlier.diagnostics);
    for (const pointer of earlier.handled) result.handledPointers.add(pointer);
    return;
  }
  const frame = session?.begin(path, result.diagnostics.length);
  checkObject(walk, node, path, value, schema, isRoot, underIgnored);
  if (frame) session!.end(frame, value, node, path, schema, underIgnored, result.diagnostics, result.diagnostics.length >= maxWalkDiagnostics);
}

/** `value` is the parsed value at `path`, handed down so no node looks its value up from the root. */
function checkObject(walk: Walk, node: Node, path: JSONPath, value: unknown, schema: SchemaNode, isRoot: boolean, underIgnored: boolean): void {
  const { config, result, owned, session } = walk;
  const index = schemaIndex();
  const instance = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const view = index.view(schema);
  const meta = metaOf(view);
  const properties = index.propertiesOf(schema, instance);
  const strict = refusesUnknownKeys(view);
  // The top level is loose by convention even if the schema forgets to say so.
  const loose = !strict && (meta.unknownKeys === 'warning' || isRoot);
  const parentStrict = parsedByPydantic(view, strict);
  const children = node.children ?? [];
  // Earlier duplicates are reported as duplicates; DeepSpeed would only ever see the last one. A config without
  // any (most) needs no index of them: a keystroke walks the top level, and this loop allocates only what it must.
  const lastIndex = config.parsed.duplicateKeys.length > 0 ? lastIndexOfKeys(children) : undefined;
  for (let i = 0; i < children.length; i++) {
    if (result.diagnostics.length >= maxWalkDiagnostics) return;
    const keyNode = children[i].children?.[0];
    const valueNode = children[i].children?.[1];
    const key = keyNode?.value;
    if (!keyNode || typeof key !== 'string' || (lastIndex && lastIndex.get(key) !== i)) continue;
    const childPath = path.concat(key);
    const childSchema = properties[key] ?? index.childOf(schema, key, instance);
    if (!childSchema) {
      // "_comment"-style keys are the usual way to annotate strict JSON; in a loose section they are harmless,
      // but not where the keys become a constructor's keyword arguments.
      const annotation = key.startsWith('_') && !strict && !meta.keywordsOf;
      // An open object with no declared keys (kwargs of a torch scheduler, say) has nothing to compare against.
      const freeForm = !strict && Object.keys(properties).length === 0;
      if ((strict || loose) && !annotation && !freeForm && !owned.has(pointerOf(childPath))) result.diagnostics.push(unknownKey(config, childPath, keyNode, Object.keys(properties), instance, strict, meta.keywordsOf ? meta : undefined));
      continue;
    }
    const site: PropertySite = {
      path: childPath,
      key,
      keyNode,
      valueNode,
      value: instance[key],
      schema: index.view(childSchema),
      parentSchema: view,
      parentStrict,
      siblings: instance,
    };
    const keyCheck = checkKey(config, site, underIgnored);
    if (keyCheck.diagnostics.length) result.diagnostics.push(...keyCheck.diagnostics);
    const valueCheck = checkValue(config, site);
    if (valueCheck.length) result.diagnostics.push(...valueCheck);
    if (valueCheck.length > 0 || site.value === 'auto') {
      const pointer = pointerOf(childPath);
      result.handledPointers.add(pointer);
      session?.noteHandled(pointer);
    }
    if (valueNode) walkValue(walk, valueNode, childPath, site.value, site.schema, underIgnored || keyCheck.ignored);
  }
}

/** Each key's last property among `children`. */
function lastIndexOfKeys(children: Node[]): Map<string, number> {
  const lastIndex = new Map<string, number>();
  children.forEach((property, i) => {
    const key = property.children?.[0]?.value;
    if (typeof key === 'string') lastIndex.set(key, i);
  });
  return lastIndex;
}

function walkValue(walk: Walk, node: Node, path: JSONPath, value: unknown, schema: SchemaNode, underIgnored: boolean): void {
  const index = schemaIndex();
  if (node.type === 'object') {
    walkObject(walk, node, path, value, schema, false, underIgnored);
  } else if (node.type === 'array') {
    const items = Array.isArray(value) ? value : [];
    (node.children ?? []).forEach((item, i) => {
      // Only containers have keys to check; long arrays of numbers cost nothing here.
      if (item.type !== 'object' && item.type !== 'array') return;
      const itemSchema = index.childOf(schema, i, value);
      if (itemSchema) walkValue(walk, item, [...path, i], items[i], itemSchema, underIgnored);
    });
  }
}
