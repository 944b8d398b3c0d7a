import type { Diagnostic } from 'vscode-languageserver-types';
import { DS } from '../../diagnostics/upstream';
import { metaOf } from '../schemaIndex';
import { fix, showValue, type ConfigView } from './configView';
import type { PropertySite } from './schemaWalk';

const falseWords = new Set(['0', 'f', 'n', 'no', 'off', 'false']);
const trueWords = new Set(['1', 't', 'y', 'on', 'yes', 'true']);

/** What pydantic's lax bool parsing makes of a string (pydantic-core `str_as_bool`: exact words, any case). */
export function pydanticBoolOf(text: string): boolean | undefined {
  const word = text.toLowerCase();
  if (falseWords.has(word)) return false;
  if (trueWords.has(word)) return true;
  return undefined;
}

/**
 * A true/false key given a string or a number. Pydantic sections accept "true", "no", 0, 1 and the like;
 * plain-dict sections hand the raw value on, and what it does there depends on the reader: a condition, an
 * `isinstance(x, bool)` assertion, or `x | flag` (a TypeError for a string).
 * Values neither reading can make sense of are left to the schema check's type error.
 */
export function checkBoolean(config: ConfigView, site: PropertySite): Diagnostic[] {
  const value = site.value;
  const range = () => (site.valueNode ? config.rangeOfNode(site.valueNode) : config.rangeOfNode(site.keyNode));
  const docs = metaOf(site.schema).docs;
  const write = (meant: boolean) => fix(config.t('Write it as {0}', meant), [{ op: 'set', path: site.path, value: meant }], true);
  const checked = boolChecked(site);
  if (value === 0 || value === 1) {
    const meant = value === 1;
    if (site.parentStrict) {
      const message = config.t('"{0}" is the number {1}. DeepSpeed\'s pydantic config reads it as {2}, but a plain {2} is clearer and is what other tools expect.', site.key, value, meant);
      return [config.diagnostic('boolean-as-number', 'hint', range(), message, { path: site.path, value, fixes: [write(meant)] }, docs)];
    }
    // Some plain-dict readers test the value, others assert isinstance(x, bool) (the pipeline's partition flags).
    const message = config.t('"{0}" is the number {1}. DeepSpeed reads this key as a plain Python value, not through pydantic, so it gets {1}, not {2}, and a check for a bool refuses it. Write {2}.', site.key, value, meant);
    return [config.diagnostic('boolean-as-number', checked ? 'error' : 'warning', range(), message, { path: site.path, value, fixes: [write(meant)] }, docs, checked)];
  }
  if (typeof value !== 'string') return [];
  const meant = pydanticBoolOf(value);
  if (meant === undefined) return [];
  const shown = showValue(value);
  if (site.parentStrict) {
    const message =
      config.t('"{0}" is the string {1}. DeepSpeed\'s pydantic config reads it as {2}, but code that reads the raw config, such as the Hugging Face Trainer\'s checks, gets a string, and Python counts every non-empty string as true. Write {2} without quotes.', site.key, shown, meant);
    return [config.diagnostic('boolean-as-string', 'warning', range(), message, { path: site.path, value, fixes: [write(meant)] }, docs)];
  }
  // Most readers test the string's truth (any non-empty string is true) and nothing raises: a warning. Where
  // DeepSpeed asserts a bool (x-deepspeed.exactBool), the string fails there: an error citing that line.
  const message = config.t('"{0}" is the string {1}. DeepSpeed reads this key as a plain Python value, not through pydantic, so it gets the string itself, not {2}. Write {2} without quotes.', site.key, shown, meant);
  return [config.diagnostic('boolean-as-string', checked ? 'error' : 'warning', range(), message, { path: site.path, value, fixes: [write(meant)] }, docs, checked)];
}

/**
 * The DeepSpeed line that asserts this key is a bool, when DeepSpeed reads it here: the schema's exactBool, in a
 * section that is enabled if it has an "enabled" switch.
 */
function boolChecked(site: PropertySite): string | undefined {
  const line = metaOf(site.schema).exactBool;
  const read = !('enabled' in (site.parentSchema.properties ?? {})) || site.siblings.enabled === true;
  return line && read ? `${DS}:${line}` : undefined;
}
