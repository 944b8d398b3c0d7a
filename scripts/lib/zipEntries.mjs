// Lists the entries of a zip (a VSIX) from its central directory: names and sizes, enough to check what a
// package ships and what each file takes in it.
import { readFileSync } from 'node:fs';

export function zipEntries(file) {
  const zip = readFileSync(file);
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${file}: corrupt central directory`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    entries.push({ name: zip.toString('utf8', offset + 46, offset + 46 + nameLength), size: zip.readUInt32LE(offset + 24), compressedSize: zip.readUInt32LE(offset + 20) });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
