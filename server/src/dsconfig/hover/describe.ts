import { withoutDeprecatedPrefix } from '../deprecatedPrefix';
import {
  acceptsAuto,
  docsOf,
  enumValuesOf,
  metaOf,
  parsedByPydantic,
  propertiesOf,
  proseOf,
  schemaForPath,
  typesOf,
  valueSchemaOf,
  type DeepSpeedMeta,
  type SchemaNode,
  type SchemaPath,
} from '../schemaIndex';
import { NodeMemo } from './memo';
import { listSeparator, translator, type Locale, type Translate } from '../../l10n';
import { markdownCode } from '../../util/markdown';

/**
 * Markdown that explains a key or a value from the schema, in the reader's language (the schema's
 * `-zh-cn` texts, the catalog for the words around them). Shared by hover and by the documentation
 * pane of completion items, so both always say the same thing.
 */

/** Who replaces `"auto"`, in words (`from` in the locale of `t`, English by default: Markdown with its identifiers in code spans). */
export function autoFiller(auto: NonNullable<DeepSpeedMeta['auto']>, t: Translate = translator('en'), locale: Locale = 'en'): string {
  const who =
    auto.by === 'hf' ? t('the Hugging Face Trainer') : auto.by === 'accelerate' ? 'accelerate' : auto.by === 'hf+accelerate' ? t('the Hugging Face Trainer or accelerate') : auto.by;
  const from = proseOf(auto, 'from', locale);
  return from ? t('{0}, from {1}', who, from) : who;
}

/** The ZeRO stage the config sets (absent = 0, as DeepSpeed defaults); undefined when it cannot be read. */
export function zeroStageOf(rootValue: unknown): number | undefined {
  if (!rootValue || typeof rootValue !== 'object' || Array.isArray(rootValue)) return undefined;
  const zero = (rootValue as Record<string, unknown>).zero_optimization;
  if (zero === undefined || zero === false) return 0;
  if (zero === true) return 1; // legacy boolean form
  if (!zero || typeof zero !== 'object') return undefined;
  const stage = (zero as Record<string, unknown>).stage;
  if (stage === undefined) return 0;
  const n = typeof stage === 'string' && /^\d+$/.test(stage) ? Number(stage) : stage;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 3 ? n : undefined;
}

/**
 * For a key under `elasticity` while the block is off: DeepSpeed reads it only when `elasticity.enabled` is
 * truthy in Python's sense (elasticity/elasticity.py:207-210, runtime/config.py:730-731), so neither the value
 * nor the default shown takes effect.
 */
function elasticityOffLine(path: SchemaPath, rootValue: unknown, t: Translate): string | undefined {
  if (path[0] !== 'elasticity' || path.length < 2 || path[1] === 'enabled') return undefined;
  const block = rootValue && typeof rootValue === 'object' ? (rootValue as Record<string, unknown>).elasticity : undefined;
  const enabled = block && typeof block === 'object' ? (block as Record<string, unknown>).enabled : undefined;
  const on = Array.isArray(enabled) ? enabled.length > 0 : enabled && typeof enabled === 'object' ? Object.keys(enabled).length > 0 : !!enabled;
  return on ? undefined : t('**Elasticity is off** (`elasticity.enabled` is not true): DeepSpeed ignores this block, so neither this value nor a default here takes effect.');
}

/** A value from the file as inline code, written as JSON. */
export function code(value: unknown): string {
  return markdownCode(JSON.stringify(value) ?? String(value));
}

/** `integer`, `boolean | null`, … from the schema (with "integer" flagged by x-deepspeed.integer). */
export function typeLabel(node: SchemaNode): string {
  const types = [...typesOf(node)];
  if (metaOf(node).integer && types.includes('number')) types.splice(types.indexOf('number'), 1, 'integer');
  return types.length ? types.join(' | ') : 'any';
}

export function defaultOf(node: SchemaNode): unknown {
  return node.default !== undefined ? node.default : valueSchemaOf(node).default;
}

/** `≥ 0`, `0 – 1`, … from minimum / maximum / exclusive bounds, looking through alternatives. */
export function rangeLabel(node: SchemaNode): string | undefined {
  const view = valueSchemaOf(node);
  const candidates = [view, ...[...(view.anyOf ?? []), ...(view.oneOf ?? [])].map(valueSchemaOf)];
  for (const n of candidates) {
    const low = n.minimum !== undefined ? `≥ ${n.minimum}` : n.exclusiveMinimum !== undefined ? `> ${n.exclusiveMinimum}` : undefined;
    const high = n.maximum !== undefined ? `≤ ${n.maximum}` : n.exclusiveMaximum !== undefined ? `< ${n.exclusiveMaximum}` : undefined;
    if (n.minimum !== undefined && n.maximum !== undefined) return `${n.minimum} – ${n.maximum}`;
    if (low || high) return [low, high].filter(Boolean).join(', ');
  }
  return undefined;
}

const details = new NodeMemo<string>();

/** One short line for a completion item's detail: type and default. */
export function detailOf(node: SchemaNode, locale: Locale = 'en'): string {
  return details.get(node, locale, () => buildDetail(node, translator(locale)));
}

function buildDetail(node: SchemaNode, t: Translate): string {
  const parts = [typeLabel(node)];
  const def = defaultOf(node);
  if (def !== undefined) parts.push(t('default {0}', JSON.stringify(def)));
  if (acceptsAuto(node) && metaOf(node).auto) parts.push(t('or "auto"'));
  return parts.join(' · ');
}

function stagesLine(meta: DeepSpeedMeta, stage: number | undefined, t: Translate): string | undefined {
  if (!meta.stages || meta.stages.length === 0) return undefined;
  const list = meta.stages.join(listSeparator(t));
  const applies = meta.stages.length === 1 ? t('Used only at ZeRO stage {0}.', list) : t('Used at ZeRO stages {0}.', list);
  if (stage !== undefined && !meta.stages.includes(stage)) {
    return t('{0} **Ignored at stage {1}**, the stage this file uses.', applies, stage);
  }
  return applies;
}

function aliasLine(path: SchemaPath, meta: DeepSpeedMeta, t: Translate): string | undefined {
  const key = path[path.length - 1];
  if (meta.aliasOf) return t('Short form of `{0}`; DeepSpeed accepts either spelling, not both.', meta.aliasOf);
  const parent = schemaForPath(path.slice(0, -1));
  if (!parent || typeof key !== 'string') return undefined;
  const short = Object.entries(propertiesOf(parent)).filter(([, sub]) => metaOf(sub).aliasOf === key).map(([name]) => `\`${name}\``);
  return short.length ? t('Also accepted as {0}; DeepSpeed accepts either spelling, not both.', short.join(listSeparator(t))) : undefined;
}

function allowedLine(node: SchemaNode, t: Translate): string | undefined {
  const values = enumValuesOf(node).map((e) => code(e.value));
  if (values.length) return t('Allowed: {0}', values.join(listSeparator(t)));
  const range = rangeLabel(node);
  return range ? t('Range: {0}', range) : undefined;
}

/** `**Deprecated.** why. Use `x` instead.` in the reader's language. */
function deprecatedLine(node: SchemaNode, meta: DeepSpeedMeta, locale: Locale, t: Translate): string {
  // The schema's message may open with "Deprecated:" itself; the line says it once.
  const why = withoutDeprecatedPrefix(proseOf(meta.deprecated, 'message', locale) ?? proseOf(node, 'deprecationMessage', locale) ?? '');
  const replacement = meta.deprecated?.replacement ? t('Use `{0}` instead.', meta.deprecated.replacement) : '';
  return [t('**Deprecated.**'), why, replacement].filter(Boolean).join(' ');
}

const keyDescriptions = new NodeMemo<string>();

/** Markdown for a key: what it does, type, default, allowed values, stages, "auto", alias, deprecation, docs. */
export function describeKey(path: SchemaPath, node: SchemaNode, rootValue: unknown, locale: Locale = 'en', defaultNote?: string): string {
  // Only the file's ZeRO stage is read from the document.
  const stage = zeroStageOf(rootValue);
  const t = translator(locale);
  const elasticityOff = elasticityOffLine(path, rootValue, t);
  // Only the heading names the whole path: the same key in each of a long config's groups shares the rest, whose
  // alias line reads the key and the siblings declared beside this node.
  // The key, the one part written in the file, goes last: no other part can run into it.
  const body = keyDescriptions.get(node, `${locale}\0${stage}\0${elasticityOff ? 1 : 0}\0${defaultNote ?? ''}\0${path[path.length - 1]}`, () =>
    buildKeyDescription(path, node, stage, elasticityOff, locale, defaultNote),
  );
  return `**${markdownCode(path.join('.'))}**\n\n${body}`;
}

function buildKeyDescription(path: SchemaPath, node: SchemaNode, stage: number | undefined, elasticityOff: string | undefined, locale: Locale, defaultNote?: string): string {
  const t = translator(locale);
  const meta = metaOf(node);
  const sections: string[] = [];
  const docs = docsOf(node, locale);
  if (docs) sections.push(docs);
  const facts = [t('Type: {0}', `\`${typeLabel(node)}\``)];
  const def = defaultOf(node);
  // A default that changed between DeepSpeed releases says which release it belongs to (deepspeedRelease.ts).
  if (defaultNote) facts.push(t('Default: {0}', defaultNote));
  else if (def !== undefined) facts.push(t('Default: {0}', code(def)));
  const allowed = allowedLine(node, t);
  if (allowed) facts.push(allowed);
  sections.push(facts.join(' · '));
  if (elasticityOff) sections.push(elasticityOff);
  const stages = stagesLine(meta, stage, t);
  if (stages) sections.push(stages);
  if (meta.auto) sections.push(t('`"auto"` accepted: filled by {0}.', autoFiller(meta.auto, t, locale)));
  const alias = aliasLine(path, meta, t);
  if (alias) sections.push(alias);
  if (meta.deprecated || node.deprecationMessage) sections.push(deprecatedLine(node, meta, locale, t));
  if (meta.docs && !docs?.includes(meta.docs)) sections.push(t('[DeepSpeed docs]({0})', meta.docs));
  return sections.join('\n\n');
}

/** DeepSpeed counts these sizes in elements (parameters), not bytes. */
const elementCountKey = /(bucket_size|max_live_parameters|buffer_size|max_in_cpu|sub_group_size|persistence_threshold|max_reuse_distance)$/;
const bufferKey = /(bucket_size|max_live_parameters|buffer_size|max_in_cpu|sub_group_size)$/;

export function formatCount(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : String(n);
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value >= 100 ? 0 : 2)} ${units[unit]}`;
}

function numberLine(key: string, n: number, written: string, t: Translate): string | undefined {
  const plain = formatCount(n);
  if (elementCountKey.test(key) && Number.isInteger(n) && n > 0) {
    return bufferKey.test(key) ? t('{0} elements ≈ {1} at 2 bytes per element (fp16/bf16).', plain, formatBytes(n * 2)) : t('{0} elements.', plain);
  }
  if (/e/i.test(written) || Math.abs(n) >= 10000) return `= ${plain}`;
  return undefined;
}

/**
 * Markdown for a value: what that enum value means, what "auto" becomes and who fills it, large numbers
 * in human form; followed by a short reminder of the key.
 */
export function describeValue(path: SchemaPath, node: SchemaNode, value: unknown, written: string, rootValue: unknown, locale: Locale = 'en'): string {
  // An array element's text also depends on the list's schema for this document: not cached.
  if (typeof path[path.length - 1] === 'number') return buildValueDescription(path, node, value, written, rootValue, locale);
  const stage = zeroStageOf(rootValue);
  const elasticityOff = !!elasticityOffLine(path, rootValue, translator(locale));
  return valueDescriptions.get(node, JSON.stringify([locale, stage, elasticityOff, path, value === undefined ? { undefined: true } : value, written]), () =>
    buildValueDescription(path, node, value, written, rootValue, locale),
  );
}

const valueDescriptions = new NodeMemo<string>();

function buildValueDescription(path: SchemaPath, node: SchemaNode, value: unknown, written: string, rootValue: unknown, locale: Locale): string {
  const t = translator(locale);
  const meta = metaOf(node);
  const key = String(path[path.length - 1] ?? '');
  const sections: string[] = [`**${markdownCode(path.join('.'))}** = ${code(value)}`];
  if (value === 'auto' && acceptsAuto(node) && !enumValuesOf(node).some((e) => e.value === 'auto')) {
    const def = defaultOf(node);
    if (meta.auto) sections.push(t('Filled in by {0} before DeepSpeed reads the config.', autoFiller(meta.auto, t, locale)));
    const parent = schemaForPath(path.slice(0, -1));
    if (parent && parsedByPydantic(parent)) {
      sections.push(
        def !== undefined
          ? t('If nothing fills it, DeepSpeed drops the `"auto"` and uses the default {0}.', code(def))
          : t('If nothing fills it, DeepSpeed drops the `"auto"` and uses the default.'),
      );
    } else {
      sections.push(t('If nothing fills it, DeepSpeed receives the literal string `"auto"` and fails.'));
    }
  } else if (value === 'auto' && !acceptsAuto(node)) {
    sections.push(t('`"auto"` is not accepted here: no tool fills this key.'));
  } else {
    const match = enumValuesOf(node, locale).find((e) => e.value === value || (typeof value === 'string' && e.value === Number(value)));
    if (match?.description) sections.push(match.description);
    if (typeof value === 'number') {
      const line = numberLine(key, value, written, t);
      if (line) sections.push(line);
    }
    const def = defaultOf(node);
    if (def !== undefined && def === value) sections.push(t('This is the default.'));
  }
  const known = enumValuesOf(node);
  const isKnown = (e: { value: unknown }) => e.value === value || (meta.caseInsensitive === true && typeof value === 'string' && e.value === value.toLowerCase());
  if (meta.fallback !== undefined && known.length > 0 && !known.some(isKnown)) {
    sections.push(t('DeepSpeed does not know this value and uses {0} instead.', code(meta.fallback)));
  }
  // An array element has no docs of its own: explain the list it belongs to.
  const owner = typeof path[path.length - 1] === 'number' ? schemaForPath(path.slice(0, -1), rootValue) : undefined;
  const docs = docsOf(node, locale) ?? (owner && docsOf(owner, locale));
  if (docs) sections.push(firstParagraph(docs));
  const stages = stagesLine(meta, zeroStageOf(rootValue), t);
  if (stages) sections.push(stages);
  const elasticityOff = elasticityOffLine(path, rootValue, t);
  if (elasticityOff) sections.push(elasticityOff);
  if (meta.docs && !docs?.includes(meta.docs)) sections.push(t('[DeepSpeed docs]({0})', meta.docs));
  return sections.join('\n\n');
}

function firstParagraph(markdown: string): string {
  return markdown.split(/\n\s*\n/)[0];
}
