/**
 * Puts the bench and the servers on one CPU for a query phase, with `taskset` (util-linux, part of every
 * Debian system), and puts them back afterwards.
 *
 * On the two-vCPU VM the committed results come from, a request that has to wake a process sleeping on the
 * other vCPU waits 50–100 µs for the wake-up. That is more than a hover costs ZeRO Lens, and how often a
 * request pays it varies from run to run: on the 2,000-line config, a server that does no work at all
 * (floorServer.mjs) had 0.29–0.43 of the JSON server's hover p95 over fifteen runs. On one CPU the hand-over
 * between client and server is a context switch of a few µs, as between the cores of an ordinary desktop, so
 * the round trip measures the servers rather than the hypervisor.
 */
import { execFileSync } from 'node:child_process';

export interface Pinned {
  /** The CPU everything runs on. */
  cpu: number;
  /** Gives every process back the CPUs it had. */
  release(): void;
}

/** Pins every thread of each process to one CPU; a reason instead when this machine cannot. */
export function pinToOneCpu(pids: number[]): Pinned | { unavailable: string } {
  let before: Map<number, string>;
  try {
    before = new Map(pids.map((pid) => [pid, affinityList(pid)]));
  } catch (error) {
    return { unavailable: `taskset failed (${firstLine(error)})` };
  }
  const cpus = expand(before.get(process.pid) ?? before.values().next().value ?? '');
  if (cpus.length < 2) return { unavailable: `the bench may use only ${cpus.length} CPU` };
  // Any one will do; the last the bench may use. (On the VM the disk's and network's interrupts go to CPU 1,
  // but nothing does I/O during the query phases.)
  const cpu = cpus[cpus.length - 1];
  const pinned: number[] = [];
  const release = (): void => {
    for (const pid of pinned) setAffinity(pid, before.get(pid)!, true);
  };
  try {
    for (const pid of pids) {
      setAffinity(pid, String(cpu));
      pinned.push(pid);
    }
  } catch (error) {
    release();
    return { unavailable: `taskset failed (${firstLine(error)})` };
  }
  return { cpu, release };
}

/** The process's CPU list as taskset prints it, e.g. "0,1" or "0-3". */
function affinityList(pid: number): string {
  const out = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return out.slice(out.lastIndexOf(':') + 1).trim();
}

/** `-a`: every thread, V8's and libuv's included, not only the main one. */
function setAffinity(pid: number, list: string, processMayBeGone = false): void {
  try {
    execFileSync('taskset', ['-a', '-c', '-p', list, String(pid)], { stdio: 'ignore' });
  } catch (error) {
    if (!processMayBeGone) throw error;
  }
}

/** "0-2,5" → [0, 1, 2, 5]. */
export function expand(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.split(',').filter(Boolean)) {
    const [from, to = from] = part.split('-').map(Number);
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu);
  }
  return cpus;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
