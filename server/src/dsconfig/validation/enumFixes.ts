import type { JSONPath } from 'jsonc-parser';
import { fix, showValue } from './configView';
import { didYouMean } from './didYouMean';
import type { FixSpec } from './fixTypes';
import type { Translate } from '../../l10n';

/** Beyond this many allowed values, only the close ones are offered: a long menu of guesses helps nobody. */
const maxChoices = 6;

/**
 * Quick fixes for a value outside its enum: one "Use X" per allowed value. The value the user most likely
 * meant ("CPU" for "cpu", "linaer" for "linear") comes first and is preferred, so fix-all can apply it.
 */
export function enumFixes(path: JSONPath, value: unknown, allowed: unknown[], t: Translate): FixSpec[] {
  const choices = [...new Set(allowed)];
  const meant = typeof value === 'string' ? likelyMeant(value, choices) : undefined;
  const offered = choices.length <= maxChoices ? choices : meant === undefined ? [] : [meant];
  const ordered = meant === undefined ? offered : [meant, ...offered.filter((c) => c !== meant)];
  return ordered.map((choice) => fix(t('Use {0}', showValue(choice)), [{ op: 'set', path, value: choice }], choice === meant));
}

/** The one allowed string the value is a case variant or a near miss of; undefined when none or several are. */
function likelyMeant(value: string, choices: unknown[]): unknown {
  const strings = choices.filter((c): c is string => typeof c === 'string');
  const sameLetters = strings.filter((c) => c.toLowerCase() === value.trim().toLowerCase());
  if (sameLetters.length === 1) return sameLetters[0];
  const near = didYouMean(value, strings, 2);
  return near.length === 1 ? near[0] : undefined;
}
