/**
 * East Asian wide and fullwidth characters (Chinese, kana, hangul, fullwidth punctuation), as a regular-expression
 * character class: a terminal gives each two columns, and a browser may break a line between any two of them.
 */
export const eastAsianWide = '[\\u1100-\\u115f\\u2e80-\\u303e\\u3041-\\u33ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\ua000-\\ua4cf\\uac00-\\ud7a3\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uff60\\uffe0-\\uffe6]';
const wide = new RegExp(eastAsianWide);

/**
 * How many terminal columns a text takes: East Asian wide characters take two, everything else one. Plain-text
 * tables pad by this, so a Chinese column still lines up.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += wide.test(char) ? 2 : 1;
  return width;
}

/** `text` padded with spaces to `width` columns, on the right (`end`) or the left (`start`). */
export function padColumns(text: string, width: number, side: 'start' | 'end'): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return side === 'end' ? text + fill : fill + text;
}
