import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `fn` in a fresh temporary folder and removes the folder afterwards. */
export async function withTempDir(fn: (dir: string) => Promise<void>, prefix = 'zero-lens-memory-'): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
