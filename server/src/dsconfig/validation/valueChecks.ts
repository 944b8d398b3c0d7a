import type { JSONPath, Node } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { DS } from '../../diagnostics/upstream';
import { exactIntSince } from '../releaseChecks';
import { acceptsAuto, enumValuesOf, metaOf, schemaIndex, typesOf } from '../schemaIndex';
import { fix, showValue, type ConfigView, type Severity } from './configView';
import type { CodeOf } from '../../diagnostics/registry';
import type { FixSpec } from './fixTypes';
import { checkBoolean } from './booleanChecks';
import type { PropertySite } from './schemaWalk';

/** A key whose only type is true/false (null aside): strings and numbers there are a reading of a bool. */
function isBooleanKey(schema: PropertySite['schema']): boolean {
  const types = typesOf(schema);
  return types.includes('boolean') && types.every((t) => t === 'boolean' || t === 'null');
}

/** A key whose only type is a (fractional) number, null aside. */
function isNumberKey(schema: PropertySite['schema']): boolean {
  const types = typesOf(schema);
  return types.includes('number') && types.every((t) => t === 'number' || t === 'null');
}

/** What most values of a keystroke's walk have: one list, never added to, shared by all of them. */
const noProblems: Diagnostic[] = Object.freeze([]) as unknown as Diagnostic[];

/** "auto" where nobody fills it, integer fields given fractions or numeric strings, bools given text or 0/1. */
export function checkValue(config: ConfigView, site: PropertySite): Diagnostic[] {
  if (site.value === 'auto') return checkAuto(config, site);
  if (typeof site.value === 'number' && !Number.isFinite(site.value)) return checkNonFinite(config, site, site.value);
  if (metaOf(site.schema).integer) return checkInteger(config, site);
  if (typeof site.value !== 'boolean' && isBooleanKey(site.schema)) return checkBoolean(config, site);
  if (site.parentStrict && typeof site.value === 'string' && isNumberKey(site.schema)) return checkNumberString(config, site);
  return noProblems;
}

function defaultFix(config: ConfigView, site: PropertySite): FixSpec[] {
  const fixes: FixSpec[] = [];
  const fallback = site.schema.default;
  if (fallback !== undefined && (typeof fallback !== 'number' || Number.isSafeInteger(fallback) || !Number.isInteger(fallback))) {
    fixes.push(fix(config.t('Use the default {0}', showValue(fallback)), [{ op: 'set', path: site.path, value: fallback }]));
  }
  fixes.push(fix(config.t('Remove "{0}"', site.key), [{ op: 'remove', path: site.path }]));
  return fixes;
}

function checkAuto(config: ConfigView, site: PropertySite): Diagnostic[] {
  if (acceptsAuto(site.schema)) return noProblems;
  const range = site.valueNode ? config.rangeOfNode(site.valueNode) : config.rangeOfNode(site.keyNode);
  if (site.parentStrict) {
    return [
      config.diagnostic(
        'auto-dropped',
        'warning',
        range,
        site.schema.default === undefined
          ? config.t('"auto" is not filled in for "{0}" by the Hugging Face Trainer or accelerate. DeepSpeed drops it silently and uses the default.', site.key)
          : config.t('"auto" is not filled in for "{0}" by the Hugging Face Trainer or accelerate. DeepSpeed drops it silently and uses the default ({1}).', site.key, showValue(site.schema.default)),
        { path: site.path, fixes: defaultFix(config, site) },
        metaOf(site.schema).docs,
      ),
    ];
  }
  const meta = metaOf(site.schema);
  if (meta.fallback !== undefined) {
    return [
      config.diagnostic(
        'auto-not-filled',
        'warning',
        range,
        config.t('"auto" is not filled in for "{0}" by the Hugging Face Trainer or accelerate. DeepSpeed does not know the value and uses {1} instead.', site.key, showValue(meta.fallback)),
        { path: site.path, fixes: defaultFix(config, site) },
        meta.docs,
      ),
    ];
  }
  // A free-form string field may legitimately hold the word "auto"; only typed fields are a sure crash.
  const types = typesOf(site.schema);
  if (types.length === 0 || (types.includes('string') && enumValuesOf(site.schema).length === 0)) return [];
  return [
    config.diagnostic(
      'auto-not-filled',
      'error',
      range,
      config.t('"auto" is not filled in for "{0}" by the Hugging Face Trainer or accelerate, and DeepSpeed reads this key as a plain value: it gets the string "auto" and fails (expected {1}).', site.key, types.join(config.t(' or '))),
      { path: site.path, fixes: defaultFix(config, site) },
      meta.docs,
    ),
  ];
}

const integerString = /^\s*[+-]?\d+\s*$/;
const decimalString = /^\s*[+-]?\d+\.\d*\s*$/;
const exponentString = /^\s*[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+\s*$/;

/**
 * Fields that refuse inf and nan whatever their type: fp16's loss-scale validators (runtime/precision_config.py:130
 * for loss_scale, :175 for loss_scale_window and min_loss_scale).
 */
const refusesNonFinite = new Map<string, string>([
  ['fp16.loss_scale', 'runtime/precision_config.py:130'],
  ['fp16.loss_scale_window', 'runtime/precision_config.py:175'],
  ['fp16.min_loss_scale', 'runtime/precision_config.py:175'],
]);

/** How a non-finite value is written in the file: the bare token, or a literal such as 1e400 that overflows. */
function writtenNumber(config: ConfigView, site: PropertySite): string {
  return site.valueNode ? config.parsed.text.substr(site.valueNode.offset, site.valueNode.length) : String(site.value);
}

/**
 * NaN, Infinity, -Infinity and literals that overflow a double (1e400): Python's json module reads them as
 * float('nan') / float('inf'), and DeepSpeed's validation judges that value. An int field cannot hold it
 * (pydantic: "Input should be a finite number"; a plain-dict int is compared and multiplied as inf), and fp16's
 * loss-scale validators refuse it; a float field takes it.
 */
function checkNonFinite(config: ConfigView, site: PropertySite, value: number): Diagnostic[] {
  const written = writtenNumber(config, site);
  const python = Number.isNaN(value) ? "float('nan')" : value > 0 ? "float('inf')" : "float('-inf')";
  const range = site.valueNode ? config.rangeOfNode(site.valueNode) : config.rangeOfNode(site.keyNode);
  const docs = metaOf(site.schema).docs;
  const dotted = site.path.join('.');
  const fixes = defaultFix(config, site);
  const raisedAt = refusesNonFinite.get(dotted);
  const integer = metaOf(site.schema).integer || typesOf(site.schema).includes('integer');
  if (raisedAt || integer) {
    const why = raisedAt
      ? config.t('DeepSpeed refuses it: "{0} must be a finite number (not inf/-inf/nan)" (ValidationError, {1})', dotted, raisedAt)
      : site.parentStrict
        ? config.t('this is a whole-number field, and pydantic refuses it (finite_number: "Input should be a finite number")')
        : config.t('DeepSpeed expects a whole number here and fails on it');
    return [config.diagnostic('non-finite-number', 'error', range, config.t('"{0}" is {1}, which Python\'s json module reads as {2}; {3}.', site.key, written, python, why), { path: site.path, written, fixes }, docs)];
  }
  const token = /^-?(NaN|Infinity)$/.test(written);
  const what = token ? config.t('{0}: not JSON, but Python\'s json module reads it as {1}', written, python) : config.t('{0}, which overflows a double: Python\'s json module reads {1}', written, python);
  return [
    config.diagnostic(
      'non-finite-number',
      'warning',
      range,
      token ? config.t('"{0}" is {1}, and DeepSpeed takes it as it is here. Strict JSON readers refuse the token. Write a finite number.', site.key, what) : config.t('"{0}" is {1}, and DeepSpeed takes it as it is here. Write a finite number.', site.key, what),
      { path: site.path, written, fixes },
      docs,
    ),
  ];
}

function checkInteger(config: ConfigView, site: PropertySite): Diagnostic[] {
  const value = site.value;
  // Most integers are fine: their range and message are never built.
  const range = () => (site.valueNode ? config.rangeOfNode(site.valueNode) : config.rangeOfNode(site.keyNode));
  const docs = metaOf(site.schema).docs;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && metaOf(site.schema).exactInt) return site.valueNode ? writtenAsFloat(config, site.valueNode, site.path, site.key, docs) : noProblems;
    if (Number.isInteger(value) || !Number.isFinite(value)) return noProblems;
    const rounded = Math.round(value);
    // Pydantic refuses the fraction (int_from_float), and so does a reader that tests isinstance(value, int)
    // (exactInt, in the releases that have the test); other plain-dict readers take the float as it is.
    const exactLine = metaOf(site.schema).exactInt;
    const exactInt = exactLine && (!exactIntSince[exactLine] || config.holds(exactIntSince[exactLine])) ? exactLine : undefined;
    return [
      config.diagnostic(
        'integer-fraction',
        site.parentStrict || exactInt ? 'error' : 'warning',
        range(),
        site.parentStrict
          ? config.t('"{0}" must be a whole number; DeepSpeed\'s pydantic config refuses {1} (int_from_float: fractional part).', site.key, value)
          : config.t('"{0}" must be a whole number: DeepSpeed expects a Python int here, and {1} is not one.', site.key, value),
        { path: site.path, value, rounded, fixes: [fix(config.t('Round to {0}', rounded), [{ op: 'set', path: site.path, value: rounded }], true)] },
        docs,
        exactInt && !site.parentStrict ? `${DS}:${exactInt}` : undefined,
      ),
    ];
  }
  if (typeof value === 'boolean' && site.parentStrict) return checkBooleanAsInteger(config, site, value);
  // Numeric strings are pydantic's leniency; plain-dict sections hand the string itself to Python code (type error there).
  if (typeof value !== 'string' || !site.parentStrict) return [];
  // A field that also takes the word "auto" as its own value is str | int: pydantic keeps "4" a string, which
  // DeepSpeed then refuses (zenflow intervals). The schema's type error says so.
  if (acceptsAuto(site.schema) && !metaOf(site.schema).auto) return [];
  const asNumber = Number(value.trim());
  // Each case is one diagnostic on the string whose fix, where there is one, writes the number in its place.
  const onString = (code: CodeOf<'ds-config'>, severity: Severity, message: string, details: Record<string, unknown>, writes?: { title: string; number: number }) => [
    config.diagnostic(code, severity, range(), message, { path: site.path, value, ...details, fixes: writes ? [fix(writes.title, [{ op: 'set', path: site.path, value: writes.number }], true)] : [] }, docs),
  ];
  if (exponentString.test(value)) {
    const message = config.t('"{0}" is the string "{1}". Pydantic does not parse exponent notation inside strings (int_parsing); write it as a number without quotes: {2}.', site.key, value, value.trim());
    const writes = Number.isInteger(asNumber) ? { title: config.t('Write it as the number {0} (no quotes)', asNumber), number: asNumber } : undefined;
    return onString('integer-exponent-string', 'error', message, { number: asNumber }, writes);
  }
  if ((integerString.test(value) || (decimalString.test(value) && Number.isInteger(asNumber))) && withinBounds(site.schema, asNumber)) {
    const message = config.t('"{0}" is a number in quotes. Pydantic accepts "{1}", but a plain number is clearer and is what other tools expect.', site.key, value);
    return onString('integer-as-string', 'hint', message, { number: asNumber }, { title: config.t('Write it as the number {0}', asNumber), number: asNumber });
  }
  if (decimalString.test(value)) {
    const rounded = Math.round(asNumber);
    return onString('integer-fraction', 'error', config.t('"{0}" must be a whole number; pydantic refuses "{1}".', site.key, value), { rounded }, { title: config.t('Use {0}', rounded), number: rounded });
  }
  return [];
}

/**
 * true/false in a pydantic int field: lax mode reads them as 1 and 0, also for an int Enum such as ZeRO's stage
 * (zero/config.py:81-95), so DeepSpeed starts. Raw readers (the HF Trainer's `stage == 3`) still see a bool.
 */
function checkBooleanAsInteger(config: ConfigView, site: PropertySite, value: boolean): Diagnostic[] {
  const number = value ? 1 : 0;
  const dotted = site.path.join('.');
  const at = site.valueNode ? config.rangeOfNode(site.valueNode) : config.rangeOfNode(site.keyNode);
  const onValue = (severity: Severity, message: string, details: { number?: number; fixes: FixSpec[] }) => [
    config.diagnostic('boolean-as-integer', severity, at, message, { path: site.path, value, ...details }, metaOf(site.schema).docs),
  ];
  if ((dotted === 'fp16.loss_scale_window' || dotted === 'fp16.min_loss_scale') && config.holds('lossScaleBool')) {
    // A field validator runs before pydantic's coercion, whether or not fp16 is enabled (from DeepSpeed 0.19.3 on;
    // before, pydantic's lax reading below applies).
    const message = config.t('"{0}" is {1}; DeepSpeed refuses a bool here, enabled or not: "{2} must be an integer, not bool" (ValidationError, runtime/precision_config.py:173).', site.key, value, dotted);
    return onValue('error', message, { fixes: defaultFix(config, site) });
  }
  const allowed = enumValuesOf(site.schema).map((e) => e.value);
  // Outside the bounds or the allowed values once read: the schema's error stands.
  if (!numberBranchAccepts(site.schema, number) || (allowed.length > 0 && !allowed.includes(number))) return [];
  const message = config.t('"{0}" is {1}, not a number. DeepSpeed\'s pydantic config reads it as {2}, but tools that read the raw config see a bool; write {2}.', site.key, value, number);
  return onValue('warning', message, { number, fixes: [fix(config.t('Write it as {0}', number), [{ op: 'set', path: site.path, value: number }], true)] });
}

const numberString = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A pydantic float field given a number in quotes: pydantic parses it, so this is style, not an error. */
function checkNumberString(config: ConfigView, site: PropertySite): Diagnostic[] {
  const value = site.value as string;
  if (!numberString.test(value)) return [];
  const asNumber = Number(value.trim());
  if (!withinBounds(site.schema, asNumber)) return []; // out of range once parsed: the type error says enough
  const range = site.valueNode ? config.rangeOfNode(site.valueNode) : config.rangeOfNode(site.keyNode);
  return [
    config.diagnostic(
      'number-as-string',
      'hint',
      range,
      config.t('"{0}" is a number in quotes. Pydantic accepts "{1}", but a plain number is clearer and is what other tools expect.', site.key, value),
      { path: site.path, value, number: asNumber, fixes: [fix(config.t('Write it as the number {0}', asNumber), [{ op: 'set', path: site.path, value: asNumber }], true)] },
      metaOf(site.schema).docs,
    ),
  ];
}

/** Whether the schema, or one of its numeric anyOf branches ("auto" aside), takes this number within its bounds. */
function numberBranchAccepts(schema: PropertySite['schema'], n: number): boolean {
  const branches = schemaIndex().view(schema).anyOf;
  if (!branches) return withinBounds(schema, n);
  return branches.some((branch) => typesOf(branch).some((t) => t === 'integer' || t === 'number') && withinBounds(branch, n));
}

/** Whether a parsed number meets the schema's bounds (the schema check cannot test a string against them). */
function withinBounds(schema: PropertySite['schema'], n: number): boolean {
  const view = schemaIndex().view(schema);
  if (typeof view.minimum === 'number' && n < view.minimum) return false;
  if (typeof view.maximum === 'number' && n > view.maximum) return false;
  if (typeof view.exclusiveMinimum === 'number' && n <= view.exclusiveMinimum) return false;
  if (typeof view.exclusiveMaximum === 'number' && n >= view.exclusiveMaximum) return false;
  return true;
}

/**
 * `1e3` or `1000.0` where DeepSpeed checks isinstance(x, int): fine through DeepSpeed's loader, not through json.load.
 * `name` is the key, or the list's key for an item of a list of ints; `raises` is what DeepSpeed raises on the float.
 */
export function writtenAsFloat(config: ConfigView, node: Node, path: JSONPath, name: string, docs: string | undefined, raises = 'ValueError'): Diagnostic[] {
  const value = node.value;
  if (typeof value !== 'number' || !Number.isInteger(value)) return noProblems;
  const written = config.parsed.text.substr(node.offset, node.length);
  if (!/[.eE]/.test(written)) return noProblems;
  const what = typeof path[path.length - 1] === 'number' ? config.t('An entry of "{0}"', name) : `"${name}"`;
  return [
    config.diagnostic(
      'integer-written-as-float',
      'warning',
      config.rangeOfNode(node),
      config.t('{0} is written {1}. DeepSpeed\'s own loader reads that as the integer {2}, but the Hugging Face Trainer and accelerate load the file with json.load, which gives the float {2}.0, and DeepSpeed refuses a float here (isinstance(x, int): {3}). Write {2}.', what, written, value, raises),
      { path, value, fixes: [fix(config.t('Write it as {0}', value), [{ op: 'set', path, value }], true)] },
      docs,
    ),
  ];
}
