import type { EstimateResult, ZeroStage } from './types';
import { formatGiBValue } from '../protocol/format';
import { phaseLabel } from '../protocol/estimate';

/**
 * Plain-text tables of estimates, for the CLI and for anything else that prints them (hovers may reuse the
 * fit marks). Values are GiB, written as everywhere else (protocol/format.ts); fit is shown with a mark AND a word, never colour alone.
 */
export interface StageColumn {
  stage: ZeroStage;
  /** e.g. "ZeRO-3 + CPU offload (optimizer)"; the column header is "ZeRO-3", this goes in a legend. */
  label: string;
  result: EstimateResult | undefined;
}

export function fitMark(fits: boolean | null | undefined): string {
  if (fits === true) return '✓ fits';
  if (fits === false) return '✗ too big';
  return '? no GPU size';
}

/** The terms of the phase that sets the peak, then what the GPU holds besides live tensors. */
const terms: Array<[string, (r: EstimateResult) => number]> = [
  ['params', (r) => r.perGpu.params],
  ['gradients', (r) => r.perGpu.gradients],
  ['optimizer states', (r) => r.perGpu.optimizerStates],
  ['activations', (r) => r.perGpu.activations],
  ['buffers', (r) => r.perGpu.buffers],
  ['step workspaces', (r) => r.perGpu.temporaries],
  ['other models', (r) => r.perGpu.extraModels],
];
const overheads: Array<[string, (r: EstimateResult) => number]> = [
  ['allocator cache', (r) => r.perGpu.allocatorCache],
  ['CUDA context, NCCL', (r) => r.perGpu.cudaContext],
];
const totals: Array<[string, (r: EstimateResult) => number]> = [
  ['total per GPU', (r) => r.perGpu.total],
  ['allocated (max)', (r) => r.perGpu.allocated],
  ['reserved (max)', (r) => r.perGpu.reserved],
  ['CPU per node', (r) => r.perCpu.total],
  ['NVMe per node', (r) => r.nvme],
];

/** Stages side by side; `selected` is marked with "*" in its header. Rows that are zero for every stage are left out. */
export function formatStageTable(columns: StageColumn[], selected: ZeroStage | undefined): string {
  const headers = columns.map((c) => `ZeRO-${c.stage}${c.stage === selected ? ' *' : ''}`);
  const numbers = (rows: Array<[string, (r: EstimateResult) => number]>, keepZero: boolean): string[][] =>
    rows
      .filter(([, get]) => keepZero || columns.some((c) => c.result && get(c.result) > 0))
      .map(([name, get]) => [name, ...columns.map((c) => (c.result ? formatGiBValue(get(c.result)) : '—'))]);
  const peak = ['peak phase', ...columns.map((c) => (c.result?.perGpu.peakPhase ? phaseLabel(c.result.perGpu.peakPhase) : '—'))];
  const upper = [peak, ...numbers(terms, false), ...numbers(overheads, true)];
  const lower = numbers(totals, true);
  lower.push(['fits', ...columns.map((c) => (c.result ? fitMark(c.result.fits) : '—'))]);
  const body = [...upper, ...lower];
  const first = Math.max('GiB'.length, ...body.map((r) => r[0].length));
  const widths = headers.map((h, i) => Math.max(h.length, ...body.map((r) => r[i + 1].length)));
  const line = (cells: string[]) => [cells[0].padEnd(first), ...cells.slice(1).map((c, i) => c.padStart(widths[i]))].join('  ').trimEnd();
  const rule = '-'.repeat(first + widths.reduce((s, w) => s + w + 2, 0));
  const out = [line(['GiB', ...headers]), rule, ...upper.map(line), rule, ...lower.map(line)];
  const legend = columns.filter((c) => c.label !== `ZeRO-${c.stage}`).map((c) => `ZeRO-${c.stage}: ${c.label}`);
  if (legend.length) out.push('', ...legend);
  return out.join('\n') + '\n';
}
