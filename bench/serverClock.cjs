// Loaded into every server under test (`node --require bench/serverClock.cjs …`): the time from the server
// reading a request the bench labelled (`"zeroLensBench": "<label>"` in its params) to the server starting to
// write its answer. That is the server's own share of a round trip; the rest is pipes and process wake-ups,
// which on a small VM cost more than the work. Written at exit to the file ZERO_LENS_BENCH_CLOCK names.
'use strict';
const { writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');

const samples = {};
let pending;

// Watched through emit rather than a 'data' listener: a listener would start the flow of stdin before the
// server (an ES module loads asynchronously) listens, and the first messages would be lost.
const emit = process.stdin.emit;
process.stdin.emit = function (event, ...args) {
  if (event === 'data') {
    const start = performance.now();
    const label = labelOf(args[0]);
    // An unlabelled message read meanwhile (the answer to the server's own settings request) must not make the
    // labelled request go uncounted: only a new labelled request replaces the pending one.
    if (label) pending = { label, start };
  }
  return emit.call(this, event, ...args);
};

const marker = '"zeroLensBench":"';

/** The label of the request in this chunk; requests are small, a large chunk is a document's text. */
function labelOf(chunk) {
  if (typeof chunk === 'string' || chunk.length > 4096) return undefined;
  const at = chunk.indexOf(marker);
  if (at < 0) return undefined;
  const from = at + marker.length;
  return chunk.toString('latin1', from, chunk.indexOf('"', from));
}

const write = process.stdout.write;
process.stdout.write = function (...args) {
  if (pending) {
    (samples[pending.label] ??= []).push(performance.now() - pending.start);
    pending = undefined;
  }
  return write.apply(this, args);
};

const file = process.env.ZERO_LENS_BENCH_CLOCK;
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(samples)));
