/** Renders benchmark results as a Markdown report (also printed to the terminal). */
import type { BenchResults } from './run';
import { placements, type Placement, type SessionResult } from './session';
import type { Summary } from './stats';

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
/** Milliseconds, or microseconds below 0.1 ms (the memory estimate takes a few µs). */
const duration = (v: number) => (v < 0.1 ? `${(v * 1000).toFixed(1)} µs` : `${ms(v)} ms`);
const triple = (s: Summary) => `${ms(s.median)} / ${ms(s.p95)} / ${ms(s.max)}`;
/** Microseconds: a server's own share of a request is a few tens of them. */
const us = (v: number) => (Number.isFinite(v) ? (v * 1000).toFixed(0) : '–');
const tripleUs = (s: Summary) => `${us(s.median)} / ${us(s.p95)} / ${us(s.max)}`;
const kib = (v: number | null) => (v !== null && Number.isFinite(v) ? `${(v / 1024).toFixed(1)} KiB` : 'not built');
const ratioOf = (mine: number, theirs: number | undefined) => (theirs && Number.isFinite(mine / theirs) ? (mine / theirs).toFixed(2) : '–');

const ours = 'ZeRO Lens';
const peer = 'JSON server';
const floor = 'LSP floor (no work)';
const firstStart = 'ZeRO Lens, first start';

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const m = results.machine;
  out.push(`# ZeRO Lens benchmark`, '');
  out.push(`${results.date.slice(0, 10)} · ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB · Node ${m.node} · ${m.os}`, '');
  out.push('Latency in milliseconds (median / p95 / max). Ratio = the row\'s p95 ÷ the JSON server\'s p95 in the same run.', '');
  out.push('Every server is asked for diagnostics the way VS Code asks (LSP 3.17 pull: `textDocument/diagnostic` right');
  out.push('after the change). "LSP floor (no work)" is a server on the same library (vscode-languageserver) that answers');
  out.push('with fixed content and no diagnostics at once: its ratio is the lowest any such server could reach in this run.');
  out.push('"Empty round trip" is a hover where there is nothing to explain: one LSP request with no work.', '');
  out.push('Edits, hover, completion and empty round trips are measured twice: wherever the kernel puts the processes, then');
  out.push('with the bench and every server on one CPU. On a small VM a wake-up on another CPU costs more than a hover');
  out.push('(see bench/README.md, "One CPU"); on one CPU the round trip measures the servers.', '');
  renderColdStart(results, out);
  for (const documentName of [...new Set(results.sessions.map((s) => s.document))]) {
    const rows = results.sessions.filter((s) => s.document === documentName);
    const first = rows[0];
    const peerRow = rows.find((p) => p.server === peer)?.result;
    out.push(`## ${documentName} (${first.lines} lines, ${(first.bytes / 1024).toFixed(0)} KiB)`, '');
    out.push('| server | diagnostics after edit | p95 ratio | the same inside the server, µs | p95 ratio | cold start → diagnostics (this session) | longest block | ratio | peak RSS | ratio |');
    out.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) {
      const r = row.result;
      const own = row.server === peer;
      const cell = (v: string) => (own ? '' : v);
      out.push(
        `| ${row.server} | ${triple(r.diagnostics)} | ${cell(ratioOf(r.diagnostics.p95, peerRow?.diagnostics.p95))} | ${r.diagnosticsInServer ? tripleUs(r.diagnosticsInServer) : '–'} | ${cell(ratioOf(r.diagnosticsInServer?.p95 ?? NaN, peerRow?.diagnosticsInServer?.p95))} | ${ms(r.coldStartToDiagnosticsMs)} | ${ms(r.maxBlockedMs)} | ${cell(ratioOf(r.maxBlockedMs, peerRow?.maxBlockedMs))} | ${r.peakRssMiB.toFixed(0)} MiB | ${cell(ratioOf(r.peakRssMiB, peerRow?.peakRssMiB))} |`,
      );
    }
    out.push('');
    if (rows.some((row) => row.result.diagnosticsOneCpu)) {
      out.push('| server | diagnostics after edit, one CPU | p95 ratio | the same inside the server, µs | p95 ratio |');
      out.push('|---|---|---|---|---|');
      for (const row of rows) {
        const d = row.result.diagnosticsOneCpu;
        if (!d) continue;
        const theirs = row.server === peer ? undefined : peerRow?.diagnosticsOneCpu;
        out.push(`| ${row.server} | ${triple(d.client)} | ${ratioOf(d.client.p95, theirs?.client.p95)} | ${tripleUs(d.inServer)} | ${ratioOf(d.inServer.p95, theirs?.inServer.p95)} |`);
      }
      out.push('');
    }
    const outcome = results.oneCpu[documentName];
    if (outcome && 'unavailable' in outcome) out.push(`Not measured on one CPU: ${outcome.unavailable}.`, '');
    out.push('| server | measured on | hover | p95 ratio | completion | p95 ratio | empty round trip |');
    out.push('|---|---|---|---|---|---|---|');
    for (const placement of placements) {
      for (const row of rows) {
        const q = row.result.queries[placement];
        if (!q) continue;
        const theirs = row.server === peer ? undefined : peerRow?.queries[placement];
        out.push(`| ${row.server} | ${placementLabel(placement, results)} | ${triple(q.hover)} | ${ratioOf(q.hover.p95, theirs?.hover.p95)} | ${triple(q.completion)} | ${ratioOf(q.completion.p95, theirs?.completion.p95)} | ${triple(q.roundTrip)} |`);
      }
    }
    out.push('');
    for (const placement of placements) {
      for (const row of rows) {
        const r = row.result.queries[placement]?.resolve;
        if (r?.count) out.push(`Documentation of the focused completion item on \`completionItem/resolve\`, ${row.server}, ${placementLabel(placement, results)}: ${triple(r)} ms.`);
      }
    }
    if (rows.some((r) => placements.some((p) => r.result.queries[p]?.resolve.count))) out.push('');
    out.push('The same requests timed inside each server, from reading the request to starting the answer (`bench/serverClock.cjs`), in µs:', '');
    out.push('| server | measured on | hover | p95 ratio | completion | p95 ratio | empty round trip |');
    out.push('|---|---|---|---|---|---|---|');
    for (const placement of placements) {
      for (const row of rows) {
        const own = row.result.queries[placement]?.inServer;
        if (!own) continue;
        const theirs = row.server === peer ? undefined : peerRow?.queries[placement]?.inServer;
        out.push(`| ${row.server} | ${placementLabel(placement, results)} | ${tripleUs(own.hover)} | ${ratioOf(own.hover.p95, theirs?.hover.p95)} | ${tripleUs(own.completion)} | ${ratioOf(own.completion.p95, theirs?.completion.p95)} | ${tripleUs(own.roundTrip)} |`);
      }
    }
    out.push('');
  }
  renderSizes(results, out);
  out.push('## Core', '');
  for (const [name, s] of Object.entries(results.core)) out.push(`- ${name}: median ${duration(s.median)}, p95 ${duration(s.p95)} (${s.count} runs)`);
  out.push('');
  return out.join('\n');
}

function renderColdStart(results: BenchResults, out: string[]): void {
  const { results: rows, rounds, codeCache } = results.coldStart;
  if (!rows.length) return;
  const of = (name: string) => rows.find((r) => r.name === name);
  out.push(`## Cold start`, '');
  out.push(`From spawning \`node … --stdio\` to the answer of the first diagnostics pull for the typical config, ${rounds} starts of`);
  out.push('each server taking turns; CPU is what the server process (all its threads) had used by then. "ZeRO Lens" reads');
  out.push(`the V8 code cache an earlier start saved, as on every start after the first${codeCache ? '' : ' (this build saved none: a development build)'};`);
  out.push('"first start" has none.', '');
  out.push('| server | wall ms, median / p95 / max | ÷ floor (median) | ÷ JSON server (median) | CPU ms, median |');
  out.push('|---|---|---|---|---|');
  for (const row of rows) {
    out.push(`| ${row.name} | ${triple(row.wall)} | ${ratioOf(row.wall.median, of(floor)?.wall.median)} | ${ratioOf(row.wall.median, of(peer)?.wall.median)} | ${ms(row.cpu.median)} |`);
  }
  out.push('');
}

function renderSizes(results: BenchResults, out: string[]): void {
  const s = results.sizes;
  out.push('## Sizes', '');
  out.push(`dist/core.js ${kib(s.coreJs)} · dist/client.js ${kib(s.clientJs)} · dist/webview.js ${kib(s.webviewJs)} · VSIX ${kib(s.vsix)}`, '');
  if (s.components.length) {
    out.push('| component | in the VSIX | budget | what |', '|---|---|---|---|');
    for (const c of s.components) out.push(`| ${c.name} | ${c.kib.toFixed(1)} KiB | ${c.budgetKiB} KiB | ${c.what} |`);
    out.push(`| **VSIX** | **${kib(s.vsix)}** | **${s.budgetKiB} KiB** | |`, '');
  }
}

interface HeadlineRow {
  document: string;
  what: string;
  where: string;
  mine: number;
  theirs: number;
  unit: 'ms' | 'MiB' | 'KiB';
  /** The bar for the ratio (mine ÷ theirs). */
  bar: number;
  floor?: number;
}

/**
 * The table the README quotes: every measure the issue sets a bar for, as ZeRO Lens ÷ JSON server in this run
 * (cold start also ÷ the floor), with the floor server's figure where one was measured.
 */
export function renderHeadline(results: BenchResults): string {
  const m = results.machine;
  const find = (document: string, server: string) => results.sessions.find((s) => s.document.startsWith(document) && s.server === server)?.result;
  const documentLabel = (document: string) => (document === 'typical' ? 'typical (60 lines)' : document === '2,000' ? '2,000 lines' : '1 MB');
  const rows: HeadlineRow[] = [];
  for (const document of ['typical', '2,000']) {
    const p95 = (server: string, value: (r: SessionResult) => number | undefined) => {
      const r = find(document, server);
      return (r && value(r)) ?? NaN;
    };
    const add = (what: string, where: string, value: (r: SessionResult) => number | undefined) =>
      rows.push({ document: documentLabel(document), what, where, mine: p95(ours, value), theirs: p95(peer, value), floor: p95(floor, value), unit: 'ms', bar: 0.5 });
    add('diagnostics after edit, p95', placementLabel('acrossCpus', results), (r) => r.diagnostics.p95);
    add('the same, inside the server', placementLabel('acrossCpus', results), (r) => r.diagnosticsInServer?.p95);
    add('diagnostics after edit, p95', placementLabel('oneCpu', results), (r) => r.diagnosticsOneCpu?.client.p95);
    add('the same, inside the server', placementLabel('oneCpu', results), (r) => r.diagnosticsOneCpu?.inServer.p95);
    for (const op of ['hover', 'completion'] as const) {
      for (const placement of placements) add(`${op}, p95`, placementLabel(placement, results), (r) => r.queries[placement]?.[op].p95);
    }
  }
  rows.push({ document: '1 MB', what: 'longest block while validating', where: '', mine: find('1 MB', ours)?.maxBlockedMs ?? NaN, theirs: find('1 MB', peer)?.maxBlockedMs ?? NaN, floor: find('1 MB', floor)?.maxBlockedMs, unit: 'ms', bar: 0.5 });
  for (const document of ['typical', '2,000', '1 MB']) {
    rows.push({ document: documentLabel(document), what: 'peak RSS', where: '', mine: find(document, ours)?.peakRssMiB ?? NaN, theirs: find(document, peer)?.peakRssMiB ?? NaN, floor: find(document, floor)?.peakRssMiB, unit: 'MiB', bar: 1 });
  }
  const cold = (name: string) => results.coldStart.results.find((r) => r.name === name)?.wall.median ?? NaN;
  const out: string[] = [];
  out.push('| document | measure | measured on | ZeRO Lens | JSON server | ratio | bar | LSP floor (no work) | floor ÷ JSON server | ZeRO Lens − floor |');
  out.push('|---|---|---|---|---|---|---|---|---|---|');
  const value = (v: number | undefined, unit: string) => (v !== undefined && Number.isFinite(v) ? `${unit === 'ms' ? ms(v) : v.toFixed(0)} ${unit}` : '–');
  for (const r of rows) {
    const ratio = r.mine / r.theirs;
    const mark = Number.isFinite(ratio) ? (ratio <= r.bar ? ' ✓' : ' ✗') : '';
    const floorCells = r.floor !== undefined && Number.isFinite(r.floor) ? `${value(r.floor, r.unit)} | ${ratioOf(r.floor, r.theirs)} | ${value(r.mine - r.floor, r.unit)}` : '– | – | –';
    out.push(`| ${r.document} | ${r.what} | ${r.where} | ${value(r.mine, r.unit)} | ${value(r.theirs, r.unit)} | ${ratioOf(r.mine, r.theirs)}${mark} | ≤ ${r.bar} | ${floorCells} |`);
  }
  const coldRatio = cold(ours) / cold(floor);
  out.push(
    `| typical (60 lines) | cold start → diagnostics, median | | ${value(cold(ours), 'ms')} | ${value(cold(peer), 'ms')} | ${ratioOf(cold(ours), cold(peer))} | ≤ 1.25 × floor: ${Number.isFinite(coldRatio) ? coldRatio.toFixed(2) : '–'}${Number.isFinite(coldRatio) ? (coldRatio <= 1.25 ? ' ✓' : ' ✗') : ''} | ${value(cold(floor), 'ms')} | ${ratioOf(cold(floor), cold(peer))} | ${value(cold(ours) - cold(floor), 'ms')} |`,
  );
  out.push(
    `| typical (60 lines) | first start (no code cache), median | | ${value(cold(firstStart), 'ms')} | ${value(cold(peer), 'ms')} | ${ratioOf(cold(firstStart), cold(peer))} | ${ratioOf(cold(firstStart), cold(floor))} × floor | ${value(cold(floor), 'ms')} | | ${value(cold(firstStart) - cold(floor), 'ms')} |`,
  );
  const vsixKiB = results.sizes.vsix !== null ? results.sizes.vsix / 1024 : NaN;
  const budget = results.sizes.budgetKiB ?? 700;
  out.push(`| | VSIX | | ${value(vsixKiB, 'KiB')} | | | ≤ ${budget} KiB${Number.isFinite(vsixKiB) ? (vsixKiB <= budget ? ' ✓' : ' ✗') : ''} | | | |`);
  out.push('');
  out.push(`${results.date.slice(0, 10)}, ${m.cpu} (${m.cores} cores, ${m.memoryGiB} GiB), Node ${m.node}, ${m.os}.`);
  return out.join('\n') + '\n';
}

/** "one CPU", or how many the kernel could spread the processes over. */
function placementLabel(placement: Placement, results: BenchResults): string {
  return placement === 'oneCpu' ? 'one CPU' : `${results.machine.cores} CPUs`;
}
