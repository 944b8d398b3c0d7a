// A directory lock, so two `npm test` runs in one checkout don't install code-server into the same folder at once.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function withLock(lockDir, work, { waitMs = 20 * 60_000, onWait } = {}) {
  mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + waitMs;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {
        // The owner is between mkdir and writing its pid.
      }
      // A lock left by a killed run is taken over.
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockDir} (held by pid ${owner})`);
      if (!announced) onWait?.(owner);
      announced = true;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
