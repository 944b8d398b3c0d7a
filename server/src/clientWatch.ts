import { Worker } from 'node:worker_threads';

/**
 * The server ends when its client goes away, whatever it is computing. The connection already exits when
 * stdin ends or the IPC channel closes, but only once the event loop gets to those events; a worker thread
 * checks every `intervalMs` whether the process that started the server (and the client process `initialize`
 * named) still lives, and ends the process from outside the busy main thread when not.
 */

const intervalMs = 200;

/** The worker's code: runs in its own thread, so a busy main thread cannot delay it. */
const watchdog = `
const { workerData } = require('node:worker_threads');
const { parentPid, clientPid, intervalMs } = workerData;
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};
setInterval(() => {
  // Re-parented: the process that started this one has ended.
  const orphaned = parentPid > 1 && process.ppid !== parentPid;
  if (orphaned || (clientPid !== undefined && !alive(clientPid))) process.kill(process.pid, 'SIGKILL');
}, intervalMs);
`;

let worker: Worker | undefined;

/**
 * Starts the watch (once). `clientPid` is `initialize`'s processId, when the client gave one. The IPC
 * channel closing (VS Code's transport) ends the process too.
 */
export function watchClient(clientPid: number | undefined, exit: () => void): void {
  process.once('disconnect', exit);
  if (worker) return;
  try {
    worker = new Worker(watchdog, {
      eval: true,
      workerData: { parentPid: process.ppid, clientPid: typeof clientPid === 'number' && clientPid > 0 && clientPid !== process.pid ? clientPid : undefined, intervalMs },
      // A few MB are plenty for a timer; keep the thread's heap small.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    worker.on('error', () => (worker = undefined));
  } catch {
    // Without threads the connection's own checks still end the server once the event loop is free.
  }
}
