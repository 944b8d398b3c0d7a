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

/**
 * Which peer row a row is compared with: the shipped behaviour, or pure compute. The floor is compared like
 * the no-debounce row: its ratio is the lowest a server on the same LSP library could reach in this run.
 */
const peerOf: Record<string, string> = {
  'ZeRO Lens': 'JSON server',
  'ZeRO Lens (no debounce)': 'JSON server (pull)',
  'LSP floor (no work)': 'JSON server (pull)',
};

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const m = results.machine;
  out.push(`# ZeRO Lens benchmark`, '');
  out.push(`${results.date.slice(0, 10)} · ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB · Node ${m.node} · ${m.os}`, '');
  out.push('Latency in milliseconds (median / p95 / max). Ratio = ZeRO Lens p95 ÷ peer p95 in the same run.', '');
  out.push('"ZeRO Lens" and "JSON server" are the servers as shipped (validation debounced 120 ms and 500 ms);');
  out.push('"no debounce" and "pull" measure the validation work itself. "Empty round trip" is a hover where there is');
  out.push('nothing to explain: the cost of one LSP request with no work, the floor under the hover and completion columns.');
  out.push('"LSP floor (no work)" is a server on the same library (vscode-languageserver) that answers with fixed content');
  out.push('and publishes empty diagnostics at once: its ratio is the lowest any such server could reach in this run.', '');
  out.push('Hover, completion and empty round trips are measured twice: wherever the kernel puts the processes, then');
  out.push('with the bench and every server on one CPU. On a small VM a wake-up on another CPU costs more than a hover');
  out.push('(see bench/README.md, "One CPU"); on one CPU the round trip measures the servers.', '');
  for (const documentName of [...new Set(results.sessions.map((s) => s.document))]) {
    const rows = results.sessions.filter((s) => s.document === documentName);
    const first = rows[0];
    const peerRow = (server: string) => rows.find((p) => p.server === peerOf[server])?.result;
    const ratio = (mine: number, theirs: number | undefined) => (theirs ? (mine / theirs).toFixed(2) : '');
    out.push(`## ${documentName} (${first.lines} lines, ${(first.bytes / 1024).toFixed(0)} KiB)`, '');
    out.push('| server | diagnostics after edit | p95 ratio | cold start → diagnostics | longest block | peak RSS |');
    out.push('|---|---|---|---|---|---|');
    for (const row of rows) {
      const r = row.result;
      out.push(`| ${row.server} | ${triple(r.diagnostics)} | ${ratio(r.diagnostics.p95, peerRow(row.server)?.diagnostics.p95)} | ${ms(r.coldStartToDiagnosticsMs)} | ${ms(r.maxBlockedMs)} | ${r.peakRssMiB.toFixed(0)} MiB |`);
    }
    out.push('');
    const outcome = results.oneCpu[documentName];
    if (outcome && 'unavailable' in outcome) out.push(`Not measured on one CPU: ${outcome.unavailable}.`, '');
    out.push('| server | measured on | hover | p95 ratio | completion | p95 ratio | empty round trip |');
    out.push('|---|---|---|---|---|---|---|');
    for (const placement of placements) {
      for (const row of rows) {
        const q = row.result.queries[placement];
        if (!q) continue;
        const peer = peerRow(row.server)?.queries[placement];
        out.push(`| ${row.server} | ${placementLabel(placement, results)} | ${triple(q.hover)} | ${ratio(q.hover.p95, peer?.hover.p95)} | ${triple(q.completion)} | ${ratio(q.completion.p95, peer?.completion.p95)} | ${triple(q.roundTrip)} |`);
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
        const peer = peerRow(row.server)?.queries[placement]?.inServer;
        out.push(`| ${row.server} | ${placementLabel(placement, results)} | ${tripleUs(own.hover)} | ${ratio(own.hover.p95, peer?.hover.p95)} | ${tripleUs(own.completion)} | ${ratio(own.completion.p95, peer?.completion.p95)} | ${tripleUs(own.roundTrip)} |`);
      }
    }
    out.push('');
  }
  out.push('## Sizes', '');
  out.push(`dist/server.js ${kib(results.sizes.serverJs)} · dist/client.js ${kib(results.sizes.clientJs)} · dist/webview.js ${kib(results.sizes.webviewJs)} · VSIX ${kib(results.sizes.vsix)}`, '');
  out.push('## Core', '');
  for (const [name, s] of Object.entries(results.core)) out.push(`- ${name}: median ${duration(s.median)}, p95 ${duration(s.p95)} (${s.count} runs)`);
  out.push('');
  return out.join('\n');
}

/** The few numbers the README quotes: p95 for the typical and 2,000-line documents, the 1 MB block, start, sizes. */
export function renderHeadline(results: BenchResults): string {
  const m = results.machine;
  const find = (document: string, server: string) => results.sessions.find((s) => s.document.startsWith(document) && s.server === server)?.result;
  const documentLabel = (document: string) => (document === 'typical' ? 'typical (60 lines)' : '2,000 lines');
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : '–');
  const servers = ['ZeRO Lens', 'JSON server', 'ZeRO Lens (no debounce)', 'JSON server (pull)', 'LSP floor (no work)'] as const;
  const out: string[] = [];
  out.push('| document | p95 of | measured on | ZeRO Lens | JSON server | ratio | ZeRO Lens (no debounce) | JSON server (pull) | ratio | LSP floor (no work) | ratio |');
  out.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const document of ['typical', '2,000']) {
    const row = (op: string, where: string, p95: (r: SessionResult) => number | undefined) => {
      const cells = servers.map((server) => { const r = find(document, server); return (r && p95(r)) ?? NaN; });
      out.push(`| ${documentLabel(document)} | ${op} | ${where} | ${ms(cells[0])} ms | ${ms(cells[1])} ms | ${ratio(cells[0], cells[1])} | ${ms(cells[2])} ms | ${ms(cells[3])} ms | ${ratio(cells[2], cells[3])} | ${ms(cells[4])} ms | ${ratio(cells[4], cells[3])} |`);
    };
    row('diagnostics', placementLabel('acrossCpus', results), (r) => r.diagnostics.p95);
    for (const op of ['hover', 'completion'] as const) {
      for (const placement of placements) row(op, placementLabel(placement, results), (r) => r.queries[placement]?.[op].p95);
    }
  }
  out.push('');
  out.push('| document | p95 inside the server of | measured on | ZeRO Lens | JSON server | ratio | LSP floor (no work) |');
  out.push('|---|---|---|---|---|---|---|');
  for (const document of ['typical', '2,000']) {
    for (const op of ['hover', 'completion'] as const) {
      for (const placement of placements) {
        const [own, peer, floor] = (['ZeRO Lens', 'JSON server', 'LSP floor (no work)'] as const).map((server) => find(document, server)?.queries[placement]?.inServer[op].p95 ?? NaN);
        out.push(`| ${documentLabel(document)} | ${op} | ${placementLabel(placement, results)} | ${us(own)} µs | ${us(peer)} µs | ${ratio(own, peer)} | ${us(floor)} µs |`);
      }
    }
  }
  out.push('');
  const huge = (server: string) => find('1 MB', server)?.maxBlockedMs ?? NaN;
  const cold = (server: string) => find('typical', server)?.coldStartToDiagnosticsMs ?? NaN;
  out.push(`- 1 MB config, longest time the server kept a request waiting while validating: ZeRO Lens ${ms(huge('ZeRO Lens'))} ms (no debounce ${ms(huge('ZeRO Lens (no debounce)'))} ms); JSON server ${ms(huge('JSON server'))} ms.`);
  out.push(`- Cold start to first diagnostics (typical config): ZeRO Lens ${ms(cold('ZeRO Lens'))} ms, JSON server ${ms(cold('JSON server'))} ms (each with its own debounce).`);
  out.push(`- Sizes: dist/server.js ${kib(results.sizes.serverJs)}, dist/client.js ${kib(results.sizes.clientJs)}, VSIX ${kib(results.sizes.vsix)}.`);
  out.push(`- ${results.date.slice(0, 10)}, ${m.cpu} (${m.cores} cores, ${m.memoryGiB} GiB), Node ${m.node}, ${m.os}.`);
  return out.join('\n') + '\n';
}

/** "one CPU", or how many the kernel could spread the processes over. */
function placementLabel(placement: Placement, results: BenchResults): string {
  return placement === 'oneCpu' ? 'one CPU' : `${results.machine.cores} CPUs`;
}
