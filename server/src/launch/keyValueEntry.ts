/** A `key: value` of a launcher YAML with the offsets of both sides (what the YAML checks and fixes edit). */
export interface KeyValueEntry {
  key: string;
  value: unknown;
  /** Text of a scalar value as written (for strings: the string). */
  text: string | undefined;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** Start of the whole line holding the key, and the end of the entry (for deletions). */
  pairStart: number;
  pairEnd: number;
}
