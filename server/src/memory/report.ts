import type { EstimateResult, ZeroStage } from './types';
import { formatGiBValue } from '../protocol/format';
import { phaseLabel } from '../protocol/estimate';
import { english, type Translate } from '../protocol/l10n';
import { padColumns, textWidth } from '../util/textWidth';

/**
 * Plain-text tables of estimates, for the CLI and for anything else that prints them (hovers may reuse the
 * fit marks). Values are GiB, written as everywhere else (protocol/format.ts); fit is shown with a mark AND a word, never colour alone.
 * Words are in the reader's language (`t`); columns are padded by terminal width, so Chinese rows line up.
 */
export interface StageColumn {
  stage: ZeroStage;
  /** e.g. "ZeRO-3 + CPU offload (optimizer)"; the column header is "ZeRO-3", this goes in a legend. */
  label: string;
  result: EstimateResult | undefined;
}

export function fitMark(fits: boolean | null | undefined, t: Translate = english): string {
  if (fits === true) return t('✓ fits');
  if (fits === false) return t('✗ too big');
  return t('? no GPU size');
}

type Row = [name: string, value: (r: EstimateResult) => number];

/** The terms of the phase that sets the peak, then what the GPU holds besides live tensors. */
const terms = (t: Translate): Row[] => [
  [t('params'), (r) => r.perGpu.params],
  [t('gradients'), (r) => r.perGpu.gradients],
  [t('optimizer states'), (r) => r.perGpu.optimizerStates],
  [t('activations'), (r) => r.perGpu.activations],
  [t('buffers'), (r) => r.perGpu.buffers],
  [t('workspaces'), (r) => r.perGpu.temporaries],
  [t('other models'), (r) => r.perGpu.extraModels],
];
const overheads = (t: Translate): Row[] => [
  [t('allocator cache'), (r) => r.perGpu.allocatorCache],
  [t('CUDA context, NCCL'), (r) => r.perGpu.cudaContext],
];
const totals = (t: Translate): Row[] => [
  [t('total per GPU'), (r) => r.perGpu.total],
  [t('allocated (max)'), (r) => r.perGpu.allocated],
  [t('reserved (max)'), (r) => r.perGpu.reserved],
  [t('CPU per node'), (r) => r.perCpu.total],
  [t('NVMe per node'), (r) => r.nvme],
];

/** Stages side by side; `selected` is marked with "*" in its header. Rows that are zero for every stage are left out. */
export function formatStageTable(columns: StageColumn[], selected: ZeroStage | undefined, t: Translate = english): string {
  const headers = columns.map((c) => `ZeRO-${c.stage}${c.stage === selected ? ' *' : ''}`);
  const numbers = (rows: Row[], keepZero: boolean): string[][] =>
    rows
      .filter(([, get]) => keepZero || columns.some((c) => c.result && get(c.result) > 0))
      .map(([name, get]) => [name, ...columns.map((c) => (c.result ? formatGiBValue(get(c.result)) : '—'))]);
  const peak = [t('peak phase'), ...columns.map((c) => (c.result?.perGpu.peakPhase ? phaseLabel(c.result.perGpu.peakPhase, t) : '—'))];
  const upper = [peak, ...numbers(terms(t), false), ...numbers(overheads(t), true)];
  const lower = numbers(totals(t), true);
  lower.push([t({ message: 'fits', comment: 'row of the CLI table' }), ...columns.map((c) => (c.result ? fitMark(c.result.fits, t) : '—'))]);
  const body = [...upper, ...lower];
  const first = Math.max('GiB'.length, ...body.map((r) => textWidth(r[0])));
  const widths = headers.map((h, i) => Math.max(h.length, ...body.map((r) => textWidth(r[i + 1]))));
  const line = (cells: string[]) => [padColumns(cells[0], first, 'end'), ...cells.slice(1).map((c, i) => padColumns(c, widths[i], 'start'))].join('  ').trimEnd();
  const rule = '-'.repeat(first + widths.reduce((s, w) => s + w + 2, 0));
  const out = [line(['GiB', ...headers]), rule, ...upper.map(line), rule, ...lower.map(line)];
  const legend = columns.filter((c) => c.label !== `ZeRO-${c.stage}`).map((c) => `ZeRO-${c.stage}: ${c.label}`);
  if (legend.length) out.push('', ...legend);
  return out.join('\n') + '\n';
}
