import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * The watchdog thread and V8's flags belong to the whole process: each case runs in a process of its own, with
 * the test's TypeScript loader, and prints what it found as JSON.
 */
const root = path.resolve(__dirname, '../..');
function inOwnProcess(body: string): unknown {
  const script = `
const { applyServerV8Flags } = require('./server/src/v8Flags');
const watch = require('./server/src/clientWatch');
const { getHeapSpaceStatistics } = require('node:v8');
const newSpaceMiB = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
/** Garbage of which much survives a scavenge, as a parse's is: what makes V8 grow its young generation. */
function survivingGarbage() {
  const kept = [];
  let most = 0;
  for (let round = 0; round < 40; round++) {
    kept.push(Array.from({ length: 100000 }, (_, i) => ({ i, s: 'x' + i })));
    if (kept.length > 3) kept.shift();
    most = Math.max(most, newSpaceMiB());
  }
  return most;
}
// Keeps the process up, as the server's stdin does: the thread is unref'd and would not.
const alive = setInterval(() => undefined, 1000);
(async () => { ${body} })().then((r) => process.stdout.write(JSON.stringify(r)), (e) => { console.error(e); process.exitCode = 1; }).finally(() => clearInterval(alive));
`;
  const out = execFileSync(process.execPath, ['--require', './test/setup/compileTypeScript.cjs', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out);
}

test('the watchdog thread starts only for a huge text, and once', () => {
  const result = inOwnProcess(`
watch.startClientWatch(() => undefined);
const small = watch.watchedFor('{"zero_optimization": {"stage": 3}}');
const startedBySmall = watch.watchdogStarted();
const first = watch.watchedFor(' '.repeat(200 * 1024));
const second = watch.watchedFor(' '.repeat(300 * 1024));
await first;
return { small: small === undefined, startedBySmall, started: watch.watchdogStarted(), once: first === second };
`);
  assert.deepEqual(result, { small: true, startedBySmall: false, started: true, once: true });
});

test("once the watchdog thread runs, the server's V8 flags hold again: the young generation stays small", () => {
  // Control: a new isolate (the thread's) sets the growth factor back to V8's minimum, and the space grows.
  const reset = inOwnProcess(`
applyServerV8Flags();
const { Worker } = require('node:worker_threads');
await new Promise((resolve) => { const w = new Worker('setTimeout(() => {}, 10)', { eval: true }); w.once('online', resolve); w.unref(); });
return survivingGarbage();
`) as number;
  const watched = inOwnProcess(`
applyServerV8Flags();
watch.startClientWatch(() => undefined);
await watch.watchedFor(' '.repeat(200 * 1024));
return survivingGarbage();
`) as number;
  assert.ok(reset > 8, `control: the young generation grew to ${reset} MiB`);
  assert.ok(watched <= 4, `with the watchdog thread running: ${watched} MiB`);
});
