import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeAccuracy, summarize, type AccuracyReport, type RunResult } from '../../bench/accuracy';

/**
 * The estimate against the published measured runs of bench/calibration/runs.json, through the same training layer as
 * `zero-lens estimate` (bench/accuracy.ts prints the full report: `npm run bench:accuracy`). The acceptance of issue 23
 * is asserted at full strength and marked todo while it is not met; the guards below fail on any change that makes
 * either half worse than it is now.
 */
let report: Promise<AccuracyReport> | undefined;
const accuracy = () => (report ??= computeAccuracy());

const zeroKinds = ['zero', 'ddp', 'single'];

/** ZeRO / DDP / one-GPU runs (or, with `kinds`, FSDP and Megatron runs) whose data length is known and whose features are all modelled. */
function compared(r: AccuracyReport, split: 'fit' | 'holdout', kinds = zeroKinds): RunResult[] {
  return r.results.filter((x) => x.run.split === split && kinds.includes(x.kind) && x.comparison === 'two-sided' && x.unmodelled.length === 0);
}

test('acceptance on the holdout half: median absolute error ≤ 10%, no estimate below 0.90 of the measured peak', { todo: 'not met yet: holdout median 12.5%, 10 runs below 0.90 (fit 11.4%, 10 below); the allocator growth over long variable-length runs (the ms-swift 1.x benchmark), ZeRO-3 offload residue, vLLM sleep residue and ms-swift LoRA headers not modelled (docs/memory-model.md §12)' }, async () => {
  const s = summarize(compared(await accuracy(), 'holdout'))!;
  assert.ok(s.medianAbsError <= 0.1, `median ${s.medianAbsError}`);
  assert.equal(s.below090, 0, `worst ${s.worstRatio} (${s.worstId})`);
});

test('guard: neither half gets worse than it is (median |err|, worst under-estimate)', async () => {
  const r = await accuracy();
  const fit = summarize(compared(r, 'fit'))!;
  const holdout = summarize(compared(r, 'holdout'))!;
  assert.ok(fit.count >= 20 && holdout.count >= 20);
  assert.ok(fit.medianAbsError <= 0.12, `fit median ${fit.medianAbsError}`);
  assert.ok(holdout.medianAbsError <= 0.13, `holdout median ${holdout.medianAbsError}`);
  assert.ok(fit.worstRatio >= 0.68, `fit worst ${fit.worstRatio} (${fit.worstId})`);
  assert.ok(holdout.worstRatio >= 0.59, `holdout worst ${holdout.worstRatio} (${holdout.worstId})`);
  assert.ok(fit.below090 <= 10 && holdout.below090 <= 10, `below 0.90: fit ${fit.below090}, holdout ${holdout.below090}`);
});

test('one-sided runs (data length unknown): the estimate at max_length is not below the measurement on the fit half', async () => {
  const one = (await accuracy()).results.filter((x) => x.run.split === 'fit' && x.comparison === 'one-sided' && x.unmodelled.length === 0);
  assert.ok(one.length >= 4);
  for (const r of one) assert.ok(r.ratio >= 1, `${r.run.id}: ${r.ratio}`);
});

test('every run that worked on a full card fits, unless it uses a feature the estimate does not model', async () => {
  const tooBig = (await accuracy()).results.filter((x) => zeroKinds.includes(x.kind) && x.run.gpuMemoryGiB && x.run.worked && x.fitsAsWritten === false);
  for (const r of tooBig) assert.ok(r.unmodelled.length > 0, `${r.run.id} (${r.run.split}) is called too big: ${r.asWrittenGiB.toFixed(1)} GiB > ${r.run.gpuMemoryGiB} GiB`);
});

test('device-map and Megatron-DeepSpeed runs are listed apart; FSDP and Megatron runs have figures of their own', async () => {
  const r = await accuracy();
  assert.deepEqual([...new Set(r.notModelled.map((x) => x.framework))].sort(), ['megatron-deepspeed', 'single-process device_map (naive model parallel)']);
  assert.ok(r.results.some((x) => x.kind === 'fsdp') && r.results.some((x) => x.kind === 'megatron'));
});

const parallelKinds = ['fsdp', 'megatron'];
/** Where the FSDP and Megatron figures stand (npm run bench:accuracy): fit 5.8% / worst 0.83, holdout 8.7% / worst 0.35. */
const GUARD = { fitMedian: 0.065, holdoutMedian: 0.09, fitWorst: 0.82, holdoutWorst: 0.34 };

test('FSDP and Megatron acceptance on the holdout half: median absolute error ≤ 10%, no estimate below 0.90', { todo: 'not met yet: holdout median 8.7%, but 5 runs below 0.90; FSDP with CPU offload runs low (docs/memory-model.md §11a)' }, async () => {
  const s = summarize(compared(await accuracy(), 'holdout', parallelKinds))!;
  assert.ok(s.medianAbsError <= 0.1, `median ${s.medianAbsError}`);
  assert.equal(s.below090, 0, `worst ${s.worstRatio} (${s.worstId})`);
});

test('guard: FSDP and Megatron figures get no worse than they are', async () => {
  const r = await accuracy();
  const fit = summarize(compared(r, 'fit', parallelKinds))!;
  const holdout = summarize(compared(r, 'holdout', parallelKinds))!;
  assert.ok(fit.count >= 8 && holdout.count >= 8, `${fit.count} / ${holdout.count}`);
  assert.ok(fit.medianAbsError <= GUARD.fitMedian, `fit median ${fit.medianAbsError}`);
  assert.ok(holdout.medianAbsError <= GUARD.holdoutMedian, `holdout median ${holdout.medianAbsError}`);
  assert.ok(fit.worstRatio >= GUARD.fitWorst, `fit worst ${fit.worstRatio} (${fit.worstId})`);
  assert.ok(holdout.worstRatio >= GUARD.holdoutWorst, `holdout worst ${holdout.worstRatio} (${holdout.worstId})`);
});
