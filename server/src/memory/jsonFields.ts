/** Reading config.json values: numbers under any of their spellings, and nested sections. */
export type Json = Record<string, unknown>;

/** The first of `keys` that holds a finite number ≥ 0. */
export function num(c: Json, ...keys: string[]): number | undefined {
  for (const k of keys) {
    const v = c[k];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  }
  return undefined;
}

/** Like `num`, but 0 counts as absent. */
export function positive(c: Json, ...keys: string[]): number | undefined {
  const v = num(c, ...keys);
  return v !== undefined && v > 0 ? v : undefined;
}

/** A nested object (`text_config`, `vision_config`), or undefined. */
export function section(c: Json | undefined, key: string): Json | undefined {
  const v = c?.[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}
