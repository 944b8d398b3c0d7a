import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHeadline, renderReport } from '../../bench/report';
import type { BenchResults } from '../../bench/run';
import type { SessionResult } from '../../bench/session';
import type { Summary } from '../../bench/stats';

const s = (p95: number): Summary => ({ count: 400, median: p95 / 2, p95, max: p95 * 2 });

/** One server's session with the given p95s: edits across the CPUs, and on one CPU where given. */
function session(acrossMs: number, oneCpuMs?: number): SessionResult {
  const queries = { hover: s(0.5), completion: s(0.5), roundTrip: s(0.2), resolve: s(0.5), inServer: { hover: s(0.1), completion: s(0.1), roundTrip: s(0.05) } };
  return {
    coldStartToDiagnosticsMs: 300,
    diagnostics: s(acrossMs),
    diagnosticsInServer: s(acrossMs / 2),
    ...(oneCpuMs === undefined ? {} : { diagnosticsOneCpu: { client: s(oneCpuMs), inServer: s(oneCpuMs / 2) } }),
    queries: { oneCpu: queries, acrossCpus: queries },
    maxBlockedMs: 5,
    peakRssMiB: 80,
  };
}

function results(oneCpu: boolean): BenchResults {
  const sessions = ['typical (60 lines)', '2,000 lines'].flatMap((document) => [
    { document, lines: 60, bytes: 1400, server: 'ZeRO Lens', result: session(1.8, oneCpu ? 0.6 : undefined) },
    { document, lines: 60, bytes: 1400, server: 'JSON server', result: session(3.6, oneCpu ? 2.0 : undefined) },
  ]);
  return {
    date: '2026-11-27T00:00:00.000Z',
    machine: { cpu: 'test CPU', cores: 2, memoryGiB: 24, node: 'v20', os: 'Linux' },
    sessions,
    oneCpu: {},
    coldStart: { results: [], rounds: 0, codeCache: true },
    sizes: { coreJs: 0, clientJs: 0, webviewJs: 0, vsix: null, budgetKiB: null, components: [] },
    core: {},
  };
}

test('the headline judges diagnostics after an edit on one CPU as well as across the CPUs', () => {
  const headline = renderHeadline(results(true));
  const rows = headline.split('\n').filter((line) => line.includes('diagnostics after edit, p95'));
  assert.deepEqual(
    rows.map((row) => row.split(' | ').slice(0, 6)),
    [
      ['| typical (60 lines)', 'diagnostics after edit, p95', '2 CPUs', '1.80 ms', '3.60 ms', '0.50 ✓'],
      ['| typical (60 lines)', 'diagnostics after edit, p95', 'one CPU', '0.60 ms', '2.00 ms', '0.30 ✓'],
      ['| 2,000 lines', 'diagnostics after edit, p95', '2 CPUs', '1.80 ms', '3.60 ms', '0.50 ✓'],
      ['| 2,000 lines', 'diagnostics after edit, p95', 'one CPU', '0.60 ms', '2.00 ms', '0.30 ✓'],
    ],
  );
});

test('the report has a one-CPU edit table only where the edits ran there', () => {
  assert.match(renderReport(results(true)), /\| ZeRO Lens \| 0\.30 \/ 0\.60 \/ 1\.20 \| 0\.30 \| 150 \/ 300 \/ 600 \| 0\.30 \|/);
  assert.doesNotMatch(renderReport(results(false)), /diagnostics after edit, one CPU/);
});
