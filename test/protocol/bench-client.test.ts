import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol';
import { startRawServer } from '../../bench/rawClient';
import { readServerClock, withServerClock } from '../../bench/session';
import { expand, pinToOneCpu } from '../../bench/cpuPinning';

// The bench measures through its own framing client: it must speak LSP to the real server as an editor does.
test('the bench client initializes the bundled server, gets diagnostics and hovers, and shuts it down', async () => {
  const server = await startRawServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-bench-client/ds_config.json';
    const published = server.diagnostics(uri, (d) => d.some((x) => x.code === 'fp16-and-bf16'));
    server.open(uri, 'ds-config', '{\n  "fp16": { "enabled": true },\n  "bf16": { "enabled": true }\n}\n');
    assert.equal((await published).uri, uri);
    const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.match(JSON.stringify(hover?.contents), /fp16/);
    await assert.rejects(server.request('zeroLens/noSuchRequest', {}), /-32601/);
  } finally {
    await server.stop();
  }
  assert.equal(server.process.exitCode, 0);
});

// The bench asks every server for diagnostics as VS Code does, by pull; the floor answers at once with none.
test('the bench client pulls diagnostics from the bundled server and from the floor server', async () => {
  const floor = { path: process.execPath, args: [path.resolve(__dirname, '../../bench/floorServer.mjs'), '--stdio'] };
  const uri = 'file:///tmp/zero-lens-bench-client/pull/ds_config.json';
  for (const [name, command] of [['ZeRO Lens', undefined], ['floor', floor]] as const) {
    const server = await startRawServer({ command, pull: true });
    try {
      server.open(uri, name === 'ZeRO Lens' ? 'ds-config' : 'json', '{\n  "fp16": { "enabled": true },\n  "bf16": { "enabled": true }\n}\n');
      const report = await server.request<{ kind: string; items: { code?: unknown }[] }>('textDocument/diagnostic', { textDocument: { uri } });
      assert.equal(report.kind, 'full', name);
      if (name === 'floor') assert.deepEqual(report.items, []);
      else assert.ok(report.items.some((d) => d.code === 'fp16-and-bf16'), JSON.stringify(report.items));
    } finally {
      await server.stop();
    }
  }
});

// The bench's clock inside each server: a labelled request is timed from the server reading it to its answer.
test('the server clock times labelled requests inside the bundled server and the peer, and nothing else', async () => {
  const peer = { path: process.execPath, args: [path.resolve(__dirname, '../../node_modules/vscode-langservers-extracted/bin/vscode-json-language-server'), '--stdio'] };
  for (const [name, command] of [['ZeRO Lens', undefined], ['JSON server', peer]] as const) {
    const clockFile = path.join(os.tmpdir(), `zero-lens-clock-test-${process.pid}-${name.replace(/ /g, '-')}.json`);
    const server = await startRawServer(withServerClock({ command }, clockFile));
    const uri = 'file:///tmp/zero-lens-bench-client/ds_config.json';
    try {
      server.open(uri, name === 'ZeRO Lens' ? 'ds-config' : 'json', '{\n  "fp16": { "enabled": true }\n}\n');
      for (let i = 0; i < 3; i++) await server.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 }, zeroLensBench: 'hover' });
      await server.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
      await server.request('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 3 }, zeroLensBench: 'completion' });
    } finally {
      await server.stop();
    }
    const timings = readServerClock(clockFile);
    assert.deepEqual(Object.keys(timings).sort(), ['completion', 'hover'], `${name}: only labelled requests are timed`);
    assert.equal(timings.hover.count, 3, `${name}: the unlabelled hover is not counted`);
    assert.equal(timings.completion.count, 1, name);
    assert.ok(timings.hover.median > 0 && timings.hover.max < 1000, `${name}: ${JSON.stringify(timings.hover)}`);
    assert.equal(existsSync(clockFile), false, 'the file is removed once read');
  }
});

/** Every thread's allowed CPUs, as the kernel reports them. */
function threadCpus(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))?.[1] ?? '?');
}

// The one-CPU query phase: the bench and every server, all their threads, on one CPU, and back afterwards.
test('pinning puts every thread of the bench and the server on one CPU, and release gives their CPUs back', async () => {
  const server = await startRawServer();
  const pids = [process.pid, server.process.pid!];
  try {
    const before = pids.map(threadCpus);
    const allowed = expand(before[0][0]);
    const pinned = pinToOneCpu(pids);
    if (allowed.length < 2) {
      assert.deepEqual(pinned, { unavailable: `the bench may use only ${allowed.length} CPU` });
      return;
    }
    assert.ok('cpu' in pinned, JSON.stringify(pinned));
    assert.equal(pinned.cpu, allowed[allowed.length - 1]);
    for (const pid of pids) assert.deepEqual(new Set(threadCpus(pid)), new Set([String(pinned.cpu)]), `pid ${pid}`);
    // The pinned server still answers.
    const uri = 'file:///tmp/zero-lens-bench-client/pinned/ds_config.json';
    server.open(uri, 'ds-config', '{\n  "fp16": { "enabled": true }\n}\n');
    const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.match(JSON.stringify(hover?.contents), /fp16/);
    pinned.release();
    assert.deepEqual(pids.map((pid) => new Set(threadCpus(pid))), before.map((cpus) => new Set(cpus)));
  } finally {
    await server.stop();
  }
});

test('CPU lists as taskset prints them expand to CPU numbers', () => {
  assert.deepEqual(expand('0-2,5'), [0, 1, 2, 5]);
  assert.deepEqual(expand('1'), [1]);
  assert.deepEqual(expand(''), []);
});
