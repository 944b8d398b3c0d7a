/**
 * The schema's deprecation texts open with "Deprecated:" (已弃用： in Chinese); a diagnostic or hover that already
 * says the key is deprecated shows the reason without it. The Chinese is written as \u escapes: the production
 * core bundle must stay ASCII, and esbuild does not escape regular expressions.
 */
const deprecatedPrefix = /^\s*(deprecated[:.]?|\u5df2\u5f03\u7528[\uff1a:\uff0c,\u3002]?)\s*/i;

export function withoutDeprecatedPrefix(text: string): string {
  return text.replace(deprecatedPrefix, '');
}
