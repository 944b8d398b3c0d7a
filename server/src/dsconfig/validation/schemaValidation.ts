import type { ErrorObject } from 'ajv';
import type { JSONPath } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { acceptsAuto, jsonTypeOf, metaOf, schemaForPath, schemaIndex, type DeepSpeedMeta, type SchemaNode } from '../schemaIndex';
import { showPath, showValue, type ConfigView } from './configView';
import { enumFixes } from './enumFixes';
import { loadSchemaValidators } from './schemaValidator';
import { allSectionErrors, type SectionErrorsMemo, type SectionValidator } from './sectionErrors';
import { requiredKeyRaises } from './requiredKeyRaises';
import { boundRaises } from './boundRaises';
import { joinList, localizedField, type Translate } from '../../l10n';

let compiled: SectionValidator[] | undefined;
let compileError: string | undefined;

/** Loads the schema's validators once, on first use; a broken schema disables schema checks instead of crashing. */
function validators(): SectionValidator[] | undefined {
  if (compiled || compileError) return compiled;
  try {
    compiled = loadSchemaValidators();
  } catch (error) {
    compileError = error instanceof Error ? error.message : String(error);
  }
  return compiled;
}

/** Why the schema could not be compiled, if it could not (for tests and the CLI). */
export function schemaCompileError(): string | undefined {
  validators();
  return compileError;
}

/** Keywords whose errors are noise here: other checks report them with better words, or their sub-errors say it. */
// l10n-ignore: ajv's keywords
const dropped = new Set(['additionalProperties', 'not', 'if', 'then', 'else', 'false schema', 'propertyNames']);

/** The value at a JSON pointer of ajv's instancePath. */
function valueAt(root: unknown, pointer: string): unknown {
  let value: unknown = root;
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * ajv errors against the schema, mapped to exact ranges and rewritten in plain words. `skipPointers` are
 * values another check already explained ("auto", integer strings, case-insensitive enums owned by rules); `memo`
 * takes over the errors of sections a keystroke left as they were (an open document's; sectionErrors.ts).
 */
export function schemaDiagnostics(config: ConfigView, skipPointers: Set<string>, ownedPointers: Set<string>, memo?: SectionErrorsMemo): Diagnostic[] {
  const sections = validators();
  if (!sections || config.parsed.root?.type !== 'object') return [];
  const root = config.root as Record<string, unknown>;
  const found = memo ? memo.errorsOf(root, sections) : allSectionErrors(root, sections);
  // With autotuning on, a list where one value belongs is a tuning space the autotuner expands into experiments
  // (autotuning/autotuner.py:434 "stage", :543-547 "train_micro_batch_size_per_gpu"; utils.py get_tuning_keys).
  const tuning = config.isTrue(['autotuning', 'enabled']);
  const tuningSpace = (pointer: string) => tuning && pointer !== '' && Array.isArray(valueAt(config.root, pointer));
  const errors = found.filter((e) => {
    if (tuningSpace(e.instancePath)) return false;
    if (dropped.has(e.keyword)) return false;
    if (e.keyword === 'const' && (e.params as { allowedValue?: unknown }).allowedValue === 'auto') return false;
    if (e.keyword === 'enum' && ((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).every((v) => v === 'auto')) return false;
    if (e.keyword !== 'required' && (skipPointers.has(e.instancePath) || ownedPointers.has(e.instancePath))) return false;
    return true;
  });
  const byPointer = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const key = error.keyword === 'required' ? `${error.instancePath}\u0000required` : error.instancePath;
    byPointer.set(key, [...(byPointer.get(key) ?? []), error]);
  }
  const out: Diagnostic[] = [];
  for (const group of byPointer.values()) {
    const diagnostic = describe(config, explaining(config, group));
    if (diagnostic) out.push(diagnostic);
  }
  return out;
}

/**
 * The errors that explain a failure at one value. An anyOf/oneOf failure is explained by its branches; a
 * branch's type error is noise when the value has a type another branch accepts (the real problem is inside
 * that branch, or was already reported by another check).
 */
function explaining(config: ConfigView, group: ErrorObject[]): ErrorObject[] {
  const specific = group.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const path = pathOf(config, group[0]?.instancePath ?? '');
  const schema = schemaForPath(path, config.root);
  const accepted = schema ? acceptedTypes(schema) : [];
  const actual = jsonTypeOf(config.get(path));
  const typeAccepted = accepted.includes(actual) || (actual === 'integer' && accepted.includes('number'));
  return typeAccepted && accepted.length > 1 ? specific.filter((e) => e.keyword !== 'type') : specific;
}

/** Every JSON type some non-auto alternative accepts (deprecated alternatives included: they still validate). */
function acceptedTypes(schema: SchemaNode, depth = 0): string[] {
  const view = schemaIndex().view(schema);
  const own = typeof view.type === 'string' ? [view.type] : Array.isArray(view.type) ? view.type : [];
  if (depth > 8) return own;
  return [...new Set([...own, ...[...(view.anyOf ?? []), ...(view.oneOf ?? [])].flatMap((b) => acceptedTypes(b, depth + 1))])];
}

function pathOf(config: ConfigView, pointer: string): JSONPath {
  const path: JSONPath = [];
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path.push(Array.isArray(config.get(path)) && /^\d+$/.test(segment) ? Number(segment) : segment);
  }
  return path;
}

function typeWords(t: Translate): Record<string, string> {
  return {
    integer: t('a whole number'),
    number: t('a number'),
    string: t('a string'),
    boolean: t('true or false'),
    object: t('an object { }'),
    array: t('a list [ ]'),
    null: 'null',
  };
}

/** A value in words for messages: "a list", "the string \"5e8\"", "5.5". */
function describeValue(t: Translate, value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return t('a list');
  if (typeof value === 'object') return t('an object');
  if (typeof value === 'string') return t('the string {0}', showValue(value));
  return showValue(value);
}

/**
 * The x-deepspeed of the key that declares an ajv error's keyword (`#/definitions/x/properties/lr/anyOf/0/minimum`):
 * the node holding the keyword, or the property whose anyOf branch that node is.
 */
function declaringMeta(schemaPath: string): DeepSpeedMeta | undefined {
  const segments = schemaPath.replace(/^#\/?/, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  segments.pop();
  if (segments.length >= 2 && segments[segments.length - 2] === 'anyOf') segments.splice(-2);
  let node: unknown = schemaIndex().root;
  for (const segment of segments) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? metaOf(node as SchemaNode) : undefined;
}

function describe(config: ConfigView, group: ErrorObject[]): Diagnostic | undefined {
  const first = group[0];
  if (!first) return undefined;
  const path = pathOf(config, first.instancePath);
  const value = config.get(path);
  const name = path.length > 0 ? `"${String(path[path.length - 1])}"` : config.t('The config');
  const schema = schemaForPath(path, config.root);
  const meta = schema ? metaOf(schema) : {};
  let autoNote = schema && acceptsAuto(schema) ? config.t(' or "auto"') : '';
  const data = { path, value };

  if (first.keyword === 'required') {
    const missing = [...new Set(group.map((e) => (e.params as { missingProperty: string }).missingProperty))];
    const where = path.length === 0 ? config.t('The config') : `"${showPath(path)}"`;
    const range = path.length === 0 ? config.rootRange() : config.keyRange(path);
    return config.diagnostic('missing-key', 'error', range, missing.length > 1 ? config.t('{0} needs {1}, which are missing.', where, joinList(config.t, missing.map((m) => `"${m}"`))) : config.t('{0} needs {1}, which is missing.', where, `"${missing[0]}"`), { ...data, missing }, meta.docs, requiredKeyRaises(path));
  }
  const range = config.valueRange(path);
  const types = [...new Set(group.filter((e) => e.keyword === 'type').flatMap((e) => String((e.params as { type: string }).type).split(',')))];
  const allowed = group.flatMap((e) =>
    e.keyword === 'enum' ? ((e.params as { allowedValues: unknown[] }).allowedValues ?? []) : e.keyword === 'const' ? [(e.params as { allowedValue: unknown }).allowedValue] : [],
  );
  if (allowed.length > 0) {
    // The HF placeholder's own errors were dropped above, so an "auto" here is one of the key's DeepSpeed values
    // (zenflow select_strategy, expert_parallel score_apply / combine_impl / score_func): listed and offered.
    const choices = [...new Set(allowed)];
    const values = choices.map(showValue);
    if (choices.includes('auto')) autoNote = '';
    if (meta.caseInsensitive && typeof value === 'string' && choices.includes(value.toLowerCase())) return undefined;
    const fixes = enumFixes(path, value, choices, config.t);
    // Python looks an unhashable list or dict up in the set of known values and fails; anything else falls back.
    if (meta.fallback !== undefined && (value === null || typeof value !== 'object')) {
      const message = config.t('{0} should be one of {1}; DeepSpeed does not know {2} and uses {3} instead.', name, joinList(config.t, values), describeValue(config.t, value), showValue(meta.fallback));
      return config.diagnostic('invalid-value', 'warning', range, message, { ...data, allowed: choices, fixes }, meta.docs);
    }
    if (meta.uncheckedEnum && typeof value === 'string') {
      const message = config.t('{0} should be one of {1}; got {2}. DeepSpeed does not check it: {3}.', name, joinList(config.t, values), describeValue(config.t, value), localizedField(meta, 'uncheckedEnum', config.locale) ?? meta.uncheckedEnum);
      return config.diagnostic('invalid-value', 'warning', range, message, { ...data, allowed: choices, fixes }, meta.docs);
    }
    return config.diagnostic('invalid-value', 'error', range, config.t('{0} must be one of {1}{2}; got {3}.', name, joinList(config.t, values), autoNote, describeValue(config.t, value)), { ...data, allowed: choices, fixes }, meta.docs);
  }
  if (types.length > 0) {
    const words = types.map((type) => typeWords(config.t)[type] ?? type);
    return config.diagnostic('invalid-type', 'error', range, config.t('{0} must be {1}{2}, not {3}.', name, words.join(config.t(' or ')), autoNote, describeValue(config.t, value)), { ...data, expected: types }, meta.docs);
  }
  const bound = group.find((e) => ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(e.keyword));
  if (bound) {
    const { comparison, limit } = bound.params as { comparison: string; limit: number };
    // An error only where DeepSpeed refuses the value (the schema's boundRaises, the line that raises); where it
    // does not check, a warning that says what DeepSpeed does with it (uncheckedBounds). Both are read where the
    // bound is declared: an optimizer's params narrowed by its type keep the generic key's docs but not its facts.
    const facts = declaringMeta(bound.schemaPath) ?? meta;
    const raises = boundRaises(facts, bound.keyword, path, config, value);
    if ((facts.uncheckedBounds && !facts.valueRaises?.[String(value)]) || raises === undefined) {
      const unchecked = localizedField(facts, 'uncheckedBounds', config.locale) ?? facts.uncheckedBounds;
      const message = unchecked ? config.t('{0} should be {1} {2}; got {3}. DeepSpeed does not check it: {4}.', name, comparison, limit, showValue(value), unchecked) : config.t('{0} should be {1} {2}; got {3}.', name, comparison, limit, showValue(value));
      return config.diagnostic('out-of-range', 'warning', range, message, { ...data, comparison, limit }, meta.docs);
    }
    if (raises === 'off') {
      return config.diagnostic('out-of-range', 'warning', range, config.t('{0} must be {1} {2}; got {3}. DeepSpeed refuses it once the section is enabled.', name, comparison, limit, showValue(value)), { ...data, comparison, limit }, meta.docs);
    }
    return config.diagnostic('out-of-range', 'error', range, config.t('{0} must be {1} {2}; got {3}.', name, comparison, limit, showValue(value)), { ...data, comparison, limit }, meta.docs, raises);
  }
  const messages = [...new Set(group.map((e) => e.message ?? e.keyword))];
  return config.diagnostic('schema', 'error', range, `${name} ${messages.join('; ')}.`, data, meta.docs);
}
