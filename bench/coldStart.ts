/**
 * Cold start, measured apart from the sessions: each server is started many times, taking turns, from spawning
 * `node … --stdio` to the answer of the first diagnostics pull for the typical config. One start per session
 * would be one sample on a shared machine; here the median of `rounds` is compared.
 *
 * ZeRO Lens is measured twice: as it starts every time but the first (its V8 code cache written by an earlier
 * run, boot/codeCache.ts) and as on its very first start (no cache read or written).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StartOptions } from '../test/protocol/lspClient';
import { startRawServer } from './rawClient';
import { benchUri } from './workspace';
import { summarize, type Summary } from './stats';

export interface ColdStartSubject {
  name: string;
  start: StartOptions;
  languageId: string;
  settings?: unknown;
}

export interface ColdStartResult {
  name: string;
  /** Spawn → first diagnostics, wall clock, ms. */
  wall: Summary;
  /** CPU time the server process (all its threads) had used by then, ms. */
  cpu: Summary;
}

const uri = benchUri('cold/ds_config.json');

/** CPU time of every thread of a process so far, in ms (Linux; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks.reduce((sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
  } catch {
    return NaN;
  }
}

async function startOnce(subject: ColdStartSubject, text: string): Promise<{ wall: number; cpu: number }> {
  const t0 = performance.now();
  const server = await startRawServer(subject.start);
  try {
    if (subject.settings) server.notify('workspace/didChangeConfiguration', { settings: subject.settings });
    server.open(uri, subject.languageId, text);
    await server.request('textDocument/diagnostic', { textDocument: { uri } });
    const wall = performance.now() - t0;
    return { wall, cpu: cpuMs(server.process.pid) };
  } finally {
    await server.stop();
  }
}

/** A folder for ZeRO Lens's code cache, filled by one start that runs until the server has saved it. */
export async function primedCodeCache(subject: ColdStartSubject, text: string): Promise<{ dir: string; cached: boolean }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'zero-lens-bench-cache-'));
  const server = await startRawServer({ ...subject.start, env: { ...subject.start.env, ZERO_LENS_CACHE_DIR: dir } });
  try {
    server.open(uri, subject.languageId, text);
    await server.request('textDocument/diagnostic', { textDocument: { uri } });
    // The server saves it once its warm-up is over; a development build (no content hash) never does.
    for (let waited = 0; waited < 20_000 && readdirSync(dir).length === 0; waited += 100) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await server.stop();
  }
  return { dir, cached: readdirSync(dir).length > 0 };
}

export function removeCodeCache(dir: string): void {
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}

/** `rounds` starts of every subject, taking turns (each round starts one further along). */
export async function measureColdStarts(subjects: ColdStartSubject[], text: string, rounds: number): Promise<ColdStartResult[]> {
  const samples = new Map(subjects.map((s) => [s.name, { wall: [] as number[], cpu: [] as number[] }]));
  for (let round = 0; round < rounds; round++) {
    const shift = round % subjects.length;
    for (const subject of [...subjects.slice(shift), ...subjects.slice(0, shift)]) {
      const { wall, cpu } = await startOnce(subject, text);
      samples.get(subject.name)!.wall.push(wall);
      samples.get(subject.name)!.cpu.push(cpu);
    }
  }
  return subjects.map((s) => ({ name: s.name, wall: summarize(samples.get(s.name)!.wall), cpu: summarize(samples.get(s.name)!.cpu) }));
}
