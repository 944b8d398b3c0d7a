import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepSpeedTableRows, deepSpeedZero2, deepSpeedZero3, estimateDeepSpeed, formatDeepSpeedTable, deepSpeedGiB } from '../../server/src/memory';
import { fixed2Ratio } from '../../server/src/memory/units';

// t5-3b as DeepSpeed's memory.rst measures it: AutoModel.from_pretrained("t5-3b") ("live") and the
// rounded numbers of the `_all_cold` example. Exact counts from the t5-3b config (memory-model.md §1.5).
const live = { total: 2_851_598_336, largest: 32_899_072 };
const cold = { total: 2851e6, largest: 32e6 };

// [per CPU, per GPU] strings as memory.rst prints them, in DeepSpeed's row order.
const zero3Documented = {
  live: [['71.71', '0.12'], ['127.48', '0.12'], ['63.74', '0.79'], ['127.48', '0.79'], ['1.47', '6.10'], ['127.48', '6.10']],
  cold: [['71.69', '0.12'], ['127.45', '0.12'], ['63.72', '0.78'], ['127.45', '0.78'], ['1.43', '6.09'], ['127.45', '6.09']],
};
// ZeRO-2: offload row, then no-offload row. The no-offload GPU value changed in June 2024 (PR #5099).
const zero2Current = { live: [['127.48', '5.31'], ['127.48', '11.29']], cold: [['127.45', '5.31'], ['127.45', '11.28']] };
const zero2Legacy = { live: [['127.48', '5.31'], ['127.48', '15.93']], cold: [['127.45', '5.31'], ['127.45', '15.93']] };

function cells(rows: Array<{ cpu: number; gpu: number }>): string[][] {
  return rows.map((r) => [deepSpeedGiB(r.cpu), deepSpeedGiB(r.gpu)]);
}

for (const [name, model] of [['live', live], ['cold', cold]] as const) {
  test(`ZeRO-3 t5-3b ${name} rows print exactly as memory.rst documents`, () => {
    const rows = deepSpeedTableRows({ totalParams: model.total, largestLayerParams: model.largest, gpusPerNode: 8, nodes: 1, stage: 3 });
    assert.deepEqual(cells(rows), zero3Documented[name]);
  });
  test(`ZeRO-2 t5-3b ${name} rows: current code (11.2x) and legacy formula (15.93)`, () => {
    const current = deepSpeedTableRows({ totalParams: model.total, largestLayerParams: model.largest, gpusPerNode: 8, nodes: 1, stage: 2 });
    assert.deepEqual(cells(current), zero2Current[name]);
    const legacy = deepSpeedTableRows({ totalParams: model.total, largestLayerParams: model.largest, gpusPerNode: 8, nodes: 1, stage: 2, legacyZero2: true });
    assert.deepEqual(cells(legacy), zero2Legacy[name]);
  });
}

test('byte results equal the formulas of stage3.py, evaluated as Python does (int() truncation)', () => {
  const P = live.total;
  const LL = live.largest;
  const largestMemory = 4 * LL;
  // offload both, zero_init=1: P*18*(1/nodes)*1.5
  assert.deepEqual(deepSpeedZero3(P, LL, 8, 1, true, true, true), { cpu: 76_993_155_072, gpu: 131_596_288, largestLayerMemory: largestMemory });
  // offload both, zero_init=0: P*max(4*8, 18)*1.5
  assert.equal(deepSpeedZero3(P, LL, 8, 1, true, true, false).cpu, P * 32 * 1.5);
  // optimizer only: gpu = 4*LL + int(2P/8)
  assert.equal(deepSpeedZero3(P, LL, 8, 1, true, false, true).gpu, largestMemory + Math.floor((2 * P) / 8));
  assert.equal(deepSpeedZero3(P, LL, 8, 1, true, false, true).cpu, 68_438_360_064);
  // no offload: gpu = 4*LL + int(18P/8); cpu = LL*4*8*1.5 with zero_init
  assert.deepEqual(deepSpeedZero3(P, LL, 8, 1, false, false, true), { cpu: 1_579_155_456, gpu: 6_547_692_544, largestLayerMemory: largestMemory });
  assert.equal(deepSpeedZero3(P, LL, 8, 1, false, false, false).cpu, 136_876_720_128);
});

test('byte results equal the formulas of stage_1_and_2.py, current and legacy', () => {
  const P = live.total;
  assert.deepEqual(deepSpeedZero2(P, 8, 1, true), { cpu: 136_876_720_128, gpu: 2 * P });
  assert.deepEqual(deepSpeedZero2(P, 8, 1, false), { cpu: 136_876_720_128, gpu: 12_119_292_928 });
  assert.equal(deepSpeedZero2(P, 8, 1, false, 1.5, true).gpu, 17_109_590_016);
  assert.deepEqual(deepSpeedZero2(cold.total, 8, 1, false), { cpu: 136_848_000_000, gpu: 12_116_750_000 });
});

test('multi-node: ZeRO-2 offload CPU uses all GPUs (the code quirk), ZeRO-3 divides by nodes', () => {
  const P = 8_030_261_248; // Llama-3.1-8B
  const LL = 525_336_576;
  // 4 nodes × 8 GPUs: max(4*32, 16) = 128 per param, not max(4*8, 16) = 32 as the docs say.
  assert.deepEqual(deepSpeedZero2(P, 8, 4, true), { cpu: 1_541_810_159_616, gpu: 16_060_522_496 });
  assert.deepEqual(deepSpeedZero2(P, 8, 4, false), { cpu: 385_452_539_904, gpu: 20_577_544_448 });
  assert.equal(deepSpeedZero3(P, LL, 8, 4, true, true, true).cpu, 54_204_263_424);
  assert.equal(deepSpeedZero3(P, LL, 8, 4, true, false, true).gpu, 2_603_237_632);
  assert.equal(deepSpeedZero3(P, LL, 8, 4, false, false, true).gpu, 6_618_368_256);
  assert.equal(deepSpeedZero3(P, LL, 8, 4, false, false, true).cpu, 25_216_155_648);
});

test('float evaluation order matches Python where it matters (1/3 nodes)', () => {
  // Python: int(1234567891 * 18 * (1/3) * 1.5) = 11111111019; a different order gives 11111111018.
  assert.equal(deepSpeedZero3(1_234_567_891, 98_765_431, 5, 3, true, true, true).cpu, 11_111_111_019);
  assert.equal(deepSpeedZero3(70_553_706_496, 1_050_673_152, 3, 3, true, false, false).gpu, 19_881_294_051);
  assert.equal(deepSpeedZero3(70_553_706_496, 1_050_673_152, 3, 3, true, false, false).cpu, 1_269_966_716_928);
  assert.equal(deepSpeedZero2(70_553_706_496, 7, 3, false).gpu, 201_582_018_560);
});

test('estimateDeepSpeed takes the contract input; param offload alone has no DeepSpeed row', () => {
  const base = { totalParams: live.total, largestLayerParams: live.largest, gpusPerNode: 8, nodes: 1, zeroInit: true, additionalBufferFactor: 1.5, legacyZero2: false };
  assert.equal(estimateDeepSpeed({ ...base, stage: 2, offloadOptimizer: false, offloadParam: false }).gpu, 12_119_292_928);
  assert.equal(estimateDeepSpeed({ ...base, stage: 3, offloadOptimizer: true, offloadParam: true }).cpu, 76_993_155_072);
  assert.equal(estimateDeepSpeed({ ...base, stage: 3, offloadOptimizer: false, offloadParam: true }).gpu, 6_547_692_544);
});

test('the printed table has DeepSpeed\'s header, column layout and option strings', () => {
  const text = formatDeepSpeedTable({ totalParams: live.total, largestLayerParams: live.largest, gpusPerNode: 8, nodes: 1, stage: 3 });
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'Estimated memory needed for params, optim states and gradients for a:');
  assert.equal(lines[1], 'HW: Setup with 1 node, 8 GPUs per node.');
  assert.equal(lines[2], 'SW: Model with 2851M total params, 32M largest layer params.');
  assert.equal(lines[3], '  per CPU  |  per GPU |   Options');
  assert.equal(lines[4], '   71.71GB |   0.12GB | offload_param=cpu , offload_optimizer=cpu , zero_init=1');
  assert.equal(lines[9], '  127.48GB |   6.10GB | offload_param=none, offload_optimizer=none, zero_init=0');
  const two = formatDeepSpeedTable({ totalParams: live.total, largestLayerParams: 0, gpusPerNode: 1, nodes: 2, stage: 2 }).split('\n');
  assert.equal(two[1], 'HW: Setup with 2 nodes, 1 GPU per node.');
  assert.equal(two[2], 'SW: Model with 2851M total params.');
  assert.match(two[5], /\| offload_optimizer=none$/);
});

test('two-decimal formatting rounds ties to even like Python, not up like toFixed', () => {
  assert.equal(fixed2Ratio(1, 8), '0.12'); // 0.125
  assert.equal(fixed2Ratio(3, 8), '0.38'); // 0.375
  assert.equal(fixed2Ratio(5, 8), '0.62'); // 0.625
  assert.equal(deepSpeedGiB(0), '0.00');
  assert.equal(deepSpeedGiB(2 ** 30 * 127), '127.00');
});
