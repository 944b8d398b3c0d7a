/**
 * A path as one YAML value: plain where the YAML reader takes it whole, else single-quoted (`''` for a quote).
 * A plain scalar ends at ` #` (a comment) or `: ` (a mapping), may not start with an indicator, and loses
 * spaces at its ends.
 */
export function yamlScalar(text: string): string {
  const plain = text !== '' && !/^[-?:,[\]{}#&*!|>'"%@`\s]/.test(text) && !/: |:$| #|\s$/.test(text);
  return plain ? text : `'${text.replace(/'/g, "''")}'`;
}
