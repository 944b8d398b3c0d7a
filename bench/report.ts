/** Renders benchmark results as a Markdown report (also printed to the terminal). */
import type { BenchResults } from './run';

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
/** Milliseconds, or microseconds below 0.1 ms (the memory estimate takes a few µs). */
const duration = (v: number) => (v < 0.1 ? `${(v * 1000).toFixed(1)} µs` : `${ms(v)} ms`);
const kib = (v: number | null) => (v !== null && Number.isFinite(v) ? `${(v / 1024).toFixed(1)} KiB` : 'not built');

/** Which peer row a ZeRO Lens row is compared with: the shipped behaviour, or pure compute. */
const peerOf: Record<string, string> = { 'ZeRO Lens': 'JSON server', 'ZeRO Lens (no debounce)': 'JSON server (pull)' };

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const m = results.machine;
  out.push(`# ZeRO Lens benchmark`, '');
  out.push(`${results.date.slice(0, 10)} · ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB · Node ${m.node} · ${m.os}`, '');
  out.push('Latency in milliseconds (median / p95 / max). Ratio = ZeRO Lens p95 ÷ peer p95 in the same run.', '');
  out.push('"ZeRO Lens" and "JSON server" are the servers as shipped (validation debounced 120 ms and 500 ms);');
  out.push('"no debounce" and "pull" measure the validation work itself.', '');
  for (const documentName of [...new Set(results.sessions.map((s) => s.document))]) {
    const rows = results.sessions.filter((s) => s.document === documentName);
    const first = rows[0];
    out.push(`## ${documentName} (${first.lines} lines, ${(first.bytes / 1024).toFixed(0)} KiB)`, '');
    out.push('| server | diagnostics after edit | p95 ratio | hover | p95 ratio | completion | p95 ratio | cold start → diagnostics | longest block | peak RSS |');
    out.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) {
      const r = row.result;
      const peer = rows.find((p) => p.server === peerOf[row.server])?.result;
      const ratio = (mine: number, theirs: number | undefined) => (peer && theirs ? (mine / theirs).toFixed(2) : '');
      const triple = (s: { median: number; p95: number; max: number }) => `${ms(s.median)} / ${ms(s.p95)} / ${ms(s.max)}`;
      out.push(
        `| ${row.server} | ${triple(r.diagnostics)} | ${ratio(r.diagnostics.p95, peer?.diagnostics.p95)} | ${triple(r.hover)} | ${ratio(r.hover.p95, peer?.hover.p95)} | ${triple(r.completion)} | ${ratio(r.completion.p95, peer?.completion.p95)} | ${ms(r.coldStartToDiagnosticsMs)} | ${ms(r.maxBlockedMs)} | ${r.peakRssMiB.toFixed(0)} MiB |`,
      );
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
