/**
 * A tiny TrueType reader for tests: which code points a font's cmap maps to a glyph that has an outline.
 * Reads cmap formats 4 and 12 and the glyf/loca tables; nothing else.
 */
function tables(font: Buffer): Map<string, { offset: number; length: number }> {
  const found = new Map<string, { offset: number; length: number }>();
  const count = font.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    found.set(font.toString('latin1', record, record + 4), { offset: font.readUInt32BE(record + 8), length: font.readUInt32BE(record + 12) });
  }
  return found;
}

function table(font: Buffer, tag: string): number {
  const found = tables(font).get(tag);
  if (!found) throw new Error(`the font has no ${tag} table`);
  return found.offset;
}

/** Code point → glyph id, from every Unicode subtable of the cmap. */
export function cmap(font: Buffer): Map<number, number> {
  const start = table(font, 'cmap');
  const map = new Map<number, number>();
  const subtables = font.readUInt16BE(start + 2);
  for (let i = 0; i < subtables; i++) {
    const sub = start + font.readUInt32BE(start + 4 + i * 8 + 4);
    const format = font.readUInt16BE(sub);
    if (format === 4) readFormat4(font, sub, map);
    else if (format === 12) {
      const groups = font.readUInt32BE(sub + 12);
      for (let g = 0; g < groups; g++) {
        const at = sub + 16 + g * 12;
        const [first, last, glyph] = [font.readUInt32BE(at), font.readUInt32BE(at + 4), font.readUInt32BE(at + 8)];
        for (let c = first; c <= last; c++) map.set(c, glyph + c - first);
      }
    }
  }
  return map;
}

function readFormat4(font: Buffer, sub: number, map: Map<number, number>): void {
  const segments = font.readUInt16BE(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const [first, last] = [font.readUInt16BE(starts + s * 2), font.readUInt16BE(ends + s * 2)];
    const delta = font.readInt16BE(deltas + s * 2);
    const rangeOffset = font.readUInt16BE(rangeOffsets + s * 2);
    for (let c = first; c <= last && c !== 0xffff; c++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
      else {
        const raw = font.readUInt16BE(rangeOffsets + s * 2 + rangeOffset + (c - first) * 2);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) map.set(c, glyph);
    }
  }
}

/** Whether glyph `id` has outline data (a non-empty glyf entry). */
export function hasOutline(font: Buffer, id: number): boolean {
  const longOffsets = font.readInt16BE(table(font, 'head') + 50) === 1;
  const glyphs = font.readUInt16BE(table(font, 'maxp') + 4);
  if (id <= 0 || id >= glyphs) return false;
  const loca = table(font, 'loca');
  const at = (i: number) => (longOffsets ? font.readUInt32BE(loca + i * 4) : font.readUInt16BE(loca + i * 2) * 2);
  return at(id + 1) > at(id);
}
