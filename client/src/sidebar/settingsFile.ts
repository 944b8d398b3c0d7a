/**
 * The bytes of a .vscode/settings.json that is not open, as text for the server's edit and back. Kept apart from
 * settingsWriter.ts (which needs vscode) so the round trip is tested.
 */

/** UTF-8 text with a BOM kept as U+FEFF: the default TextDecoder drops it, and the write would lose it. */
export function decodeSettingsFile(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** The text with the server's edit spliced in, as UTF-8 bytes (a U+FEFF at the start is written as the BOM it was). */
export function encodeSettingsFile(text: string, edit: { start: number; end: number; newText: string }): Uint8Array {
  return new TextEncoder().encode(text.slice(0, edit.start) + edit.newText + text.slice(edit.end));
}
