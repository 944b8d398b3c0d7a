/**
 * The sidebar's view model: turns the server's EstimateView into everything the webview draws
 * (bar fractions, capacity line, labels, colours by role, fit state, table rows, context sources).
 * Pure — no vscode import — so the picture's arithmetic is unit-tested without an editor.
 */
import {
  describeSource,
  formatCount,
  formatGiB,
  GiB,
  normalizeOption,
  phaseLabels,
  sameOption,
  settingCanChange,
  type EstimateView,
  type OffloadDevice,
  type StageOption,
  type TrainingContextView,
  type ZeroOption,
} from '../../../server/src/protocol';
import { fileNameOf } from './format';

export type SegmentRole = 'params' | 'gradients' | 'optimizerStates' | 'activations' | 'buffers' | 'temporaries' | 'extraModels' | 'overhead';
export type OffloadRole = 'cpu' | 'nvme';
export type Pattern = 'solid' | 'diagonal' | 'diagonal-reverse' | 'dots' | 'cross' | 'grid' | 'horizontal' | 'vertical';
export type FitState = 'fits' | 'exceeds' | 'unknown';

export interface RoleStyle {
  label: string;
  /** One or two letters drawn inside wide segments, so the bar reads without colour. */
  short: string;
  /** A theme colour variable, so light, dark and high-contrast themes all work. */
  colorVar: string;
  pattern: Pattern;
}

export const SEGMENT_ROLES: readonly SegmentRole[] = ['params', 'gradients', 'optimizerStates', 'activations', 'buffers', 'temporaries', 'extraModels', 'overhead'];

export const ROLE_STYLES: Readonly<Record<SegmentRole | OffloadRole, RoleStyle>> = {
  params: { label: 'Parameters', short: 'P', colorVar: '--vscode-charts-blue', pattern: 'solid' },
  gradients: { label: 'Gradients', short: 'G', colorVar: '--vscode-charts-orange', pattern: 'diagonal' },
  optimizerStates: { label: 'Optimizer states', short: 'O', colorVar: '--vscode-charts-purple', pattern: 'cross' },
  activations: { label: 'Activations', short: 'A', colorVar: '--vscode-charts-green', pattern: 'dots' },
  buffers: { label: 'Buffers', short: 'B', colorVar: '--vscode-charts-yellow', pattern: 'horizontal' },
  temporaries: { label: 'Step workspaces', short: 'W', colorVar: '--vscode-charts-lines', pattern: 'grid' },
  extraModels: { label: 'Other models (reference, teacher, vLLM)', short: 'M', colorVar: '--vscode-charts-foreground', pattern: 'diagonal-reverse' },
  overhead: { label: 'Overhead (allocator cache, CUDA context, NCCL)', short: 'X', colorVar: '--vscode-charts-red', pattern: 'vertical' },
  cpu: { label: 'CPU RAM per node', short: 'C', colorVar: '--vscode-charts-foreground', pattern: 'solid' },
  nvme: { label: 'NVMe', short: 'N', colorVar: '--vscode-charts-foreground', pattern: 'diagonal' },
};

/** What the extension knows about the active document's estimate; the store produces it. */
export type EstimateState =
  | { kind: 'no-document' }
  | { kind: 'loading'; uri: string }
  | { kind: 'unavailable'; uri: string; reason: string }
  | { kind: 'not-claimed'; uri: string }
  | { kind: 'ready'; view: EstimateView };

/** A bar's option: a stage with its offload choices, as the protocol defines it. */
export type OptionKey = ZeroOption;

export interface SegmentVM {
  role: SegmentRole | OffloadRole;
  bytes: number;
  /** Share of the axis (0..1) and where the segment starts on it. */
  fraction: number;
  offset: number;
  /** "3.5 GiB", written as everywhere else. */
  value: string;
  /** "Parameters: 3.52 GiB", for title and aria-label. */
  description: string;
  style: RoleStyle;
}

export interface BarVM {
  key: string;
  option: OptionKey;
  label: string;
  current: boolean;
  totalBytes: number;
  total: string;
  /** Live tensors at the peak (torch's max_memory_allocated), beside the total the fit is judged on. */
  allocatedBytes: number;
  allocated: string;
  /** The phase of the run that sets the peak ("optimizer step"); empty where none is modelled. */
  peakPhase: string;
  fit: FitState;
  /** "fits 80 GiB", "exceeds by 3.1 GiB", "capacity unknown". */
  fitLabel: string;
  /** "≈ 19.2 GiB/GPU · fits 80 GiB": the one-line summary used by the status item and quick pick. */
  summary: string;
  segments: SegmentVM[];
  offload: { segments: SegmentVM[]; label: string; cpuBytes: number; nvmeBytes: number };
  ariaLabel: string;
  notes: string[];
}

export interface TableVM {
  headers: string[];
  rows: { key: string; current: boolean; cells: string[] }[];
}

export type ContextKey = keyof TrainingContextView;

export interface ContextRowVM {
  key: ContextKey;
  label: string;
  display: string;
  raw: string | number | boolean | null;
  source: string;
  /** True when the value comes from settings or a default, so editing the input changes the estimate. */
  settable: boolean;
}

export interface SidebarViewModel {
  status: EstimateState['kind'];
  uri: string | null;
  fileName: string | null;
  kindLabel: string | null;
  /** Plain sentence for the status line; empty when the picture speaks. */
  message: string;
  missing: string[];
  axis: { maxBytes: number; ticks: { fraction: number; label: string }[] };
  capacity: { bytes: number; fraction: number; label: string } | null;
  offloadAxisMaxBytes: number;
  bars: BarVM[];
  table: TableVM;
  context: ContextRowVM[];
  legend: { role: SegmentRole | OffloadRole; style: RoleStyle }[];
}

const KIND_LABELS: Record<EstimateView['kind'], string> = {
  'ds-config': 'DeepSpeed config',
  'launch-script': 'launch script',
  'launch-yaml': 'launch YAML',
};

const MISSING_LABELS: Record<string, string> = {
  model: 'a model',
  gpuMemoryGiB: 'GPU memory',
  gpusPerNode: 'GPUs per node',
  nodes: 'nodes',
  sequenceLength: 'sequence length',
  microBatchSize: 'micro-batch',
  dtype: 'precision',
};

export const CONTEXT_LABELS: Record<ContextKey, string> = {
  model: 'Model',
  gpusPerNode: 'GPUs per node',
  nodes: 'Nodes',
  gpuMemoryGiB: 'GPU memory (GiB)',
  sequenceLength: 'Sequence length',
  microBatchSize: 'Micro-batch per GPU',
  gradientCheckpointing: 'Gradient checkpointing',
  loraRank: 'LoRA rank',
  dtype: 'Precision',
};

const CONTEXT_ORDER: readonly ContextKey[] = [
  'model',
  'gpusPerNode',
  'nodes',
  'gpuMemoryGiB',
  'sequenceLength',
  'microBatchSize',
  'gradientCheckpointing',
  'loraRank',
  'dtype',
];

export function optionKey(option: OptionKey): string {
  return `z${option.stage}-opt-${option.offloadOptimizer}-param-${option.offloadParam}`;
}

export function buildViewModel(state: EstimateState): SidebarViewModel {
  const base: SidebarViewModel = {
    status: state.kind,
    uri: state.kind === 'no-document' ? null : state.kind === 'ready' ? state.view.uri : state.uri,
    fileName: null,
    kindLabel: null,
    message: '',
    missing: [],
    axis: { maxBytes: 0, ticks: [] },
    capacity: null,
    offloadAxisMaxBytes: 0,
    bars: [],
    table: { headers: TABLE_HEADERS, rows: [] },
    context: [],
    legend: SEGMENT_ROLES.map((role) => ({ role, style: ROLE_STYLES[role] })),
  };
  if (base.uri) base.fileName = fileNameOf(base.uri);
  switch (state.kind) {
    case 'no-document':
      return { ...base, message: 'Open a DeepSpeed config (ds_config.json) or a launch script to see its memory estimate.' };
    case 'loading':
      return { ...base, message: 'Estimating…' };
    case 'unavailable':
      return { ...base, message: `No estimate yet: ${state.reason}` };
    case 'not-claimed':
      return { ...base, message: `${base.fileName} is not a DeepSpeed config or launch script.` };
    case 'ready':
      return buildReady(base, state.view);
  }
}

function buildReady(base: SidebarViewModel, view: EstimateView): SidebarViewModel {
  const capacityBytes = capacityOf(view);
  const current = findCurrent(view.options, view.current);
  const maxTotal = Math.max(0, ...view.options.map((o) => Math.max(o.result.perGpu.total, sumGpu(o))));
  const axisMax = niceAxisMax(Math.max(maxTotal, capacityBytes ?? 0));
  const offloadMax = Math.max(0, ...view.options.map((o) => o.result.perCpu.total + o.result.nvme));
  const bars = view.options.map((option) => buildBar(option, option === current, axisMax, offloadMax, capacityBytes));
  const missing = view.missing.map((m) => MISSING_LABELS[m] ?? m);
  let message = '';
  if (view.options.length === 0) {
    message = missing.length ? `No estimate yet: set ${joinWords(missing)} below.` : 'No estimate yet for this file.';
  } else if (missing.length) {
    message = `Set ${joinWords(missing)} to complete the estimate.`;
  }
  return {
    ...base,
    kindLabel: KIND_LABELS[view.kind] ?? view.kind,
    message,
    missing: view.missing,
    axis: { maxBytes: axisMax, ticks: view.options.length ? ticksFor(axisMax) : [] },
    capacity:
      capacityBytes === undefined || view.options.length === 0
        ? null
        : { bytes: capacityBytes, fraction: clamp01(capacityBytes / axisMax), label: `GPU capacity ${formatGiB(capacityBytes)}` },
    offloadAxisMaxBytes: offloadMax,
    bars,
    table: { headers: TABLE_HEADERS, rows: bars.map(tableRow) },
    context: contextRows(view.context),
  };
}

function capacityOf(view: EstimateView): number | undefined {
  if (typeof view.gpuMemoryBytes === 'number' && view.gpuMemoryBytes > 0) return view.gpuMemoryBytes;
  const gib = view.context.gpuMemoryGiB?.value;
  return typeof gib === 'number' && gib > 0 ? gib * GiB : undefined;
}

/** Exact match first; otherwise the same stage with the same "offloaded or not" shape (cpu vs nvme). */
export function findCurrent(options: readonly StageOption[], current: EstimateView['current']): StageOption | undefined {
  if (!current) return undefined;
  const norm = normalizeOption(current);
  const exact = options.find((o) => sameOption(o, norm));
  if (exact) return exact;
  const offloaded = (d: OffloadDevice) => d !== 'none';
  return options.find((o) => {
    const n = normalizeOption(o);
    return n.stage === norm.stage && offloaded(n.offloadOptimizer) === offloaded(norm.offloadOptimizer) && offloaded(n.offloadParam) === offloaded(norm.offloadParam);
  });
}

function sumGpu(option: StageOption): number {
  const g = option.result.perGpu;
  return SEGMENT_ROLES.reduce((sum, role) => sum + Math.max(0, g[role]), 0);
}

function buildBar(option: StageOption, current: boolean, axisMax: number, offloadMax: number, capacity: number | undefined): BarVM {
  const gpu = option.result.perGpu;
  const segments = layout(
    SEGMENT_ROLES.map((role) => ({ role, bytes: gpu[role] })),
    axisMax,
  );
  const cpuBytes = Math.max(0, option.result.perCpu.total);
  const nvmeBytes = Math.max(0, option.result.nvme);
  const offloadSegments = layout(
    [
      { role: 'cpu' as const, bytes: cpuBytes },
      { role: 'nvme' as const, bytes: nvmeBytes },
    ],
    offloadMax,
  );
  const total = gpu.total > 0 ? gpu.total : sumGpu(option);
  const fit = fitOf(option.result.fits, total, capacity);
  const fitLabel = fitLabelOf(fit, total, capacity);
  const totalLabel = formatGiB(total);
  const allocatedBytes = gpu.allocated ?? 0;
  const allocatedLabel = formatGiB(allocatedBytes);
  const peakPhase = gpu.peakPhase ? phaseLabels[gpu.peakPhase] : '';
  const peakWords = peakPhase ? `; peak: ${peakPhase}` : '';
  const offloadLabel =
    cpuBytes === 0 && nvmeBytes === 0
      ? 'no CPU RAM or NVMe needed'
      : [`CPU RAM ${formatGiB(cpuBytes)}/node`, nvmeBytes > 0 ? `NVMe ${formatGiB(nvmeBytes)}` : ''].filter(Boolean).join(' · ');
  const option0: OptionKey = { stage: option.stage, offloadOptimizer: option.offloadOptimizer, offloadParam: option.offloadParam };
  return {
    key: optionKey(option0),
    option: option0,
    label: option.label,
    current,
    totalBytes: total,
    total: totalLabel,
    allocatedBytes,
    allocated: allocatedLabel,
    peakPhase,
    fit,
    fitLabel,
    summary: `≈ ${totalLabel}/GPU (${allocatedLabel} allocated${peakWords}) · ${fitLabel}`,
    segments,
    offload: { segments: offloadSegments, label: offloadLabel, cpuBytes, nvmeBytes },
    ariaLabel: `${option.label}${current ? ' (current)' : ''}: ${totalLabel} per GPU, ${allocatedLabel} allocated${peakWords}, ${fitLabel}; ${offloadLabel}`,
    notes: [...option.result.notes, ...(option.result.errsHigh ?? []).map((e) => `Errs high: ${e}.`)],
  };
}

/** Lays segments end to end on an axis; empty ones (under a byte) are dropped: nothing to draw or focus. */
function layout(parts: { role: SegmentRole | OffloadRole; bytes: number }[], axisMax: number): SegmentVM[] {
  let offset = 0;
  const segments: SegmentVM[] = [];
  for (const { role, bytes } of parts) {
    if (!(bytes >= 1)) continue;
    const fraction = axisMax > 0 ? bytes / axisMax : 0;
    const style = ROLE_STYLES[role];
    const value = formatGiB(bytes);
    segments.push({ role, bytes, fraction, offset, value, description: `${style.label}: ${value}`, style });
    offset += fraction;
  }
  return segments;
}

function fitOf(serverFits: boolean | null, total: number, capacity: number | undefined): FitState {
  if (serverFits === true) return 'fits';
  if (serverFits === false) return 'exceeds';
  if (capacity === undefined) return 'unknown';
  return total <= capacity ? 'fits' : 'exceeds';
}

function fitLabelOf(fit: FitState, total: number, capacity: number | undefined): string {
  if (capacity === undefined) return fit === 'unknown' ? 'capacity unknown' : fit === 'fits' ? 'fits' : 'does not fit';
  if (fit === 'fits') return `fits ${formatGiB(capacity)}`;
  if (fit === 'exceeds') return total > capacity ? `exceeds by ${formatGiB(total - capacity)}` : `does not fit ${formatGiB(capacity)}`;
  return 'capacity unknown';
}

/** Rounds the axis up to a step of 1, 2 or 5 × 10^n GiB so ticks land on round numbers. */
export function niceAxisMax(bytes: number): number {
  // Under a byte there is nothing to draw; keep a 1 GiB axis rather than a subnormal one.
  if (!(bytes >= 1)) return GiB;
  const gib = bytes / GiB;
  const step = niceStep(gib / 4);
  return Math.ceil(gib / step - 1e-9) * step * GiB;
}

function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalised = raw / magnitude;
  const factor = normalised <= 1 ? 1 : normalised <= 2 ? 2 : normalised <= 5 ? 5 : 10;
  return factor * magnitude;
}

function ticksFor(axisMax: number): { fraction: number; label: string }[] {
  const gib = axisMax / GiB;
  const step = niceStep(gib / 4);
  // The axis is a whole number of steps (about four), so count them instead of adding up floats.
  const count = Math.min(20, Math.round(gib / step));
  const ticks: { fraction: number; label: string }[] = [];
  for (let i = 0; i <= count; i++) {
    const value = i * step;
    ticks.push({ fraction: clamp01(value / gib), label: `${Number(value.toPrecision(6))}` });
  }
  return ticks;
}

const TABLE_HEADERS = [
  'Option',
  'Parameters',
  'Gradients',
  'Optimizer states',
  'Activations',
  'Buffers',
  'Step workspaces',
  'Other models',
  'Overhead',
  'Total per GPU',
  'Allocated',
  'Peak phase',
  'Fits',
  'CPU RAM per node',
  'NVMe',
];

function tableRow(bar: BarVM): TableVM['rows'][number] {
  const byRole = new Map(bar.segments.map((s) => [s.role, s.bytes]));
  return {
    key: bar.key,
    current: bar.current,
    cells: [
      bar.current ? `${bar.label} (current)` : bar.label,
      ...SEGMENT_ROLES.map((role) => formatGiB(byRole.get(role) ?? 0)),
      formatGiB(bar.totalBytes),
      bar.allocated,
      bar.peakPhase || '—',
      bar.fitLabel,
      formatGiB(bar.offload.cpuBytes),
      formatGiB(bar.offload.nvmeBytes),
    ],
  };
}

function contextRows(context: TrainingContextView): ContextRowVM[] {
  return CONTEXT_ORDER.map((key) => {
    const entry = context[key];
    const label = CONTEXT_LABELS[key];
    if (!entry) {
      // No LoRA anywhere means full fine-tuning, not a gap in the context.
      if (key === 'loraRank') return { key, label, display: 'full fine-tuning', raw: null, source: 'no LoRA in the file or settings', settable: true };
      return { key, label, display: 'not set', raw: null, source: 'not set', settable: true };
    }
    const value = entry.value;
    let display: string;
    let raw: ContextRowVM['raw'];
    if (typeof value === 'object') {
      display = `${value.displayName} (${formatCount(value.totalParams)})`;
      raw = value.id;
    } else if (typeof value === 'boolean') {
      display = value ? 'on' : 'off';
      raw = value;
    } else if (key === 'loraRank' && value === 0) {
      display = 'full fine-tuning';
      raw = value;
    } else {
      display = String(value);
      raw = value;
    }
    return { key, label, display, raw, source: describeSource(entry.source), settable: settingCanChange(entry.source) };
  });
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** The language status item's text, from the same bars the sidebar draws. */
export interface StatusSummary {
  text: string;
  detail: string;
  warning: boolean;
}

export function statusSummary(vm: SidebarViewModel): StatusSummary | null {
  if (vm.status !== 'ready') return null;
  if (vm.bars.length === 0) return { text: 'ZeRO Lens: no estimate', detail: vm.message, warning: false };
  const current = vm.bars.find((b) => b.current);
  if (!current) return { text: 'ZeRO Lens: no ZeRO stage set', detail: 'Open the sidebar to compare stages.', warning: false };
  return {
    text: `${current.summary}`,
    detail: `${current.label}${vm.missing.length ? ` · missing ${vm.missing.join(', ')}` : ''}`,
    warning: current.fit === 'exceeds',
  };
}
