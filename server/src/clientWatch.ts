import { Worker } from 'node:worker_threads';

/**
 * The server ends when its client goes away, whatever it is computing. The connection already exits when
 * stdin ends or the IPC channel closes, but only once the event loop gets to those events; a worker thread
 * checks every 100 ms whether the process that started the server (and the client process `initialize`
 * named) still lives, and ends the process from outside the busy main thread when not. The thread is
 * started with the server, before any work: a worker needs turns of the main event loop to come up.
 */

const intervalMs = 100;

/** The worker's code: runs in its own thread, so a busy main thread cannot delay it. */
const watchdog = `
const { parentPort, workerData } = require('node:worker_threads');
const { parentPid, intervalMs } = workerData;
let clientPid;
parentPort.on('message', (pid) => (clientPid = pid));
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

/** Starts the watch on the process that started the server; `exit` runs when the IPC channel closes. */
export function startClientWatch(exit: () => void): void {
  process.once('disconnect', exit);
  if (worker) return;
  try {
    worker = new Worker(watchdog, {
      eval: true,
      workerData: { parentPid: process.ppid, intervalMs },
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

/** Also watches the client process `initialize` named (LSP: the server exits when it is gone). */
export function watchClientProcess(clientPid: number | null | undefined): void {
  if (typeof clientPid === 'number' && clientPid > 0 && clientPid !== process.pid) worker?.postMessage(clientPid);
}
