/**
 * The bytes of a checked file as text. The editor decodes files itself; the CLI reads bytes, so it must say
 * when they are not the UTF-8 that Python's open() and json.load expect, instead of checking garbage.
 */
export type DecodedFile =
  | { kind: 'text'; text: string; /** Offset in `text` of the first byte that is not UTF-8. */ invalidUtf8At?: number; invalidByte?: number }
  | { kind: 'binary' }
  | { kind: 'utf16' };

/** git's heuristic: a NUL byte in the first 8000 bytes means binary. */
const sniffLength = 8000;

export function decodeFile(bytes: Uint8Array): DecodedFile {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return { kind: 'utf16' };
  if (bytes.subarray(0, sniffLength).includes(0)) return { kind: 'binary' };
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return { kind: 'text', text };
  } catch {
    const at = firstInvalidByte(bytes) ?? 0;
    const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, at));
    return { kind: 'text', text, invalidUtf8At: before.length, invalidByte: bytes[at] };
  }
}

/** Where a UTF-8 lead byte is missing its continuation bytes, or a byte can never start a character. */
function firstInvalidByte(bytes: Uint8Array): number | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const continuations = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (continuations < 0) return i;
    for (let k = 1; k <= continuations; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += continuations + 1;
  }
  return undefined;
}
