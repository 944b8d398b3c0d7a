/**
 * One scripted LSP session against one server: open, 200 edits each followed by waiting for diagnostics,
 * hover at 50 positions, completion at 50 positions. A prober measures how long the server stays blocked.
 */
import { readFileSync } from 'node:fs';
import { visit } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionList } from 'vscode-languageserver-types';
import { startServer, type StartOptions, type TestServer } from '../test/protocol/lspClient';
import { summarize, type Summary } from './stats';

export interface ServerUnderTest {
  name: string;
  start: StartOptions;
  languageId: string;
  /** Sent after initialize (the peer takes its schema association this way). */
  settings?: unknown;
  /** Validation waits for a pause in typing (the servers as shipped). */
  debounced?: boolean;
  /** Measure diagnostics with `textDocument/diagnostic` requests instead of waiting for pushes. */
  pull?: boolean;
}

export interface SessionResult {
  coldStartToDiagnosticsMs: number;
  diagnostics: Summary;
  hover: Summary;
  completion: Summary;
  /** A hover where there is nothing to explain (the document's first character): one LSP round trip, no work. */
  roundTrip: Summary;
  /** `completionItem/resolve` of the first item, for servers that send documentation on resolve (count 0 otherwise). */
  resolve: Summary;
  /** Longest time a trivial request waited on the server during the edit phase. */
  maxBlockedMs: number;
  peakRssMiB: number;
  /** Every sample in order, only when BENCH_SAMPLES is set (for looking into outliers). */
  samples?: Record<string, number[]>;
}

const editCount = 200;
const probeCount = 50;
const roundTripCount = 200;
const probeUri = 'file:///tmp/zero-lens-bench/probe/ds_config_probe.json';
const probeText = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": { "stage": 2 }\n}\n';

/** Offsets of property keys spread evenly over the document (hover and completion targets). */
function keyOffsets(text: string, count: number): number[] {
  const all: number[] = [];
  visit(text, { onObjectProperty: (_name, offset) => void all.push(offset) });
  const step = Math.max(1, Math.floor(all.length / count));
  return all.filter((_, i) => i % step === 0).slice(0, count);
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

async function waitDiagnostics(server: TestServer, uri: string, pull: boolean, send: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  if (pull) {
    await send();
    await server.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  } else {
    const published = server.diagnostics(uri, () => true, 60_000);
    await send();
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
/** Edits are warmed where they are fast; the debounced servers would spend 120 or 500 ms on each. */
const warmUpEditRounds = (subject: ServerUnderTest) => (subject.debounced ? 20 : 200);
const twinUri = 'file:///tmp/zero-lens-bench/twin/ds_config.json';
/** Up to this size the edit warm-up runs on a copy of the measured text, so validation meets the same sections. */
const twinMaxLength = 128 * 1024;

/**
 * Not measured: hover and completion on the probe document, and edits on a copy of the measured document
 * under another URI (the probe for the 1 MB one), so neither server's first compilation of its code paths
 * lands in the samples. The measured document and positions stay cold: no cached parse or answer for them.
 */
async function warmUp(server: TestServer, subject: ServerUnderTest, text: string): Promise<void> {
  const probe = TextDocument.create(probeUri, subject.languageId, 1, probeText);
  const offsets = keyOffsets(probe.getText(), 4);
  for (let round = 0; round < warmUpQueryRounds; round++) {
    for (const offset of offsets) {
      await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: probeUri }, position: probe.positionAt(offset + 2) });
      await server.connection.sendRequest('textDocument/completion', { textDocument: { uri: probeUri }, position: probe.positionAt(offset + 1) });
    }
  }
  const twin = text.length <= twinMaxLength ? TextDocument.create(twinUri, subject.languageId, 1, text) : probe;
  if (twin !== probe) await waitDiagnostics(server, twinUri, !!subject.pull, () => server.open(twinUri, subject.languageId, text));
  const digit = editOffset(twin.getText());
  for (let round = 0; round < warmUpEditRounds(subject); round++) {
    const change = { range: { start: twin.positionAt(digit), end: twin.positionAt(digit + 1) }, text: String(1 + (round % 9)) };
    TextDocument.update(twin, [change], twin.version + 1);
    await waitDiagnostics(server, twin.uri, !!subject.pull, () =>
      server.connection.sendNotification('textDocument/didChange', { textDocument: { uri: twin.uri, version: twin.version }, contentChanges: [change] }),
    );
  }
  if (twin !== probe) await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: twinUri } });
}

/** The last digit of steps_per_print (or of the probe's micro-batch): what every measured keystroke changes. */
function editOffset(text: string): number {
  const at = text.indexOf('"steps_per_print": ');
  return at >= 0 ? at + '"steps_per_print": '.length + 3 : text.indexOf(': 1') + 2;
}

export async function runSession(subject: ServerUnderTest, uri: string, text: string): Promise<SessionResult> {
  const spawnedAt = performance.now();
  const server = await startServer(subject.start);
  try {
    if (subject.settings) await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: subject.settings });
    const coldStartToDiagnosticsMs = await waitDiagnostics(server, uri, !!subject.pull, () => server.open(uri, subject.languageId, text));
    const coldStart = performance.now() - spawnedAt;
    await server.open(probeUri, subject.languageId, probeText);
    await warmUp(server, subject, text);

    // Each edit flips one digit of steps_per_print, an incremental change like a keystroke.
    const document = TextDocument.create(uri, subject.languageId, 1, text);
    const digit = editOffset(text);
    const diagnostics: number[] = [];
    const blocked: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const t0 = performance.now();
        await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: probeUri }, position: { line: 1, character: 5 } });
        blocked.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    for (let i = 0; i < editCount; i++) {
      const version = i + 2;
      const range = { start: document.positionAt(digit), end: document.positionAt(digit + 1) };
      const change = { range, text: String(i % 10) };
      TextDocument.update(document, [change], version);
      diagnostics.push(
        await waitDiagnostics(server, uri, !!subject.pull, () =>
          server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] }),
        ),
      );
    }
    probing = false;
    await prober;

    const hover: number[] = [];
    const completion: number[] = [];
    const resolve: number[] = [];
    for (const offset of keyOffsets(document.getText(), probeCount)) {
      const position = document.positionAt(offset + 2);
      let t0 = performance.now();
      await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
      hover.push(performance.now() - t0);
      t0 = performance.now();
      const list = await server.connection.sendRequest<CompletionList | null>('textDocument/completion', { textDocument: { uri }, position: document.positionAt(offset + 1) });
      completion.push(performance.now() - t0);
      // What the editor does next for the focused item when the list left its documentation out.
      const first = list?.items[0];
      if (first && first.documentation === undefined && (first.data ?? list.itemDefaults?.data) !== undefined) {
        t0 = performance.now();
        await server.connection.sendRequest('completionItem/resolve', { ...first, data: first.data ?? list.itemDefaults?.data });
        resolve.push(performance.now() - t0);
      }
    }
    const roundTrip: number[] = [];
    for (let i = 0; i < roundTripCount; i++) {
      const t0 = performance.now();
      await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
      roundTrip.push(performance.now() - t0);
    }
    return {
      coldStartToDiagnosticsMs: Math.max(coldStart, coldStartToDiagnosticsMs),
      diagnostics: summarize(diagnostics),
      hover: summarize(hover),
      completion: summarize(completion),
      resolve: summarize(resolve),
      roundTrip: summarize(roundTrip),
      maxBlockedMs: Math.max(0, ...blocked),
      ...(process.env.BENCH_SAMPLES ? { samples: { diagnostics, hover, completion, resolve, blocked } } : {}),
      peakRssMiB: peakRssMiB(server.process.pid),
    };
  } finally {
    await server.stop();
  }
}
