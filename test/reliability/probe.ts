/**
 * The reliability probe: the bundled server (`dist/server.js --stdio`) in the hostile workspace of
 * hostileWorkspace.ts, measured the way the targets are stated: every request answered within 2 s,
 * peak RSS under 300 MB, a hover sent during heavy work answered before it, exit within 1 s of the client's
 * death. Shared by the reliability test (which asserts) and bench/reliability.ts (which reports).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CodeAction, Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { fileUri, serverPath, startServer, type TestServer } from '../protocol/lspClient';
import { createHostileWorkspace, type HostileWorkspace } from './hostileWorkspace';

/** How long any one step may take before the probe calls it a hang: generous, far above every target. */
export const hangGuardMs = 30_000;

export const targets = { requestMs: 2000, peakRssMb: 300, exitMs: 1000 };

export interface RequestTiming {
  document: string;
  request: string;
  ms: number;
}

export interface ReliabilityFigures {
  /** Per hostile document: time from didOpen to its first diagnostics, and what they were. */
  documents: { document: string; diagnosticsMs: number; codes: string[] }[];
  requests: RequestTiming[];
  slowestRequest: RequestTiming;
  /** The server's peak resident memory (VmHWM) after the whole hostile session. */
  peakRssMb: number;
  /** The stage hover of the config whose model name is Markdown. */
  injectedHover: string;
  /** From `exit` (after `shutdown`) to the process ending, with named pipes in the workspace. */
  shutdownExitMs: number;
  heavy: HeavyWorkFigures;
  clientDeath: ClientDeathFigures;
}

export interface HeavyWorkFigures {
  /** The hover sent right after the heavy requests: when it was answered, from when it was sent. */
  hoverMs: number;
  /** The heavy code action (50 diagnostics and "Fix all" on a 3.9 MB config), from when it was sent. */
  heavyMs: number;
  /** The 1 MB script's validation after an edit (didChange → diagnostics), meanwhile. */
  bigScriptMs: number;
  hoverFirst: boolean;
}

export interface ClientDeathFigures {
  /** From the client's SIGKILL to the server process being gone; undefined when it outlived the guard. */
  exitMs: number | undefined;
  /** What the server was doing: the requests in flight when its client died. */
  busyWith: string;
}

function within<T>(what: string, promise: Promise<T>, ms = hangGuardMs): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (hang guard)`)), ms).unref())]);
}

async function timed<T>(what: string, run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await within(what, run());
  return { value, ms: performance.now() - t0 };
}

/** 0-based line and character of the first `token` (plus `shift` characters) in `text`. */
function positionOf(text: string, token: string, shift = 2): { line: number; character: number } {
  const offset = Math.max(0, text.indexOf(token)) + shift;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

/** Peak resident memory of a process, from /proc (Linux), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/** Whether a process runs: a zombie (ended, not yet reaped by whoever inherited it) has ended. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until `pid` is gone; the time it took, or undefined past `limitMs`. */
async function exitTime(pid: number, from: number, limitMs: number): Promise<number | undefined> {
  while (performance.now() - from < limitMs) {
    if (!alive(pid)) return performance.now() - from;
    await new Promise((r) => setTimeout(r, 5));
  }
  return alive(pid) ? undefined : performance.now() - from;
}

const settings = { gpusPerNode: 8, gpuMemoryGiB: 80 };

/** Opens one hostile document and asks what an editor asks: diagnostics, hover, inlay hints, code actions. */
async function visit(server: TestServer, file: string, requests: RequestTiming[]) {
  const name = path.basename(file);
  const text = readFileSync(file, 'utf8');
  const uri = fileUri(file);
  const languageId = file.endsWith('.json') ? 'json' : 'shellscript';
  const published = server.diagnostics(uri, () => true, hangGuardMs);
  const t0 = performance.now();
  await server.open(uri, languageId, text);
  const diagnostics = (await within(`${name} diagnostics`, published)).diagnostics;
  lastDiagnostics.set(uri, diagnostics);
  const diagnosticsMs = performance.now() - t0;
  const record = async <T>(request: string, run: () => Promise<T>): Promise<T> => {
    const { value, ms } = await timed(`${name} ${request}`, run);
    requests.push({ document: name, request, ms });
    return value;
  };
  const anchor = languageId === 'json' ? '"stage"' : '--deepspeed ';
  const hover = await record('hover', () =>
    server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(text, anchor, languageId === 'json' ? 2 : anchor.length + 1) }),
  );
  await record('inlay hints', () =>
    server.connection.sendRequest('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: positionOf(text, '\u0000', text.length) } }),
  );
  await record('code actions', () =>
    server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics },
    }),
  );
  return { document: name, diagnosticsMs, codes: [...new Set(diagnostics.map((d: Diagnostic) => String(d.code)))], hover: (hover?.contents as MarkupContent | undefined)?.value ?? '' };
}

/**
 * Heavy work, then a hover: a code action with 50 diagnostics and "Fix all" on the 3.9 MB config, and an edit
 * of the 1 MB script (its validation runs again), each sent without waiting; then a hover on a key of a small
 * config, which needs neither. It must be answered first, and within 2 s.
 */
async function heavyWork(server: TestServer, ws: HostileWorkspace): Promise<HeavyWorkFigures> {
  const bigConfig = readFileSync(ws.files.bigConfig, 'utf8');
  const configUri = fileUri(ws.files.bigConfig);
  const small = readFileSync(ws.files.injectConfig, 'utf8');
  const smallUri = fileUri(ws.files.injectConfig);
  const diagnostics = lastDiagnostics.get(configUri) ?? [];
  const script = readFileSync(ws.files.bigScript, 'utf8');
  const scriptUri = fileUri(ws.files.bigScript);
  const edited = script + '# edited\n';
  const t0 = performance.now();
  const scriptDone = server.diagnostics(scriptUri, () => true, hangGuardMs).then(() => performance.now() - t0);
  await server.change(scriptUri, 2, edited);
  const heavy = server.connection
    .sendRequest('textDocument/codeAction', {
      textDocument: { uri: configUri },
      range: { start: { line: 0, character: 0 }, end: positionOf(bigConfig, '\u0000', bigConfig.length) },
      context: { diagnostics, only: ['quickfix', 'source.fixAll.zeroLens'] },
    })
    .then(() => performance.now() - t0);
  const hover = server.connection.sendRequest('textDocument/hover', { textDocument: { uri: smallUri }, position: positionOf(small, '"overlap_comm"') }).then(() => performance.now() - t0);
  const [hoverMs, heavyMs, bigScriptMs] = await within('heavy work', Promise.all([hover, heavy, scriptDone]));
  return { hoverMs, heavyMs, bigScriptMs, hoverFirst: hoverMs < heavyMs && hoverMs < bigScriptMs };
}

/** The first diagnostics the server published per URI (the editor's markers). */
const lastDiagnostics = new Map<string, Diagnostic[]>();

/**
 * A client process that starts the server, opens the 1 MB script and the 3.9 MB config, sends requests and
 * is killed (SIGKILL) while the server works on them: the server must be gone within a second.
 */
export async function clientDeathFor(ws: HostileWorkspace): Promise<ClientDeathFigures> {
  // The client: starts the server, waits for its answer to initialize, hands it the heavy work and then says
  // so (the server's pid on stdout); from then on the server is busy when the client is killed.
  const clientCode = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { pathToFileURL } = require('node:url');
const server = spawn(process.execPath, [${JSON.stringify(serverPath)}, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
let id = 0;
const send = (method, params, notify) => {
  const body = JSON.stringify(notify ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: ++id, method, params });
  server.stdin.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
};
const open = (file, languageId) => send('textDocument/didOpen', { textDocument: { uri: pathToFileURL(file).href, languageId, version: 1, text: fs.readFileSync(file, 'utf8') } }, true);
let initialized = false;
server.stdout.on('data', () => {
  if (initialized) return;
  initialized = true;
  send('initialized', {}, true);
  open(${JSON.stringify(ws.files.bigScript)}, 'shellscript');
  open(${JSON.stringify(ws.files.bigConfig)}, 'json');
  send('textDocument/codeAction', { textDocument: { uri: pathToFileURL(${JSON.stringify(ws.files.bigConfig)}).href }, range: { start: { line: 0, character: 0 }, end: { line: 100000, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll.zeroLens'] } });
  process.stdout.write(String(server.pid) + '\\n');
});
send('initialize', { processId: process.pid, rootUri: ${JSON.stringify(fileUri(ws.root))}, capabilities: {}, initializationOptions: { validationDelayMs: 0 } });
setInterval(() => {}, 1000);
`;
  const client = spawn(process.execPath, ['-e', clientCode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const serverPid = await within(
    'client start',
    new Promise<number>((resolve) => client.stdout!.once('data', (chunk) => resolve(Number(String(chunk).trim())))),
  );
  // Let the server get busy with the documents and the request.
  await new Promise((r) => setTimeout(r, 300));
  const t0 = performance.now();
  client.kill('SIGKILL');
  const exitMs = await exitTime(serverPid, t0, 5000);
  if (exitMs === undefined && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
  return { exitMs, busyWith: 'validating a 1 MB script and a 3.9 MB config, and "Fix all" on the config' };
}

export async function measureReliability(): Promise<ReliabilityFigures> {
  const ws = createHostileWorkspace();
  const requests: RequestTiming[] = [];
  try {
    // RELIABILITY_NODE_ARGS: Node options for the server under test (e.g. --cpu-prof), to look into a figure.
    const nodeArgs = process.env.RELIABILITY_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const command = { path: process.execPath, args: [...nodeArgs, serverPath, '--stdio'] };
    const server = await startServer({ rootPath: ws.root, settings, initializationOptions: { validationDelayMs: 0 }, command });
    const documents: ReliabilityFigures['documents'] = [];
    let injectedHover = '';
    const f = ws.files;
    for (const file of [f.fifoNeighbour, f.pipeScript, f.devZeroScript, f.sparseModelScript, f.hugeHeaderScript, f.deepScript, f.injectScript, f.injectConfig, f.outsideConfig, f.bigScript, f.bigConfig]) {
      const visited = await visit(server, file, requests);
      documents.push({ document: visited.document, diagnosticsMs: visited.diagnosticsMs, codes: visited.codes });
      if (file === f.injectConfig) injectedHover = visited.hover;
    }
    const heavy = await heavyWork(server, ws);
    const peak = peakRssMb(server.process.pid!);
    const pid = server.process.pid!;
    await within('shutdown', server.connection.sendRequest('shutdown'));
    const t0 = performance.now();
    await server.connection.sendNotification('exit');
    const shutdownExitMs = (await exitTime(pid, t0, 5000)) ?? Infinity;
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    server.connection.dispose();
    const death = await clientDeathFor(ws);
    const slowestRequest = requests.reduce((a, b) => (b.ms > a.ms ? b : a));
    return { documents, requests, slowestRequest, peakRssMb: peak, injectedHover, shutdownExitMs, heavy, clientDeath: death };
  } finally {
    ws.dispose();
  }
}
