import type { SettingsEditParams, SettingsEditResult } from './protocol';
import { minimalSpan, removeProperty, setValue } from './util/jsonEdits';

/**
 * One flat key of a settings.json text set or removed through the comment-preserving JSONC edits. Params come
 * off the wire: anything else is answered with no edit.
 */
export function settingsEdit(params: SettingsEditParams): SettingsEditResult {
  const { text, key, value } = (params ?? {}) as Partial<SettingsEditParams>;
  const valid = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null;
  if (typeof text !== 'string' || typeof key !== 'string' || !/^zeroLens\.[A-Za-z.]+$/.test(key) || !valid) return { edit: null };
  // A blank file (maybe only a BOM, which trim() counts as blank) becomes an object, after the BOM it had.
  const source = text.trim() === '' ? (text.startsWith('\ufeff') ? '\ufeff{}' : '{}') : text;
  const after = value === null ? removeProperty(source, [key], { withLineComment: false }) : setValue(source, [key], value);
  if (after === undefined) return { edit: null };
  if (source !== text) return { edit: { start: 0, end: text.length, newText: after } };
  const span = minimalSpan(text, after);
  return span.start === span.end && span.newText === '' ? { edit: null } : { edit: span };
}
