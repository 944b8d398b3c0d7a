/**
 * `npm run bench`: ZeRO Lens's server against VS Code's own JSON language server (vscode-langservers-extracted)
 * configured with our schema, on the same documents and the same scripted session. Writes bench/results.json
 * and bench/RESULTS.md.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchDocuments } from './documents';
import { finishSession, measureEdits, measureQueries, measureRoundTrips, settle, startSession, type LiveSession, type ServerUnderTest, type SessionResult } from './session';
import { measureCore, type CoreTimings } from './core';
import { pinToOneCpu } from './cpuPinning';
import { renderHeadline, renderReport } from './report';

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

export const subjects: ServerUnderTest[] = [
  { name: 'ZeRO Lens', start: { textDocumentCapabilities: editorCapabilities }, languageId: 'ds-config', debounced: true },
  { name: 'ZeRO Lens (no debounce)', start: { initializationOptions: { validationDelayMs: 0 }, textDocumentCapabilities: editorCapabilities }, languageId: 'ds-config' },
  { name: 'JSON server', start: { command: { path: process.execPath, args: [peerBin, '--stdio'] }, textDocumentCapabilities: editorCapabilities }, languageId: 'json', settings: peerSettings, debounced: true },
  {
    name: 'JSON server (pull)',
    start: {
      command: { path: process.execPath, args: [peerBin, '--stdio'] },
      textDocumentCapabilities: { ...editorCapabilities, diagnostic: { dynamicRegistration: false } },
    },
    languageId: 'json',
    settings: peerSettings,
    pull: true,
  },
  // Not a contender: the least any server on vscode-languageserver can take here (see floorServer.mjs).
  { name: 'LSP floor (no work)', start: { command: { path: process.execPath, args: [floorBin, '--stdio'] }, textDocumentCapabilities: editorCapabilities }, languageId: 'json' },
];

type OneCpuOutcome = { cpu: number } | { unavailable: string };

export interface BenchResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; os: string };
  sessions: { document: string; lines: number; bytes: number; server: string; result: SessionResult }[];
  /** Per document: the CPU its one-CPU query phase ran on, or why it could not run. */
  oneCpu: Record<string, OneCpuOutcome>;
  sizes: { serverJs: number; clientJs: number; webviewJs: number; vsix: number | null };
  core: CoreTimings;
}

function size(file: string): number {
  return existsSync(file) ? statSync(file).size : NaN;
}

/** The VSIX `npm run bench` has just packaged (scripts/package.mjs names it after the version). */
function vsixSize(): number | null {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const vsix = path.join(root, `zero-lens-${version}.vsix`);
  return existsSync(vsix) ? size(vsix) : null;
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
  } finally {
    pinned.release();
  }
  return { cpu: pinned.cpu };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const sessions: BenchResults['sessions'] = [];
  const oneCpu: BenchResults['oneCpu'] = {};
  const uri = `file:///tmp/zero-lens-bench/ds_config.json`;
  for (const document of selection(benchDocuments(), args)) {
    // All servers stay up for the document, so the query phases can take turns between them.
    const live: LiveSession[] = [];
    try {
      for (const subject of selection(subjects, args)) {
        process.stdout.write(`${document.name} · ${subject.name}: started`);
        live.push(await startSession(subject, uri, document.text));
        await measureEdits(live[live.length - 1]);
        process.stdout.write(`, edits done\n`);
      }
      process.stdout.write(`${document.name}: hover, completion and round trips, the servers taking turns\n`);
      oneCpu[document.name] = await measureQueryPhases(live);
    } finally {
      for (const session of live) {
        const result = await finishSession(session);
        sessions.push({ document: document.name, lines: document.text.split('\n').length, bytes: document.text.length, server: session.subject.name, result });
      }
    }
  }
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
    sizes: {
      serverJs: size(path.join(root, 'dist/server.js')),
      clientJs: size(path.join(root, 'dist/client.js')),
      webviewJs: size(path.join(root, 'dist/webview.js')),
      vsix: vsixSize(),
    },
    core: await measureCore(),
  };
  const report = renderReport(results);
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
