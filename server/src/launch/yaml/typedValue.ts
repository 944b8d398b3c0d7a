/**
 * The value being typed after `key:` on a YAML line, from the start of the line to the cursor. Inside a quote the
 * user opened (`deepspeed: "zer|"`) the value is the text after the quote, so a completion replaces only that and
 * both quotes stay.
 */
export function typedYamlValue(before: string): { key: string; typed: string; quoted: boolean } | undefined {
  const m = /^\s*([A-Za-z_][\w]*)\s*:\s*(["']?)([^\s"']*)$/.exec(before);
  return m ? { key: m[1], typed: m[3], quoted: m[2] !== '' } : undefined;
}
