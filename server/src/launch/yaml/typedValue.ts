/**
 * The value being typed after `key:` on the YAML line of `offset`: from after the key (or after a quote the user
 * opened, `deepspeed: "zer|"`) to the end of the value's word, so a completion replaces the whole value and both
 * quotes stay. `typed` is the part before the cursor, which the editor filters by.
 */
export function typedYamlValue(text: string, offset: number): { key: string; start: number; end: number; typed: string; quoted: boolean } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /^\s*([A-Za-z_][\w]*)\s*:\s*(["']?)([^\s"']*)$/.exec(text.slice(lineStart, offset));
  if (!m) return undefined;
  const rest = /^[^\s"']*/.exec(text.slice(offset))![0];
  return { key: m[1], start: offset - m[3].length, end: offset + rest.length, typed: m[3], quoted: m[2] !== '' };
}
