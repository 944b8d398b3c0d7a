import { constants, promises as fs, type Stats } from 'node:fs';
import type { Unread } from './host';

/**
 * Reading a file a workspace names, safely: only regular files (a named pipe would block the read for good,
 * `/dev/zero` never ends), never more than a cap, links followed by the OS (which reports a loop as ELOOP).
 * The file is checked before it is opened, opened non-blocking (so a pipe swapped in meanwhile cannot block),
 * and checked again through the open handle.
 */

function unreadOf(error: unknown): Unread {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { reason: 'missing' };
  if (code === 'ELOOP') return { reason: 'link-loop' };
  return { reason: 'unreadable' };
}

function notRegular(stats: Stats): Unread | undefined {
  if (stats.isFile()) return undefined;
  const what = stats.isDirectory() ? 'folder' : stats.isFIFO() ? 'named pipe' : stats.isCharacterDevice() || stats.isBlockDevice() ? 'device' : stats.isSocket() ? 'socket' : 'other';
  return { reason: 'not-a-file', what };
}

/** The stats of a regular file (links followed), or why it is not one. */
export async function regularFile(file: string): Promise<Stats | Unread> {
  try {
    const stats = await fs.stat(file);
    return notRegular(stats) ?? stats;
  } catch (error) {
    return unreadOf(error);
  }
}

/**
 * `length` bytes from `offset` of a regular file (fewer at its end), when `offset + length` and, for whole
 * reads, the file's size stay within `limit`.
 */
async function readRange(file: string, offset: number, length: number | 'all', limit: number): Promise<{ bytes: Buffer } | { unread: Unread }> {
  const checked = await regularFile(file);
  if (!('size' in checked)) return { unread: checked };
  const wanted = length === 'all' ? checked.size : length;
  if (length === 'all' ? checked.size > limit : length > limit) return { unread: { reason: 'too-large', size: wanted, limit } };
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const opened = await handle.stat();
    const changed = notRegular(opened);
    if (changed) return { unread: changed };
    if (length === 'all' && opened.size > limit) return { unread: { reason: 'too-large', size: opened.size, limit } };
    // A whole read asks one byte more than the file holds: a file that grew past the cap since it was checked
    // is refused, not cut.
    const buffer = Buffer.alloc(length === 'all' ? Math.min(opened.size + 1, limit + 1) : wanted);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (length === 'all' && filled > limit) return { unread: { reason: 'too-large', size: filled, limit } };
    return { bytes: buffer.subarray(0, filled) };
  } catch (error) {
    return { unread: unreadOf(error) };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The UTF-8 text of a regular file of at most `limit` bytes. */
export async function readRegularText(file: string, limit: number): Promise<{ text: string } | { unread: Unread }> {
  const read = await readRange(file, 0, 'all', limit);
  return 'bytes' in read ? { text: read.bytes.toString('utf8') } : read;
}

/** `length` (at most `limit`) bytes of a regular file from `offset`. */
export async function readRegularBytes(file: string, offset: number, length: number, limit: number): Promise<{ bytes: Uint8Array } | { unread: Unread }> {
  const read = await readRange(file, offset, length, limit);
  return 'bytes' in read ? { bytes: new Uint8Array(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length) } : read;
}
