import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zeroPaperModelStates, type ZeroStage } from '../../server/src/memory';

// ZeRO paper (Rajbhandari et al., SC'20) Table 1: per-device model-state memory in GB (1e9 bytes),
// K = 12, for 7.5B, 128B and 1T parameters and DP degrees 1…1024. Columns: P_os, P_os+g, P_os+g+p.
const table1: Record<string, Record<number, [string, string, string]>> = {
  '7.5e9': { 1: ['120', '120', '120'], 4: ['52.5', '41.3', '30'], 16: ['35.6', '21.6', '7.5'], 64: ['31.4', '16.6', '1.88'], 256: ['30.4', '15.4', '0.47'], 1024: ['30.1', '15.1', '0.12'] },
  '128e9': { 1: ['2048', '2048', '2048'], 4: ['896', '704', '512'], 16: ['608', '368', '128'], 64: ['536', '284', '32'], 256: ['518', '263', '8'], 1024: ['513', '257', '2'] },
  '1e12': { 1: ['16000', '16000', '16000'], 4: ['7000', '5500', '4000'], 16: ['4750', '2875', '1000'], 64: ['4187', '2218', '250'], 256: ['4046', '2054', '62.5'], 1024: ['4011', '2013', '15.6'] },
};

/**
 * How the paper prints a value: three-digit-and-up values as whole GB, cut off (4187.5 → 4187);
 * smaller ones rounded half up to the decimals the cell shows (41.25 → 41.3, 1.875 → 1.88).
 */
function asPrinted(gb: number, cell: string): string {
  if (gb >= 100) return String(Math.trunc(gb));
  const decimals = cell.includes('.') ? cell.split('.')[1].length : 0;
  const scale = 10 ** decimals;
  const rounded = Math.floor(gb * scale + 0.5 + 1e-9) / scale;
  return decimals ? rounded.toFixed(decimals) : String(rounded);
}

for (const [psiText, rows] of Object.entries(table1)) {
  const psi = Number(psiText);
  for (const [ndText, cells] of Object.entries(rows)) {
    const nd = Number(ndText);
    test(`ZeRO Table 1: Ψ=${psiText}, N_d=${nd}`, () => {
      const stages: ZeroStage[] = [1, 2, 3];
      stages.forEach((stage, i) => {
        const gb = zeroPaperModelStates(psi, nd, stage) / 1e9;
        assert.equal(asPrinted(gb, cells[i]), cells[i], `stage ${stage}: ${gb} GB`);
      });
      if (nd === 1) assert.equal(zeroPaperModelStates(psi, 1, 0) / 1e9, Number(cells[0]));
    });
  }
}

test('paper headline example: 7.5B on 64 GPUs goes 120 → 31.4 → 16.6 → 1.88 GB', () => {
  const gb = ([0, 1, 2, 3] as ZeroStage[]).map((s) => zeroPaperModelStates(7.5e9, 64, s) / 1e9);
  assert.deepEqual(gb.map((v) => v.toFixed(3)), ['120.000', '31.406', '16.641', '1.875']);
});
