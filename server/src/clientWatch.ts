import { Worker } from 'node:worker_threads';
import { applyServerV8Flags } from './v8Flags';

/**
 * The server ends when its client goes away, whatever it is computing. The connection already exits when
 * stdin ends or the IPC channel closes, but only once the event loop gets to those events; a worker thread
 * checks every 100 ms whether the process that started the server (and the client process `initialize`
 * named) still lives, and ends the process from outside the busy main thread when not.
 *
 * The thread is a second Node environment, 11 MB of resident memory, and only long work needs it: it starts
 * when the server first meets a text of `heavyTextLength` or more (an open document, a file it reads), the
 * only inputs whose validation keeps the main thread from its events for long (a 1 MB script takes a second).
 * A worker comes up on its own thread in about 60 ms, while the main thread is busy (measured on Node 20).
 */

const intervalMs = 100;
/** From this length a document's or file's analysis can take a good part of a second on a slow machine. */
const heavyTextLength = 128 * 1024;

/** The worker's code: runs in its own thread, so a busy main thread cannot delay it. */
// l10n-ignore: JavaScript source, not text for people
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
let online: Promise<void> | undefined;
let clientPid: number | undefined;
/** The process that started the server, read at start: by the time the thread starts it may have ended. */
let parentPid = process.ppid;

/** Watches the IPC channel (`exit` runs when it closes); the thread waits for `watchDuringHeavyWork`. */
export function startClientWatch(exit: () => void): void {
  parentPid = process.ppid;
  process.once('disconnect', exit);
}

/**
 * To be awaited before work on a text (an open document, a file read): for a huge one, starts the watchdog
 * thread and resolves once it runs; undefined, and nothing started, for the others.
 */
export function watchedFor(text: string): Promise<void> | undefined {
  return text.length >= heavyTextLength ? watchDuringHeavyWork() : undefined;
}

/** Whether the watchdog thread has been started (tests). */
export function watchdogStarted(): boolean {
  return online !== undefined;
}

/**
 * Starts the watchdog thread, once: the server is about to work on a text of `heavyTextLength` or more. Resolves
 * when the thread runs (about 60 ms; at once if threads are unavailable): the caller waits before its heavy work,
 * so the thread watches all of it, and so V8's flags are set again before that work's garbage could grow the
 * young generation (a new isolate sets V8's semi-space growth factor back to 2, its minimum there).
 */
export function watchDuringHeavyWork(): Promise<void> {
  online ??= new Promise<void>((resolve) => {
    try {
      const thread = new Worker(watchdog, {
        eval: true,
        workerData: { parentPid, intervalMs },
        // A few MB are plenty for a timer; keep the thread's heap small.
        resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
        stdout: false,
        stderr: false,
      });
      thread.unref();
      thread.once('online', () => {
        applyServerV8Flags();
        resolve();
      });
      thread.on('error', () => {
        worker = undefined;
        resolve();
      });
      if (clientPid !== undefined) thread.postMessage(clientPid);
      worker = thread;
    } catch {
      // Without threads the connection's own checks still end the server once the event loop is free.
      resolve();
    }
  });
  return online;
}

/** Also watches the client process `initialize` named (LSP: the server exits when it is gone). */
export function watchClientProcess(pid: number | null | undefined): void {
  if (typeof pid !== 'number' || pid <= 0 || pid === process.pid) return;
  clientPid = pid;
  worker?.postMessage(pid);
}
