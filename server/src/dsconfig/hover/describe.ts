import {
  acceptsAuto,
  docsOf,
  enumValuesOf,
  metaOf,
  parsedByPydantic,
  propertiesOf,
  schemaForPath,
  typesOf,
  valueSchemaOf,
  type DeepSpeedMeta,
  type SchemaNode,
  type SchemaPath,
} from '../schemaIndex';
import { NodeMemo } from './memo';
import { markdownCode } from '../../util/markdown';

/**
 * Markdown that explains a key or a value from the schema. Shared by hover and by the documentation
 * pane of completion items, so both always say the same thing.
 */

/** Who replaces `"auto"`, in words. */
export function autoFiller(auto: NonNullable<DeepSpeedMeta['auto']>): string {
  const tools: Record<string, string> = {
    hf: 'the Hugging Face Trainer',
    accelerate: 'accelerate',
    'hf+accelerate': 'the Hugging Face Trainer or accelerate',
  };
  const who = tools[auto.by] ?? auto.by;
  return auto.from ? `${who}, from \`${auto.from}\`` : who;
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
function elasticityOffLine(path: SchemaPath, rootValue: unknown): string | undefined {
  if (path[0] !== 'elasticity' || path.length < 2 || path[1] === 'enabled') return undefined;
  const block = rootValue && typeof rootValue === 'object' ? (rootValue as Record<string, unknown>).elasticity : undefined;
  const enabled = block && typeof block === 'object' ? (block as Record<string, unknown>).enabled : undefined;
  const on = Array.isArray(enabled) ? enabled.length > 0 : enabled && typeof enabled === 'object' ? Object.keys(enabled).length > 0 : !!enabled;
  return on ? undefined : '**Elasticity is off** (`elasticity.enabled` is not true): DeepSpeed ignores this block, so neither this value nor a default here takes effect.';
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
export function detailOf(node: SchemaNode): string {
  return details.get(node, '', () => buildDetail(node));
}

function buildDetail(node: SchemaNode): string {
  const parts = [typeLabel(node)];
  const def = defaultOf(node);
  if (def !== undefined) parts.push(`default ${JSON.stringify(def)}`);
  if (acceptsAuto(node) && metaOf(node).auto) parts.push('or "auto"');
  return parts.join(' · ');
}

function stagesLine(meta: DeepSpeedMeta, stage: number | undefined): string | undefined {
  if (!meta.stages || meta.stages.length === 0) return undefined;
  const list = meta.stages.join(', ');
  const applies = meta.stages.length === 1 ? `Used only at ZeRO stage ${list}.` : `Used at ZeRO stages ${list}.`;
  if (stage !== undefined && !meta.stages.includes(stage)) {
    return `${applies} **Ignored at stage ${stage}**, the stage this file uses.`;
  }
  return applies;
}

function aliasLine(path: SchemaPath, meta: DeepSpeedMeta): string | undefined {
  const key = path[path.length - 1];
  if (meta.aliasOf) return `Short form of \`${meta.aliasOf}\`; DeepSpeed accepts either spelling, not both.`;
  const parent = schemaForPath(path.slice(0, -1));
  if (!parent || typeof key !== 'string') return undefined;
  const short = Object.entries(propertiesOf(parent)).filter(([, sub]) => metaOf(sub).aliasOf === key).map(([name]) => `\`${name}\``);
  return short.length ? `Also accepted as ${short.join(', ')}; DeepSpeed accepts either spelling, not both.` : undefined;
}

function allowedLine(node: SchemaNode): string | undefined {
  const values = enumValuesOf(node).map((e) => code(e.value));
  if (values.length) return `Allowed: ${values.join(', ')}`;
  const range = rangeLabel(node);
  return range ? `Range: ${range}` : undefined;
}

const keyDescriptions = new NodeMemo<string>();

/** Markdown for a key: what it does, type, default, allowed values, stages, "auto", alias, deprecation, docs. */
export function describeKey(path: SchemaPath, node: SchemaNode, rootValue: unknown): string {
  // Only the file's ZeRO stage is read from the document.
  const stage = zeroStageOf(rootValue);
  const elasticityOff = elasticityOffLine(path, rootValue);
  return keyDescriptions.get(node, JSON.stringify([stage, path, !!elasticityOff]), () => buildKeyDescription(path, node, stage, elasticityOff));
}

function buildKeyDescription(path: SchemaPath, node: SchemaNode, stage: number | undefined, elasticityOff: string | undefined): string {
  const meta = metaOf(node);
  const sections: string[] = [];
  sections.push(`**${markdownCode(path.join('.'))}**`);
  const docs = docsOf(node);
  if (docs) sections.push(docs);
  const facts = [`Type: \`${typeLabel(node)}\``];
  const def = defaultOf(node);
  if (def !== undefined) facts.push(`Default: ${code(def)}`);
  const allowed = allowedLine(node);
  if (allowed) facts.push(allowed);
  sections.push(facts.join(' · '));
  if (elasticityOff) sections.push(elasticityOff);
  const stages = stagesLine(meta, stage);
  if (stages) sections.push(stages);
  if (meta.auto) sections.push(`\`"auto"\` accepted: filled by ${autoFiller(meta.auto)}.`);
  const alias = aliasLine(path, meta);
  if (alias) sections.push(alias);
  if (meta.deprecated || node.deprecationMessage) {
    const replacement = meta.deprecated?.replacement ? ` Use \`${meta.deprecated.replacement}\` instead.` : '';
    sections.push(`**Deprecated.** ${meta.deprecated?.message ?? node.deprecationMessage ?? ''}${replacement}`.trim());
  }
  if (meta.docs && !docs?.includes(meta.docs)) sections.push(`[DeepSpeed docs](${meta.docs})`);
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

function numberLine(key: string, n: number, written: string): string | undefined {
  const plain = formatCount(n);
  if (elementCountKey.test(key) && Number.isInteger(n) && n > 0) {
    const bytes = bufferKey.test(key) ? ` ≈ ${formatBytes(n * 2)} at 2 bytes per element (fp16/bf16)` : '';
    return `${plain} elements${bytes}.`;
  }
  if (/e/i.test(written) || Math.abs(n) >= 10000) return `= ${plain}`;
  return undefined;
}

/**
 * Markdown for a value: what that enum value means, what "auto" becomes and who fills it, large numbers
 * in human form; followed by a short reminder of the key.
 */
export function describeValue(path: SchemaPath, node: SchemaNode, value: unknown, written: string, rootValue: unknown): string {
  // An array element's text also depends on the list's schema for this document: not cached.
  if (typeof path[path.length - 1] === 'number') return buildValueDescription(path, node, value, written, rootValue);
  const stage = zeroStageOf(rootValue);
  const elasticityOff = !!elasticityOffLine(path, rootValue);
  return valueDescriptions.get(node, JSON.stringify([stage, elasticityOff, path, value === undefined ? { undefined: true } : value, written]), () => buildValueDescription(path, node, value, written, rootValue));
}

const valueDescriptions = new NodeMemo<string>();

function buildValueDescription(path: SchemaPath, node: SchemaNode, value: unknown, written: string, rootValue: unknown): string {
  const meta = metaOf(node);
  const key = String(path[path.length - 1] ?? '');
  const sections: string[] = [`**${markdownCode(path.join('.'))}** = ${code(value)}`];
  if (value === 'auto' && acceptsAuto(node) && !enumValuesOf(node).some((e) => e.value === 'auto')) {
    const def = defaultOf(node);
    if (meta.auto) sections.push(`Filled in by ${autoFiller(meta.auto)} before DeepSpeed reads the config.`);
    const parent = schemaForPath(path.slice(0, -1));
    if (parent && parsedByPydantic(parent)) {
      sections.push(`If nothing fills it, DeepSpeed drops the \`"auto"\` and uses the default${def !== undefined ? ` ${code(def)}` : ''}.`);
    } else {
      sections.push('If nothing fills it, DeepSpeed receives the literal string `"auto"` and fails.');
    }
  } else if (value === 'auto' && !acceptsAuto(node)) {
    sections.push('`"auto"` is not accepted here: no tool fills this key.');
  } else {
    const match = enumValuesOf(node).find((e) => e.value === value || (typeof value === 'string' && e.value === Number(value)));
    if (match?.description) sections.push(match.description);
    if (typeof value === 'number') {
      const line = numberLine(key, value, written);
      if (line) sections.push(line);
    }
    const def = defaultOf(node);
    if (def !== undefined && def === value) sections.push('This is the default.');
  }
  const known = enumValuesOf(node);
  const isKnown = (e: { value: unknown }) => e.value === value || (meta.caseInsensitive === true && typeof value === 'string' && e.value === value.toLowerCase());
  if (meta.fallback !== undefined && known.length > 0 && !known.some(isKnown)) {
    sections.push(`DeepSpeed does not know this value and uses ${code(meta.fallback)} instead.`);
  }
  // An array element has no docs of its own: explain the list it belongs to.
  const owner = typeof path[path.length - 1] === 'number' ? schemaForPath(path.slice(0, -1), rootValue) : undefined;
  const docs = docsOf(node) ?? (owner && docsOf(owner));
  if (docs) sections.push(firstParagraph(docs));
  const stages = stagesLine(meta, zeroStageOf(rootValue));
  if (stages) sections.push(stages);
  const elasticityOff = elasticityOffLine(path, rootValue);
  if (elasticityOff) sections.push(elasticityOff);
  if (meta.docs && !docs?.includes(meta.docs)) sections.push(`[DeepSpeed docs](${meta.docs})`);
  return sections.join('\n\n');
}

function firstParagraph(markdown: string): string {
  return markdown.split(/\n\s*\n/)[0];
}
