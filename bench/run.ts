/**
 * `npm run bench`: ZeRO Lens's server against VS Code's own JSON language server (vscode-langservers-extracted)
 * configured with our schema, on the same documents and the same scripted session, both asked for diagnostics
 * the way VS Code asks (pull). Writes bench/results.json and bench/RESULTS.md.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchDocuments } from './documents';
import { benchUri, benchWorkspace, makeBenchWorkspace } from './workspace';
import { finishSession, measureEditsInTurns, measureQueries, measureRoundTrips, settle, startSession, type LiveSession, type ServerUnderTest, type SessionResult } from './session';
import { measureCore, type CoreTimings } from './core';
import { pinToOneCpu } from './cpuPinning';
import { measureColdStarts, primedCodeCache, removeCodeCache, type ColdStartResult, type ColdStartSubject } from './coldStart';
import { renderHeadline, renderReport } from './report';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { coreInputs, measureVsix } from '../scripts/lib/sizeBudget.mjs';

const root = path.resolve(__dirname, '..');
const schema = JSON.parse(readFileSync(path.join(root, 'schemas/ds_config.schema.json'), 'utf8'));
const peerBin = path.join(root, 'node_modules/vscode-langservers-extracted/bin/vscode-json-language-server');
const floorBin = path.join(__dirname, 'floorServer.mjs');
const peerSettings = { json: { validate: { enable: true }, schemas: [{ fileMatch: ['*.json'], schema }] } };

/**
 * What VS Code tells every server about hover and completion (vscode-languageclient 10): markdown, snippets,
 * documentation resolved lazily for the focused item, and list-wide defaults. Without markdown the peer
 * leaves documentation out of its completion items and would be measured doing less work.
 */
const editorCapabilities = {
  completion: {
    completionItem: {
      snippetSupport: true,
      documentationFormat: ['markdown', 'plaintext'],
      resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] },
      labelDetailsSupport: true,
    },
    completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] },
  },
  hover: { contentFormat: ['markdown', 'plaintext'] },
};

/**
 * Every server as VS Code talks to it: diagnostics pulled (`textDocument/diagnostic`) when the editor wants
 * them, which vscode-languageclient does for any server that offers it, each with `benchWorkspace` open. ZeRO Lens
 * uses the code cache folder `main` primes (`ZERO_LENS_CACHE_DIR`), as it would on every start after the first.
 */
export const subjects = (cacheDir: string): ServerUnderTest[] => [
  { name: 'ZeRO Lens', start: { pull: true, rootPath: benchWorkspace, textDocumentCapabilities: editorCapabilities, env: { ZERO_LENS_CACHE_DIR: cacheDir } }, languageId: 'ds-config', pull: true },
  { name: 'JSON server', start: { pull: true, rootPath: benchWorkspace, command: { path: process.execPath, args: [peerBin, '--stdio'] }, textDocumentCapabilities: editorCapabilities }, languageId: 'json', settings: peerSettings, pull: true },
  // Not a contender: the least any server on vscode-languageserver can take here (see floorServer.mjs).
  { name: 'LSP floor (no work)', start: { pull: true, rootPath: benchWorkspace, command: { path: process.execPath, args: [floorBin, '--stdio'] }, textDocumentCapabilities: editorCapabilities }, languageId: 'json', pull: true },
];

/** The same servers for the cold-start phase, and ZeRO Lens once more as on its first start (no code cache). */
function coldStartSubjects(servers: ServerUnderTest[]): ColdStartSubject[] {
  const ours = servers.find((s) => s.name === 'ZeRO Lens');
  return ours ? [...servers, { ...ours, name: 'ZeRO Lens, first start', start: { ...ours.start, env: { ZERO_LENS_CACHE_DIR: '' } } }] : servers;
}
const coldStartRounds = 12;

export interface SizeComponent {
  name: string;
  what: string;
  kib: number;
  budgetKiB: number;
}

type OneCpuOutcome = { cpu: number } | { unavailable: string };

export interface BenchResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; os: string };
  sessions: { document: string; lines: number; bytes: number; server: string; result: SessionResult }[];
  /** Per document: the CPU its one-CPU query phase ran on, or why it could not run. */
  oneCpu: Record<string, OneCpuOutcome>;
  /** Spawn → first diagnostics of the typical config, repeated; whether ZeRO Lens had a code cache to read. */
  coldStart: { results: ColdStartResult[]; rounds: number; codeCache: boolean };
  sizes: { coreJs: number; clientJs: number; webviewJs: number; vsix: number | null; budgetKiB: number | null; components: SizeComponent[] };
  core: CoreTimings;
}

function size(file: string): number {
  return existsSync(file) ? statSync(file).size : NaN;
}

/** The VSIX `npm run bench` has just packaged (scripts/package.mjs names it after the version), by component. */
function vsixSizes(): Pick<BenchResults['sizes'], 'vsix' | 'budgetKiB' | 'components'> {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const vsix = path.join(root, `zero-lens-${version}.vsix`);
  if (!existsSync(vsix)) return { vsix: null, budgetKiB: null, components: [] };
  const readmeFile = path.join(root, '.cache/vsix/README.md');
  const readme = existsSync(readmeFile) ? readFileSync(readmeFile, 'utf8') : '';
  const measured = (measureVsix as (file: string, options: object) => { totalBudgetKiB: number; components: SizeComponent[] })(vsix, {
    coreInputs: (coreInputs as (root: string) => string[])(root),
    readme,
    root,
  });
  return { vsix: size(vsix), budgetKiB: measured.totalBudgetKiB, components: measured.components };
}

/**
 * `node --import tsx bench/run.ts [names…]`: arguments that name documents pick documents, arguments that
 * name servers pick servers (an exact server name picks only that one); without arguments, everything.
 */
function selection<T extends { name: string }>(all: T[], args: string[]): T[] {
  const exact = all.filter((item) => args.includes(item.name));
  if (exact.length) return exact;
  const partial = all.filter((item) => args.some((arg) => item.name.includes(arg)));
  return partial.length ? partial : all;
}

/**
 * The query phases across the CPUs, as every run before 2026-11-23 measured them, then on one CPU. In that
 * order the across-CPU phase starts from wherever the kernel put the processes, not from the one CPU. The
 * one-CPU phase then meets the measured positions for the second time. Run the other way round on the
 * 2,000-line config, ZeRO Lens's and the JSON server's first one-CPU sweep was 1.3–3 times slower than their
 * later ones and every server's p95 was higher; ZeRO Lens's hover ratio was 0.36 and 0.36 in two probes going
 * first (0.39 and 0.31 going second), and 0.53 in one subset run going first before there was a settle step.
 * The edits follow on one CPU too (their across-CPU pass came before the queries).
 */
async function measureQueryPhases(live: LiveSession[]): Promise<OneCpuOutcome> {
  await measureQueries(live, 'acrossCpus');
  await measureRoundTrips(live, 'acrossCpus');
  const pinned = pinToOneCpu([process.pid, ...live.map((session) => session.server.process.pid!)]);
  if ('unavailable' in pinned) return pinned;
  try {
    await settle(live);
    await measureQueries(live, 'oneCpu');
    await measureRoundTrips(live, 'oneCpu');
    await measureEditsInTurns(live, 'oneCpu');
  } finally {
    pinned.release();
  }
  return { cpu: pinned.cpu };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const sessions: BenchResults['sessions'] = [];
  const oneCpu: BenchResults['oneCpu'] = {};
  const uri = benchUri('ds_config.json');
  const documents = selection(benchDocuments(), args);
  const typical = benchDocuments()[0];
  makeBenchWorkspace(typical.text);
  process.stdout.write('code cache: one start of ZeRO Lens that runs until it has saved it\n');
  const cache = await primedCodeCache(subjects('')[0], typical.text);
  const servers = selection(subjects(cache.dir), args);
  try {
    process.stdout.write(`cold start: ${coldStartRounds} starts of each server, taking turns\n`);
    const coldStart = { results: await measureColdStarts(coldStartSubjects(servers), typical.text, coldStartRounds), rounds: coldStartRounds, codeCache: cache.cached };
    await measureSessions(documents, servers, uri, sessions, oneCpu);
    await finish(args, sessions, oneCpu, coldStart);
  } finally {
    removeCodeCache(cache.dir);
  }
}

async function measureSessions(documents: ReturnType<typeof benchDocuments>, servers: ServerUnderTest[], uri: string, sessions: BenchResults['sessions'], oneCpu: BenchResults['oneCpu']): Promise<void> {
  for (const document of documents) {
    // All servers stay up for the document, so the query phases can take turns between them.
    const live: LiveSession[] = [];
    try {
      for (const subject of servers) {
        process.stdout.write(`${document.name} · ${subject.name}: started and warmed up\n`);
        live.push(await startSession(subject, uri, document.text));
      }
      process.stdout.write(`${document.name}: edits, the servers taking turns\n`);
      await measureEditsInTurns(live);
      process.stdout.write(`${document.name}: hover, completion and round trips, the servers taking turns\n`);
      oneCpu[document.name] = await measureQueryPhases(live);
    } finally {
      for (const session of live) {
        const result = await finishSession(session);
        sessions.push({ document: document.name, lines: document.text.split('\n').length, bytes: document.text.length, server: session.subject.name, result });
      }
    }
  }
}

async function finish(args: string[], sessions: BenchResults['sessions'], oneCpu: BenchResults['oneCpu'], coldStart: BenchResults['coldStart']): Promise<void> {
  const results: BenchResults = {
    date: new Date().toISOString(),
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      os: `${os.type()} ${os.release()}`,
    },
    sessions,
    oneCpu,
    coldStart,
    sizes: {
      coreJs: size(path.join(root, 'dist/core.js')),
      clientJs: size(path.join(root, 'dist/client.js')),
      webviewJs: size(path.join(root, 'dist/webview.js')),
      ...vsixSizes(),
    },
    core: await measureCore(),
  };
  const report = renderReport(results);
  // A subset's numbers (and samples, with BENCH_SAMPLES) can still be kept for a closer look.
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify(results, null, 2) + '\n');
  // Only a full run replaces the committed results; a subset is printed.
  if (args.length === 0) {
    writeFileSync(path.join(__dirname, 'results.json'), JSON.stringify(results, null, 2) + '\n');
    writeFileSync(path.join(__dirname, 'RESULTS.md'), report + '\n## Headline (quoted in the README)\n\n' + renderHeadline(results));
  }
  process.stdout.write('\n' + report);
}

if (require.main === module) main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
