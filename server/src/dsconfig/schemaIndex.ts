import schemaJson from '../../../schemas/ds_config.schema.json';
import { localizedField, localizedList, type Locale } from '../l10n';
import { sameItems } from '../util/sameItems';

/**
 * Read access to `schemas/ds_config.schema.json` for completion, hover, validation and quick fixes.
 * Every accessor answers with a *resolved view*: local `$ref`s followed (sibling keywords such as
 * `markdownDescription` kept, as VS Code does), and the `anyOf: [<real>, {const: "auto"}]` wrapper
 * unwrapped to the real branch while remembering that "auto" is accepted. Views are cached per schema
 * node, so the per-keystroke features never walk `$ref` chains twice.
 *
 * Every prose field has its Chinese beside it, `<field>-zh-cn` (`markdownDescription-zh-cn` next to
 * `markdownDescription`, in `x-deepspeed` too); `docsOf`, `enumValuesOf` and `proseOf` answer in a locale.
 */

/** A JSON-schema node. Only the keywords ZeRO Lens reads are named; anything else passes through. */
export interface SchemaNode {
  [keyword: string]: unknown;
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode | SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  if?: SchemaNode;
  then?: SchemaNode;
  else?: SchemaNode;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  markdownDescription?: string;
  enumDescriptions?: string[];
  markdownEnumDescriptions?: string[];
  deprecationMessage?: string;
  defaultSnippets?: DefaultSnippet[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  required?: string[];
  'x-deepspeed'?: DeepSpeedMeta;
}

/** VS Code's `defaultSnippets` entry: `body` is a JSON value whose strings may hold `${1:x}` placeholders. */
export interface DefaultSnippet {
  label?: string;
  description?: string;
  markdownDescription?: string;
  body?: unknown;
  bodyText?: string;
}

/** The schema's `x-deepspeed` keyword: what DeepSpeed does with a key, beyond its JSON type. */
export interface DeepSpeedMeta {
  /** The DeepSpeed documentation page for the key. */
  docs?: string;
  /** The ZeRO stages that read the key (absent: all). */
  stages?: number[];
  /** Who fills `"auto"` (hf, accelerate) and from what. */
  auto?: { by: string; from?: string };
  /** The key is another name for this one. */
  aliasOf?: string;
  deprecated?: { replacement: string | null; message: string };
  /**
   * An object's unknown keys: DeepSpeed refuses them (error), ignores them (warning), or hands them to code
   * whose accepted names ZeRO Lens cannot know (allow: a torch.optim class, which varies with torch's version).
   */
  unknownKeys?: 'error' | 'warning' | 'allow';
  /**
   * The object's keys are keyword arguments of this constructor (`WarmupLR(optimizer, **params)`): a key it
   * does not take raises a TypeError when DeepSpeed builds it, and an unfilled `"auto"` reaches it as text.
   */
  keywordsOf?: string;
  /** A number that must be a whole number (DeepSpeed checks the Python type). */
  integer?: boolean;
  /**
   * DeepSpeed tests isinstance(value, int) and raises: 1000.0 is refused too. DeepSpeed's own loader turns `1e3`
   * into an int, but json.load (the HF Trainer, accelerate) gives a float. The line that raises, `path#Lline` in
   * DeepSpeed at the schema's commit.
   */
  exactInt?: string;
  /**
   * DeepSpeed tests isinstance(value, bool) and raises on anything else, where it reads the section (an
   * "enabled" section only when enabled): the line, `path#Lline` in DeepSpeed at the schema's commit.
   */
  exactBool?: string;
  /** A value outside `enum` is not refused: DeepSpeed uses this value instead (warmup_type also logs a warning). */
  fallback?: unknown;
  /** DeepSpeed lower-cases the text before it compares it with the allowed values (`enum` lists them in lower case). */
  caseInsensitive?: boolean;
  /**
   * DeepSpeed never checks the schema's minimum/maximum here: what a value outside them does instead
   * ("prints no modules"). Such a value is a warning, not an error.
   */
  uncheckedBounds?: string;
  /**
   * DeepSpeed refuses a value outside the schema's minimum/maximum when it reads the config or builds the engine:
   * the line that raises, `path#Lline` in DeepSpeed at the schema's commit; per keyword where two bounds of the key
   * fail at different lines. Every bound has this or `uncheckedBounds` (test/unit/dsconfig-bounds.test.ts).
   */
  boundRaises?: string | Partial<Record<BoundKeyword, string>>;
  /**
   * Values outside a bound DeepSpeed does not check that fail all the same, each with the line that raises: an
   * error for these values, the `uncheckedBounds` warning for the rest (steps_per_print 0 divides by zero at the
   * first optimizer step; a negative value runs).
   */
  valueRaises?: Record<string, string>;
  /** DeepSpeed never checks the value against `enum`: what another value does. Such a value is a warning. */
  uncheckedEnum?: string;
}

/** The JSON Schema keywords of a numeric bound. */
export type BoundKeyword = 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum';

/** One allowed value with its (markdown) description. */
export interface EnumValue {
  value: unknown;
  description?: string;
}

/** JSON path inside a config: object keys and array indexes. */
export type SchemaPath = (string | number)[];

const acceptsAutoMark = Symbol('acceptsAuto');
type View = SchemaNode & { [acceptsAutoMark]?: boolean };

const emptyNode: SchemaNode = Object.freeze({}) as SchemaNode;

function isNode(value: unknown): value is SchemaNode {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isAutoBranch(node: SchemaNode): boolean {
  return node.const === 'auto' || (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === 'auto');
}

/** Builds and caches the resolved views of one schema document. */
export class SchemaIndex {
  private readonly views = new WeakMap<SchemaNode, View>();
  private readonly propertyCache = new WeakMap<SchemaNode, Record<string, SchemaNode>>();
  private readonly canonicalCache = new WeakMap<SchemaNode, Map<string, string>>();
  private readonly branchPropertyCache = new WeakMap<SchemaNode, { parts: View[]; properties: Record<string, SchemaNode> }[]>();
  /** null: the node has conditional parts. */
  private readonly fixedPartsCache = new WeakMap<SchemaNode, View[] | null>();
  private readonly typesCache = new WeakMap<SchemaNode, readonly string[]>();
  /**
   * Schemas by path, per parsed document value: hover, completion and the checks ask the same paths of one version,
   * and a path under a conditional schema (`optimizer.params` by `type`) evaluates every branch's condition. Each
   * version has a new root object (an edit copies the objects around it), so an entry never outlives its version.
   */
  private readonly pathCache = new WeakMap<object, Map<string, SchemaNode | null>>();

  constructor(readonly root: SchemaNode) {}

  /** Follows a local JSON pointer such as `#/definitions/offload`. */
  private pointer(ref: string): SchemaNode | undefined {
    if (!ref.startsWith('#')) return undefined;
    let node: unknown = this.root;
    for (const raw of ref.slice(1).split('/').filter((s) => s.length > 0)) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isNode(node)) return undefined;
      node = node[segment];
    }
    return isNode(node) ? node : undefined;
  }

  /** `$ref` followed (siblings win over the target) and the "auto" alternative unwrapped. */
  view(node: SchemaNode): View {
    const cached = this.views.get(node);
    if (cached) return cached;
    this.views.set(node, node); // guards against $ref cycles while resolving
    const result = this.computeView(node, 0);
    this.views.set(node, result);
    return result;
  }

  private computeView(node: SchemaNode, depth: number): View {
    let current: View = node;
    // Follow `$ref` chains, keeping the referring node's own keywords (docs, x-deepspeed, default).
    for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
      const target = this.pointer(current.$ref);
      const { $ref: _ref, ...siblings } = current;
      current = target ? { ...target, ...siblings } : siblings;
    }
    const alternatives = current.anyOf ?? current.oneOf;
    if (Array.isArray(alternatives) && alternatives.some(isAutoBranch) && depth < 8) {
      const real = alternatives.filter((branch) => !isAutoBranch(branch));
      const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = current;
      const inner: View =
        real.length === 1 ? this.computeView(real[0], depth + 1) : real.length === 0 ? emptyNode : { anyOf: real };
      const merged: View = { ...inner, ...outer };
      merged[acceptsAutoMark] = true;
      return merged;
    }
    return current;
  }

  /**
   * parts() of a node, cached when no part has an if/then/else (then the instance cannot change the answer);
   * undefined for conditional nodes, whose parts depend on the value.
   */
  private fixedParts(node: SchemaNode): View[] | undefined {
    let parts = this.fixedPartsCache.get(node);
    if (parts === undefined) {
      const all = this.parts(node, undefined);
      parts = all.some((part) => part.if && (part.then || part.else)) ? null : all;
      this.fixedPartsCache.set(node, parts);
    }
    return parts ?? undefined;
  }

  private partsFor(node: SchemaNode, instance: unknown): View[] {
    return this.fixedParts(node) ?? this.parts(node, instance);
  }

  /** Everything a node says, including its allOf / anyOf / oneOf / if-then-else parts (depth-first, resolved). */
  private parts(node: SchemaNode, instance: unknown, out: View[] = [], depth = 0): View[] {
    const view = this.view(node);
    out.push(view);
    if (depth > 16) return out;
    for (const sub of view.allOf ?? []) this.parts(sub, instance, out, depth + 1);
    for (const sub of view.anyOf ?? []) if (!isAutoBranch(sub)) this.parts(sub, instance, out, depth + 1);
    for (const sub of view.oneOf ?? []) if (!isAutoBranch(sub)) this.parts(sub, instance, out, depth + 1);
    if (view.if && (view.then || view.else)) {
      // With the value at hand, take the branch it selects; without it, offer both.
      const verdict = instance === undefined ? undefined : this.matchesCondition(view.if, instance);
      if (view.then && verdict !== false) this.parts(view.then, instance, out, depth + 1);
      if (view.else && verdict !== true) this.parts(view.else, instance, out, depth + 1);
    }
    return out;
  }

  /** A small evaluator for the `if` conditions schemas use here: `properties` with `const` / `enum` / `pattern`. */
  private matchesCondition(condition: SchemaNode, instance: unknown): boolean | undefined {
    const view = this.view(condition);
    if (view.const !== undefined) return view.const === instance;
    if (Array.isArray(view.enum)) return view.enum.includes(instance);
    if (typeof view.pattern === 'string' && typeof instance === 'string') return compiledPattern(view.pattern, '')?.test(instance);
    if (view.properties) {
      if (!isNode(instance)) return false;
      // Walked with for-in, not Object.entries: conditional schemas evaluate several of these per lookup.
      for (const key in view.properties) {
        if (!(key in instance)) {
          if (view.required?.includes(key)) return false;
          continue;
        }
        const verdict = this.matchesCondition(view.properties[key], (instance as Record<string, unknown>)[key]);
        if (verdict !== true) return verdict;
      }
      return true;
    }
    if (Array.isArray(view.required) && isNode(instance)) return view.required.every((k) => k in instance);
    return undefined;
  }

  /** The declared properties of an object schema (resolved views), merged over its combinators. */
  propertiesOf(node: SchemaNode, instance?: unknown): Record<string, SchemaNode> {
    if (instance !== undefined && this.fixedParts(node) === undefined) return this.propertiesOfBranches(node, this.parts(node, instance));
    let result = this.propertyCache.get(node);
    if (!result) {
      result = this.mergedProperties(this.partsFor(node, instance));
      this.propertyCache.set(node, result);
    }
    return result;
  }

  /**
   * A conditional node's properties for the branches the value selected. Values differ from keystroke to
   * keystroke but select the same few branch combinations, so each combination is merged once.
   */
  private propertiesOfBranches(node: SchemaNode, parts: View[]): Record<string, SchemaNode> {
    let seen = this.branchPropertyCache.get(node);
    const hit = seen?.find((entry) => sameItems(entry.parts, parts));
    if (hit) return hit.properties;
    const properties = this.mergedProperties(parts);
    if (!seen) this.branchPropertyCache.set(node, (seen = []));
    if (seen.length < maxBranchSelections) seen.push({ parts, properties });
    return properties;
  }

  /** Properties declared across parts; a later part may only add keywords (a `then` narrowing `params`), earlier docs win. */
  private mergedProperties(parts: View[]): Record<string, SchemaNode> {
    const result: Record<string, SchemaNode> = {};
    for (const part of parts) {
      for (const [key, sub] of Object.entries(part.properties ?? {})) {
        const resolved = this.view(sub);
        result[key] = key in result ? mergeViews(result[key], resolved) : resolved;
      }
    }
    return result;
  }

  /** The schema of `key` inside an object schema: declared property, pattern property, or additionalProperties. */
  childOf(node: SchemaNode, segment: string | number, instance?: unknown): SchemaNode | undefined {
    if (typeof segment === 'number') {
      for (const part of this.partsFor(node, instance)) {
        if (Array.isArray(part.items)) return part.items[segment] ? this.view(part.items[segment]) : undefined;
        if (isNode(part.items)) return this.view(part.items);
      }
      return undefined;
    }
    const declared = this.propertiesOf(node, instance)[segment];
    if (declared) return declared;
    for (const part of this.partsFor(node, instance)) {
      for (const [pattern, sub] of Object.entries(part.patternProperties ?? {})) {
        if (safeTest(pattern, segment)) return this.view(sub);
      }
    }
    for (const part of this.partsFor(node, instance)) {
      if (isNode(part.additionalProperties)) return this.view(part.additionalProperties);
    }
    return undefined;
  }

  /**
   * Schema at a JSON path. `rootValue` (the parsed document) lets conditionals pick their branch, e.g.
   * `optimizer.params` for `"type": "AdamW"`.
   */
  schemaForPath(path: SchemaPath, rootValue?: unknown): SchemaNode | undefined {
    if (rootValue === null || typeof rootValue !== 'object') return this.walkPath(path, rootValue);
    let byPath = this.pathCache.get(rootValue);
    if (!byPath) this.pathCache.set(rootValue, (byPath = new Map()));
    const key = JSON.stringify(path);
    const known = byPath.get(key);
    if (known !== undefined) return known ?? undefined;
    const found = this.walkPath(path, rootValue);
    byPath.set(key, found ?? null);
    return found;
  }

  private walkPath(path: SchemaPath, rootValue: unknown): SchemaNode | undefined {
    let node: SchemaNode = this.view(this.root);
    let instance = rootValue;
    for (const segment of path) {
      const child = this.childOf(node, segment, instance);
      if (!child) return undefined;
      node = child;
      instance = instance !== undefined && instance !== null && typeof instance === 'object' ? (instance as Record<string | number, unknown>)[segment] : undefined;
    }
    return node;
  }

  /** key → canonical key for one object schema (identity for canonical names, long form for short aliases). */
  canonicalNames(node: SchemaNode): Map<string, string> {
    const hit = this.canonicalCache.get(node);
    if (hit) return hit;
    const names = new Map<string, string>();
    for (const [key, sub] of Object.entries(this.propertiesOf(node))) names.set(key, metaOf(sub).aliasOf ?? key);
    this.canonicalCache.set(node, names);
    return names;
  }

  /** All spellings of the same field inside an object schema: canonical first, then its aliases. */
  aliasGroup(node: SchemaNode, key: string): string[] {
    const names = this.canonicalNames(node);
    const canonical = names.get(key) ?? key;
    const group = [canonical];
    for (const [name, target] of names) if (target === canonical && name !== canonical) group.push(name);
    return group;
  }

  /** The JSON types a value may have here (from `type`, `enum`/`const` and the non-auto alternatives). */
  typesOf(node: SchemaNode): readonly string[] {
    // Asked for every key on every validation (value checks): schema nodes never change, so once per node.
    const cached = this.typesCache.get(node);
    if (cached) return cached;
    const types = new Set<string>();
    const visit = (n: SchemaNode, depth: number): void => {
      const view = this.view(n);
      if (typeof view.type === 'string') types.add(view.type);
      else if (Array.isArray(view.type)) view.type.forEach((t) => types.add(t));
      else if (view.const !== undefined && !isAutoBranch(view)) types.add(jsonTypeOf(view.const));
      else if (Array.isArray(view.enum)) view.enum.filter((e) => e !== 'auto').forEach((e) => types.add(jsonTypeOf(e)));
      if (depth < 8) for (const sub of [...(view.anyOf ?? []), ...(view.oneOf ?? [])]) if (!isAutoBranch(sub) && !sub.deprecationMessage) visit(sub, depth + 1);
    };
    visit(node, 0);
    if (types.has('integer') && types.has('number')) types.delete('integer');
    const result = Object.freeze([...types]);
    this.typesCache.set(node, result);
    return result;
  }

  /** The enum values of a node and of its non-auto alternatives, with their descriptions in `locale` (English by default). */
  enumValuesOf(node: SchemaNode, locale?: Locale): EnumValue[] {
    const out: EnumValue[] = [];
    const visit = (n: SchemaNode, depth: number): void => {
      const view = this.view(n);
      if (Array.isArray(view.enum)) {
        const docs = localizedList(view, 'markdownEnumDescriptions', locale) ?? localizedList(view, 'enumDescriptions', locale) ?? [];
        view.enum.forEach((value, i) => {
          if (value !== 'auto' && !out.some((o) => o.value === value)) out.push({ value, description: docs[i] });
        });
      } else if (view.const !== undefined && !isAutoBranch(view) && !out.some((o) => o.value === view.const)) {
        out.push({ value: view.const, description: docsOf(view, locale) });
      }
      if (depth < 8) for (const sub of [...(view.anyOf ?? []), ...(view.oneOf ?? [])]) if (!isAutoBranch(sub)) visit(sub, depth + 1);
    };
    visit(node, 0);
    return out;
  }

  /** The `defaultSnippets` of a node and of its non-auto alternatives. */
  defaultSnippetsOf(node: SchemaNode): DefaultSnippet[] {
    const out: DefaultSnippet[] = [];
    const visit = (n: SchemaNode, depth: number): void => {
      const view = this.view(n);
      if (Array.isArray(view.defaultSnippets)) out.push(...view.defaultSnippets);
      if (depth < 4) for (const sub of [...(view.anyOf ?? []), ...(view.oneOf ?? []), ...(view.allOf ?? [])]) visit(sub, depth + 1);
    };
    visit(node, 0);
    return out;
  }
}

/** Branch combinations remembered per conditional node; a schema with more would be unusual. */
const maxBranchSelections = 16;

function mergeViews(first: View, second: View): View {
  const merged: View = { ...second, ...first };
  // The same rule inside x-deepspeed: a `then` narrowing `params` adds what its constructor takes (keywordsOf),
  // except that what happens to unknown keys is the narrowed object's to say (a torch class allows any).
  if (isNode(first['x-deepspeed']) && isNode(second['x-deepspeed'])) {
    const narrowed = second['x-deepspeed'].unknownKeys;
    merged['x-deepspeed'] = { ...second['x-deepspeed'], ...first['x-deepspeed'], ...(narrowed ? { unknownKeys: narrowed } : {}) };
  }
  if (first[acceptsAutoMark] || second[acceptsAutoMark]) merged[acceptsAutoMark] = true;
  if (first.properties && second.properties) merged.properties = { ...second.properties, ...first.properties };
  return merged;
}

function safeTest(pattern: string, value: string): boolean {
  return compiledPattern(pattern, 'u')?.test(value) ?? false;
}

/**
 * Compiled schema patterns (null: not a valid pattern), one map per flag set so that the schema's own strings,
 * whose hashes V8 keeps, are the keys. A schema has a few dozen patterns; hover and completion ask often.
 */
const patterns = { '': new Map<string, RegExp | null>(), u: new Map<string, RegExp | null>() };

function compiledPattern(pattern: string, flags: '' | 'u'): RegExp | undefined {
  const cache = patterns[flags];
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern, flags);
    } catch {
      compiled = null;
    }
    cache.set(pattern, compiled);
  }
  return compiled ?? undefined;
}

let defaultIndex: SchemaIndex | undefined;

/** The index of the bundled ds_config schema (built on first use). */
export function schemaIndex(): SchemaIndex {
  defaultIndex ??= new SchemaIndex(schemaJson as unknown as SchemaNode);
  return defaultIndex;
}

export function rootSchema(): SchemaNode {
  return schemaIndex().view(schemaIndex().root);
}

export function schemaForPath(path: SchemaPath, rootValue?: unknown): SchemaNode | undefined {
  return schemaIndex().schemaForPath(path, rootValue);
}

export function propertiesOf(node: SchemaNode, instance?: unknown): Record<string, SchemaNode> {
  return schemaIndex().propertiesOf(node, instance);
}

/** The node's `x-deepspeed` keyword (empty when absent). */
/** Shared by every node without `x-deepspeed`: validation asks each key of every keystroke's config. */
const noMeta: DeepSpeedMeta = Object.freeze({});

export function metaOf(node: SchemaNode): DeepSpeedMeta {
  const meta = node['x-deepspeed'];
  return isNode(meta) ? (meta as DeepSpeedMeta) : noMeta;
}

/** `additionalProperties: false` on the object or on the object alternative of an anyOf/oneOf/allOf. */
function closedObject(view: SchemaNode, depth = 0): boolean {
  if (view.additionalProperties === false) return true;
  if (depth > 4) return false;
  const index = schemaIndex();
  const closedBranch = (branch: SchemaNode): boolean => {
    const b = index.view(branch);
    const objectType = typeof b.type === 'string' ? b.type === 'object' : (b.type?.includes('object') ?? true);
    return objectType && closedObject(b, depth + 1);
  };
  // Each list in turn rather than one spread copy: this runs for every object of every keystroke's config.
  return !!(view.anyOf?.some(closedBranch) || view.oneOf?.some(closedBranch) || view.allOf?.some(closedBranch));
}

/** Whether DeepSpeed refuses unknown keys in this object: a pydantic model, or a closed set of constructor arguments. */
export function refusesUnknownKeys(view: SchemaNode): boolean {
  return metaOf(view).unknownKeys === 'error' || closedObject(view);
}

/**
 * Whether DeepSpeed parses this object with pydantic: unknown keys refused, an unfilled "auto" dropped, numbers
 * in strings parsed. Constructor keyword arguments refuse unknown keys too, but take values as they are written.
 */
export function parsedByPydantic(view: SchemaNode, refuses = refusesUnknownKeys(view)): boolean {
  return refuses && !metaOf(view).keywordsOf;
}

/** Whether the literal string "auto" is a legal value here (and, with x-deepspeed.auto, who fills it). */
export function acceptsAuto(node: SchemaNode): boolean {
  if ((node as View)[acceptsAutoMark] || metaOf(node).auto) return true;
  if (Array.isArray(node.enum) && node.enum.includes('auto')) return true;
  return [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some(isAutoBranch);
}

/** The schema of the value other than "auto" (the node itself when "auto" is not an alternative). */
export function valueSchemaOf(node: SchemaNode): SchemaNode {
  return schemaIndex().view(node);
}

/** Markdown documentation of a node: markdownDescription, else description; in `locale` (English by default). */
export function docsOf(node: SchemaNode, locale?: Locale): string | undefined {
  return localizedField(node, 'markdownDescription', locale) ?? localizedField(node, 'description', locale);
}

/**
 * Any prose field of a schema object (a node, its `x-deepspeed`, a `defaultSnippets` entry) in `locale`:
 * `<field>-<locale>` beside the English, the English where there is none.
 */
export function proseOf<T extends object>(record: T | undefined, field: string, locale?: Locale): string | undefined {
  return record ? localizedField(record, field, locale) : undefined;
}

export function typesOf(node: SchemaNode): readonly string[] {
  return schemaIndex().typesOf(node);
}

export function enumValuesOf(node: SchemaNode, locale?: Locale): EnumValue[] {
  return schemaIndex().enumValuesOf(node, locale);
}

export function defaultSnippetsOf(node: SchemaNode): DefaultSnippet[] {
  return schemaIndex().defaultSnippetsOf(node);
}

/** Long and short spellings of the same field inside the object at `objectPath`. */
export function aliasGroup(objectPath: SchemaPath, key: string): string[] {
  const node = schemaForPath(objectPath);
  return node ? schemaIndex().aliasGroup(node, key) : [key];
}

/** The canonical (long) name of `key` inside the object schema `node`. */
export function canonicalKey(node: SchemaNode, key: string): string {
  return schemaIndex().canonicalNames(node).get(key) ?? key;
}

/** The JSON-schema type of a value (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
