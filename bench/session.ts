/**
 * The scripted LSP session, in phases: start and warm up, 400 edits each followed by waiting for
 * diagnostics (a prober measures how long the server stays blocked), then hover and completion at 50
 * positions and empty round trips, then the queries and the edits again on one CPU. Every server under test
 * stays alive for the whole document, and the query phases take turns between them (see measureQueries).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { visit } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionList } from 'vscode-languageserver-types';
import { benchUri } from './workspace';
import { serverPath, type StartOptions } from '../test/protocol/lspClient';
import { startRawServer, type RawServer } from './rawClient';
import { summarize, type Summary } from './stats';

export interface ServerUnderTest {
  name: string;
  start: StartOptions;
  languageId: string;
  /** Sent after initialize (the peer takes its schema association this way). */
  settings?: unknown;
  /** Measure diagnostics with `textDocument/diagnostic` requests instead of waiting for pushes. */
  pull?: boolean;
}

/**
 * Where a query phase runs: with the bench and every server on one CPU, or wherever the kernel puts them on
 * the machine's CPUs (see cpuPinning.ts for why both).
 */
export type Placement = 'oneCpu' | 'acrossCpus';
export const placements: Placement[] = ['oneCpu', 'acrossCpus'];

/** Hover, completion and empty round trips, as measured in one placement. */
export interface QueryResult {
  hover: Summary;
  completion: Summary;
  /** A hover where there is nothing to explain (the document's first character): one LSP round trip, no work. */
  roundTrip: Summary;
  /** `completionItem/resolve` of the first item, for servers that send documentation on resolve (count 0 otherwise). */
  resolve: Summary;
  /**
   * The same requests timed inside the server, from reading each to starting its answer (bench/serverClock.cjs):
   * the server's own share of the round trip.
   */
  inServer: Record<Timed, Summary>;
}

export interface SessionResult {
  coldStartToDiagnosticsMs: number;
  /** Edit → diagnostics wherever the kernel puts the processes (with the prober running). */
  diagnostics: Summary;
  /** The same on one CPU, and timed inside the server; missing where the processes could not be pinned. */
  diagnosticsOneCpu?: { client: Summary; inServer: Summary };
  /** Per placement; one CPU is missing where processes could not be pinned. */
  queries: Partial<Record<Placement, QueryResult>>;
  /** The same pulls timed inside the server (bench/serverClock.cjs), for servers asked by pull. */
  diagnosticsInServer: Summary;
  /** Longest time a trivial request waited on the server during the edit phase. */
  maxBlockedMs: number;
  peakRssMiB: number;
  /** Every sample in order, only when BENCH_SAMPLES is set (for looking into outliers). */
  samples?: LiveSession['samples'];
}

/** The requests that are also timed inside the server; the label travels in their params. */
type Timed = 'hover' | 'completion' | 'roundTrip';
const timed = (op: Timed, placement: Placement) => ({ zeroLensBench: clockLabel(op, placement) });
const clockLabel = (op: Timed, placement: Placement) => `${op}@${placement}`;
const diagnosticsLabel = (placement: Placement) => (placement === 'acrossCpus' ? 'diagnostics' : `diagnostics@${placement}`);
const serverClock = path.join(__dirname, 'serverClock.cjs');

/** The subject's server started with the clock loaded, writing its samples to `clockFile` when it exits. */
export function withServerClock(start: StartOptions, clockFile: string): StartOptions {
  const command = start.command ?? { path: process.execPath, args: [serverPath, '--stdio'] };
  return { ...start, command: { path: command.path, args: ['--require', serverClock, ...command.args] }, env: { ...start.env, ZERO_LENS_BENCH_CLOCK: clockFile } };
}

/** The server's timings by the label their requests carried; the file is removed once read. */
export function readServerClock(clockFile: string): Record<string, Summary> {
  const samples = (existsSync(clockFile) ? JSON.parse(readFileSync(clockFile, 'utf8')) : {}) as Record<string, number[]>;
  rmSync(clockFile, { force: true });
  return Object.fromEntries(Object.entries(samples).map(([label, values]) => [label, summarize(values)]));
}

/**
 * Keystrokes per placement. A p95 of 200 samples is the 10th slowest, and host noise moved it by a third between
 * runs of one build (2026-11-27); 400 halve that share. The 1 MB document keeps 200: its edits take 20–80 ms each.
 */
const editsFor = (text: string) => (text.length > twinMaxLength ? 200 : 400);
const probeCount = 50;
/**
 * Hover and completion visit the 50 positions this many times, and the servers take turns sweep by sweep.
 * Sub-millisecond requests on a shared two-core VM have a noisy tail: with five sweeps a p95 is the 13th
 * slowest of 250 samples, and it moved by half between runs of the same build; with twenty it is the 50th of
 * 1,000.
 */
const sweeps = 20;
const roundTripsPerSweep = 10;
const probeUri = benchUri('probe/ds_config_probe.json');
const probeText = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": { "stage": 2 }\n}\n';

/** Offsets of every property key, in document order. */
function propertyOffsets(text: string): number[] {
  const all: number[] = [];
  visit(text, { onObjectProperty: (_name, offset) => void all.push(offset) });
  return all;
}

/** Offsets of property keys spread evenly over the document (hover and completion targets). */
function keyOffsets(text: string, count: number): number[] {
  const all = propertyOffsets(text);
  const step = Math.max(1, Math.floor(all.length / count));
  return all.filter((_, i) => i % step === 0).slice(0, count);
}

/**
 * Keys halfway between the measured ones (none when every key is measured): the same kinds of keys in other
 * sections and groups, for the warm-up. Their paths differ from the measured ones, so nothing a server keeps
 * per key path is warm for the measured positions.
 */
function betweenKeyOffsets(text: string, count: number): number[] {
  const all = propertyOffsets(text);
  const step = Math.floor(all.length / count);
  return step < 2 ? [] : all.filter((_, i) => i % step === step >> 1).slice(0, count);
}

function peakRssMiB(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

async function waitDiagnostics(server: RawServer, uri: string, pull: boolean, send: () => void, label?: object): Promise<number> {
  const t0 = performance.now();
  if (pull) {
    send();
    await server.request('textDocument/diagnostic', { textDocument: { uri }, ...label });
  } else {
    const published = server.diagnostics(uri, () => true, 60_000);
    send();
    await published;
  }
  return performance.now() - t0;
}

/**
 * Steady state, not first compilation: on two cores V8's background compiler competes with both processes
 * for CPU until the hot code is optimized, which takes a few thousand requests (measured: spikes over 1 ms
 * in 3.5% of trivial round trips in the first thousand, 0.1% after three thousand). A language server lives
 * for hours, so both servers, and this client, are measured warm.
 */
const warmUpQueryRounds = 400;
/**
 * Hover and completion on the twin at the keys between the measured ones: the probe document has none of a
 * long config's sections, and without this the first sweep over them was a third of the slowest 5% for both
 * servers (the code for those schema parts compiling), though a server that has run for hours has seen them.
 */
const warmUpTwinQueryRounds = 20;
const settleRounds = 25;
/**
 * Edits on the twin before any is measured. After 200 (until 2026-11-27) ZeRO Lens's keystroke path was still
 * being compiled: on one CPU its p95 over the next 500 edits was 5.0–5.6 ms, over the 4,000 after 4,000 edits
 * 1.0–1.1 ms (medians 0.83–1.15 and 0.35–0.49 ms); a server that runs for hours is past that.
 */
const warmUpEditRounds = 3000;
const twinUri = benchUri('twin/ds_config.json');
/** Up to this size the edit warm-up runs on a copy of the measured text, so validation meets the same sections. */
const twinMaxLength = 128 * 1024;

/**
 * Not measured: hover and completion on the probe document, then on a copy of the measured document under
 * another URI (the twin) at the keys between the measured ones, and edits on the twin (the probe for the 1 MB
 * one), so neither server's first compilation of its code paths lands in the samples. The measured document
 * and positions stay cold: no cached parse for it, no answer for their key paths.
 */
async function warmUp(server: RawServer, subject: ServerUnderTest, text: string): Promise<void> {
  const probe = TextDocument.create(probeUri, subject.languageId, 1, probeText);
  await probeQueries(server, warmUpQueryRounds);
  const twin = text.length <= twinMaxLength ? TextDocument.create(twinUri, subject.languageId, 1, text) : probe;
  if (twin !== probe) await waitDiagnostics(server, twinUri, !!subject.pull, () => server.open(twinUri, subject.languageId, text));
  const between = betweenKeyOffsets(twin.getText(), probeCount);
  for (let round = 0; round < warmUpTwinQueryRounds; round++) {
    for (const offset of between) {
      await server.request('textDocument/hover', { textDocument: { uri: twin.uri }, position: twin.positionAt(offset + 2) });
      await server.request('textDocument/completion', { textDocument: { uri: twin.uri }, position: twin.positionAt(offset + 1) });
    }
  }
  const digit = editOffset(twin.getText());
  for (let round = 0; round < warmUpEditRounds; round++) {
    const change = { range: { start: twin.positionAt(digit), end: twin.positionAt(digit + 1) }, text: String(1 + (round % 9)) };
    TextDocument.update(twin, [change], twin.version + 1);
    await waitDiagnostics(server, twin.uri, !!subject.pull, () =>
      server.notify('textDocument/didChange', { textDocument: { uri: twin.uri, version: twin.version }, contentChanges: [change] }),
    );
  }
  if (twin !== probe) server.notify('textDocument/didClose', { textDocument: { uri: twinUri } });
}

/** The last digit of steps_per_print (or of the probe's micro-batch): what every measured keystroke changes. */
function editOffset(text: string): number {
  const at = text.indexOf('"steps_per_print": ');
  return at >= 0 ? at + '"steps_per_print": '.length + 3 : text.indexOf(': 1') + 2;
}

type QuerySamples = Record<'hover' | 'completion' | 'resolve' | 'roundTrip', number[]>;

/** A started, warmed-up server and the samples measured so far. */
export interface LiveSession {
  subject: ServerUnderTest;
  server: RawServer;
  uri: string;
  document: TextDocument;
  coldStartToDiagnosticsMs: number;
  samples: { diagnostics: number[]; diagnosticsOneCpu: number[]; blocked: number[]; queries: Partial<Record<Placement, QuerySamples>> };
  /** Where the server writes its own timings when it exits. */
  clockFile: string;
}

let clockFiles = 0;

/** Starts the server, opens the document (cold start → diagnostics) and warms the server up. */
export async function startSession(subject: ServerUnderTest, uri: string, text: string): Promise<LiveSession> {
  const clockFile = path.join(os.tmpdir(), `zero-lens-bench-clock-${process.pid}-${++clockFiles}.json`);
  const spawnedAt = performance.now();
  const server = await startRawServer(withServerClock(subject.start, clockFile));
  try {
    if (subject.settings) server.notify('workspace/didChangeConfiguration', { settings: subject.settings });
    const toDiagnostics = await waitDiagnostics(server, uri, !!subject.pull, () => server.open(uri, subject.languageId, text));
    const coldStart = performance.now() - spawnedAt;
    server.open(probeUri, subject.languageId, probeText);
    await warmUp(server, subject, text);
    return {
      subject,
      server,
      uri,
      document: TextDocument.create(uri, subject.languageId, 1, text),
      coldStartToDiagnosticsMs: Math.max(coldStart, toDiagnostics),
      samples: { diagnostics: [], diagnosticsOneCpu: [], blocked: [], queries: {} },
      clockFile,
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Hover and completion at the probe document's keys, `rounds` times. */
async function probeQueries(server: RawServer, rounds: number): Promise<void> {
  const probe = TextDocument.create(probeUri, 'json', 1, probeText); // only to turn offsets into positions
  const offsets = keyOffsets(probeText, 4);
  for (let round = 0; round < rounds; round++) {
    for (const offset of offsets) {
      await server.request('textDocument/hover', { textDocument: { uri: probeUri }, position: probe.positionAt(offset + 2) });
      await server.request('textDocument/completion', { textDocument: { uri: probeUri }, position: probe.positionAt(offset + 1) });
    }
  }
}

/**
 * Unmeasured requests on the probe document, server by server, after the processes moved to another CPU,
 * whose caches hold nothing of theirs yet. Without them, on the 2,000-line config, the first sweep's median
 * hover was 10–30% slower than the later sweeps' for every server (the p95 moved by a few µs).
 */
export async function settle(sessions: LiveSession[]): Promise<void> {
  for (const { server } of sessions) await probeQueries(server, settleRounds);
}

/**
 * The keystrokes, the servers taking turns: ten rounds, the server that goes first moving along by one each
 * round, so a burst of host noise falls on every server alike rather than on whichever was editing at the time
 * (run server after server, the first server's p95 was twice the others' in two runs of three).
 */
export async function measureEditsInTurns(sessions: LiveSession[], placement: Placement = 'acrossCpus'): Promise<void> {
  const rounds = 10;
  for (let round = 0; round < rounds; round++) {
    for (const session of turnOrder(sessions, round)) {
      await wakeUp(session);
      await measureEdits(session, editsFor(session.document.getText()) / rounds, placement);
    }
  }
}

/**
 * `count` keystrokes, each waited for until its diagnostics arrive. Across the CPUs a prober measures blocking
 * meanwhile; on one CPU it would only measure the bench's own share of that CPU, so it does not run.
 */
export async function measureEdits(session: LiveSession, count: number, placement: Placement = 'acrossCpus'): Promise<void> {
  const { server, subject, uri, document, samples } = session;
  // Each edit flips one digit of steps_per_print, an incremental change like a keystroke.
  const digit = editOffset(document.getText());
  let probing = placement === 'acrossCpus';
  const prober = (async () => {
    while (probing) {
      const t0 = performance.now();
      await server.request('textDocument/hover', { textDocument: { uri: probeUri }, position: { line: 1, character: 5 } });
      samples.blocked.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  for (let i = 0; i < count; i++) {
    const version = document.version + 1;
    const range = { start: document.positionAt(digit), end: document.positionAt(digit + 1) };
    const change = { range, text: String(i % 10) };
    TextDocument.update(document, [change], version);
    (placement === 'acrossCpus' ? samples.diagnostics : samples.diagnosticsOneCpu).push(
      await waitDiagnostics(
        server,
        uri,
        !!subject.pull,
        () => server.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] }),
        { zeroLensBench: diagnosticsLabel(placement) },
      ),
    );
  }
  probing = false;
  await prober;
}

/**
 * One unmeasured request at the start of a server's turn. After idling while the others answered, the first
 * request of a turn was among the slowest for every server alike (the process and its CPU wake up cold): an
 * artefact of taking turns, which an editor talking to one server does not have.
 */
async function wakeUp({ server, uri }: LiveSession): Promise<void> {
  await server.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
}

/** The servers in the order they take their turn in one sweep: each sweep starts one further along. */
function turnOrder(sessions: LiveSession[], sweep: number): LiveSession[] {
  const shift = sweep % sessions.length;
  return [...sessions.slice(shift), ...sessions.slice(0, shift)];
}

/**
 * Hover, then completion, at each of the 50 positions (and the resolve an editor sends for the focused item
 * when the list left documentation out), in `sweeps` sweeps. In each sweep every server answers all positions
 * in its turn, so a burst of host noise falls on the servers alike rather than on whichever ran at the time.
 */
export async function measureQueries(sessions: LiveSession[], placement: Placement): Promise<void> {
  const offsets = new Map(sessions.map((s) => [s, keyOffsets(s.document.getText(), probeCount)]));
  for (let sweep = 0; sweep < sweeps; sweep++) {
    for (const session of turnOrder(sessions, sweep)) {
      const { server, uri, document } = session;
      const samples = querySamples(session, placement);
      await wakeUp(session);
      for (const offset of offsets.get(session)!) {
        const onKey = document.positionAt(offset + 2);
        const inKey = document.positionAt(offset + 1);
        let t0 = performance.now();
        await server.request('textDocument/hover', { textDocument: { uri }, position: onKey, ...timed('hover', placement) });
        samples.hover.push(performance.now() - t0);
        t0 = performance.now();
        const list = await server.request<CompletionList | null>('textDocument/completion', { textDocument: { uri }, position: inKey, ...timed('completion', placement) });
        samples.completion.push(performance.now() - t0);
        // What the editor does next for the focused item when the list left its documentation out.
        const first = list?.items[0];
        if (first && first.documentation === undefined && (first.data ?? list.itemDefaults?.data) !== undefined) {
          t0 = performance.now();
          await server.request('completionItem/resolve', { ...first, data: first.data ?? list.itemDefaults?.data });
          samples.resolve.push(performance.now() - t0);
        }
      }
    }
  }
}

/** Hovers on the document's first character, where no server has anything to say, taking turns likewise. */
export async function measureRoundTrips(sessions: LiveSession[], placement: Placement): Promise<void> {
  for (let sweep = 0; sweep < sweeps; sweep++) {
    for (const session of turnOrder(sessions, sweep)) {
      const { server, uri } = session;
      const samples = querySamples(session, placement);
      await wakeUp(session);
      for (let i = 0; i < roundTripsPerSweep; i++) {
        const t0 = performance.now();
        await server.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 }, ...timed('roundTrip', placement) });
        samples.roundTrip.push(performance.now() - t0);
      }
    }
  }
}

/** Reads the peak RSS, stops the server and summarizes its samples. */
export async function finishSession(session: LiveSession): Promise<SessionResult> {
  const { samples } = session;
  const peak = peakRssMiB(session.server.process.pid);
  await session.server.stop();
  const clock = readServerClock(session.clockFile);
  const inServer = (op: Timed, placement: Placement) => clock[clockLabel(op, placement)] ?? summarize([]);
  const queries: SessionResult['queries'] = {};
  for (const placement of placements) {
    const measured = samples.queries[placement];
    if (!measured) continue;
    queries[placement] = {
      hover: summarize(measured.hover),
      completion: summarize(measured.completion),
      resolve: summarize(measured.resolve),
      roundTrip: summarize(measured.roundTrip),
      inServer: { hover: inServer('hover', placement), completion: inServer('completion', placement), roundTrip: inServer('roundTrip', placement) },
    };
  }
  return {
    coldStartToDiagnosticsMs: session.coldStartToDiagnosticsMs,
    diagnostics: summarize(samples.diagnostics),
    diagnosticsInServer: clock[diagnosticsLabel('acrossCpus')] ?? summarize([]),
    ...(samples.diagnosticsOneCpu.length ? { diagnosticsOneCpu: { client: summarize(samples.diagnosticsOneCpu), inServer: clock[diagnosticsLabel('oneCpu')] ?? summarize([]) } } : {}),
    queries,
    maxBlockedMs: Math.max(0, ...samples.blocked),
    ...(process.env.BENCH_SAMPLES ? { samples } : {}),
    peakRssMiB: peak,
  };
}

function querySamples(session: LiveSession, placement: Placement): QuerySamples {
  return (session.samples.queries[placement] ??= { hover: [], completion: [], resolve: [], roundTrip: [] });
}
