/**
 * The sidebar's view model: turns the server's EstimateView into everything the webview draws
 * (bar fractions, capacity line, labels, colours by role, fit state, table rows, context sources).
 * Pure — no vscode import — so the picture's arithmetic is unit-tested without an editor. Its words come from
 * the translator the extension passes (`vscode.l10n.t`); English by default.
 */
import {
  andList,
  describeSource,
  english,
  formatCount,
  formatGiB,
  GiB,
  joinList,
  normalizeOption,
  phaseLabel,
  sameOption,
  settingCanChange,
  type AlternativeOption,
  type EstimateResult,
  type EstimateView,
  type OffloadDevice,
  type StageOption,
  type TrainingContextView,
  type Translate,
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

const roleStyleCache = new WeakMap<Translate, Readonly<Record<SegmentRole | OffloadRole, RoleStyle>>>();

/** The style of each role, its label in the reader's language; one object per translator. */
export function roleStyles(t: Translate = english): Readonly<Record<SegmentRole | OffloadRole, RoleStyle>> {
  let styles = roleStyleCache.get(t);
  if (!styles) {
    styles = {
      params: { label: t('Parameters'), short: 'P', colorVar: '--vscode-charts-blue', pattern: 'solid' },
      gradients: { label: t('Gradients'), short: 'G', colorVar: '--vscode-charts-orange', pattern: 'diagonal' },
      optimizerStates: { label: t('Optimizer states'), short: 'O', colorVar: '--vscode-charts-purple', pattern: 'cross' },
      activations: { label: t('Activations'), short: 'A', colorVar: '--vscode-charts-green', pattern: 'dots' },
      buffers: { label: t('Buffers'), short: 'B', colorVar: '--vscode-charts-yellow', pattern: 'horizontal' },
      temporaries: { label: t('Workspaces'), short: 'W', colorVar: '--vscode-charts-lines', pattern: 'grid' },
      extraModels: { label: t('Other models (reference, teacher, vLLM)'), short: 'M', colorVar: '--vscode-charts-foreground', pattern: 'diagonal-reverse' },
      overhead: { label: t('Overhead (allocator cache, CUDA context, NCCL)'), short: 'X', colorVar: '--vscode-charts-red', pattern: 'vertical' },
      cpu: { label: t('CPU RAM per node'), short: 'C', colorVar: '--vscode-charts-foreground', pattern: 'solid' },
      nvme: { label: 'NVMe', short: 'N', colorVar: '--vscode-charts-foreground', pattern: 'diagonal' },
    };
    roleStyleCache.set(t, styles);
  }
  return styles;
}

export const ROLE_STYLES = roleStyles(english);

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

/** What every row of the picture shows, a ZeRO option or a run of another family: totals, fit, segments, offload. */
export interface MemoryRowVM {
  key: string;
  label: string;
  current: boolean;
  totalBytes: number;
  total: string;
  /** Live tensors at the peak (torch's max_memory_allocated), beside the total the fit is judged on. */
  allocatedBytes: number;
  allocated: string;
  /** The phase of the run that sets the peak ("optimizer step"); empty where none is modelled. */
  peakPhase: string;
  /** "24.0 GiB allocated · peak: optimizer step": the line under the row's head. */
  peakLine: string;
  fit: FitState;
  /** "fits 80 GiB", "exceeds by 3.1 GiB", "capacity unknown". */
  fitLabel: string;
  /** "≈ 19.2 GiB/GPU · fits 80 GiB": the one-line summary used by the status item and quick pick. */
  summary: string;
  segments: SegmentVM[];
  /** `ariaLabel`: the option's label with what its offload needs. */
  offload: { segments: SegmentVM[]; label: string; ariaLabel: string; cpuBytes: number; nvmeBytes: number };
  ariaLabel: string;
  notes: string[];
}

/** A ZeRO option: a row the Apply button can move the file to. */
export interface BarVM extends MemoryRowVM {
  option: OptionKey;
  /** False when the run is FSDP or Megatron: the ZeRO bars are then a comparison, and no edit of the file applies them. */
  applicable: boolean;
  /** The Apply button's accessible name and tooltip. */
  applyLabel: string;
  applyTitle: string;
}

/**
 * The same job under FSDP or Megatron (the server's `alternatives`): drawn on the same axis as the ZeRO bars, with
 * no Apply — no one-file edit of the document switches to them.
 */
export interface AlternativeVM extends MemoryRowVM {
  family: AlternativeOption['family'];
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
  /** FSDP strategies and the Megatron layout for the same job, after the ZeRO bars; the run's own one is current. */
  alternatives: AlternativeVM[];
  table: TableVM;
  context: ContextRowVM[];
  legend: { role: SegmentRole | OffloadRole; style: RoleStyle }[];
}

function kindLabel(kind: EstimateView['kind'], t: Translate): string {
  switch (kind) {
    case 'ds-config':
      return t('DeepSpeed config');
    case 'launch-script':
      return t('launch script');
    case 'launch-yaml':
      return t('launch YAML');
    default:
      return kind;
  }
}

/** What the estimate lacks, as the status line names it ("set a model and GPU memory below"). */
function missingLabel(key: string, t: Translate): string {
  switch (key) {
    case 'model':
      return t('a model');
    case 'gpuMemoryGiB':
      return t('GPU memory');
    case 'gpusPerNode':
      return t('GPUs per node');
    case 'nodes':
      return t('nodes');
    case 'sequenceLength':
      return t('sequence length');
    case 'microBatchSize':
      return t('micro-batch');
    case 'dtype':
      return t('precision');
    default:
      return key;
  }
}

/** The label of each training-context input, in the reader's language. */
export function contextLabels(t: Translate = english): Record<ContextKey, string> {
  return {
    model: t('Model'),
    gpusPerNode: t('GPUs per node'),
    nodes: t('Nodes'),
    gpuMemoryGiB: t('GPU memory (GiB)'),
    sequenceLength: t('Sequence length'),
    microBatchSize: t('Micro-batch per GPU'),
    gradientCheckpointing: t('Gradient checkpointing'),
    loraRank: t('LoRA rank'),
    dtype: t('Precision'),
  };
}

/** The context rows, in the order shown; each is also a setting the sidebar can write (messages.ts). */
export const CONTEXT_ORDER = [
  'model',
  'gpusPerNode',
  'nodes',
  'gpuMemoryGiB',
  'sequenceLength',
  'microBatchSize',
  'gradientCheckpointing',
  'loraRank',
  'dtype',
] as const satisfies readonly ContextKey[];

export function optionKey(option: OptionKey): string {
  return `z${option.stage}-opt-${option.offloadOptimizer}-param-${option.offloadParam}`;
}

export function buildViewModel(state: EstimateState, t: Translate = english): SidebarViewModel {
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
    alternatives: [],
    table: { headers: tableHeaders(t), rows: [] },
    context: [],
    legend: SEGMENT_ROLES.map((role) => ({ role, style: roleStyles(t)[role] })),
  };
  if (base.uri) base.fileName = fileNameOf(base.uri);
  switch (state.kind) {
    case 'no-document':
      return { ...base, message: t('Open a DeepSpeed config (ds_config.json) or a launch script to see its memory estimate.') };
    case 'loading':
      return { ...base, message: t('Estimating…') };
    case 'unavailable':
      return { ...base, message: t('No estimate yet: {0}', state.reason) };
    case 'not-claimed':
      return { ...base, message: t('{0} is not a DeepSpeed config or launch script.', base.fileName ?? '') };
    case 'ready':
      return buildReady(base, state.view, t);
  }
}

function buildReady(base: SidebarViewModel, view: EstimateView, t: Translate): SidebarViewModel {
  const capacityBytes = capacityOf(view);
  const current = findCurrent(view.options, view.current);
  const others = view.alternatives ?? [];
  // One axis for every row, so a ZeRO bar and an FSDP bar of the same length hold the same GiB.
  const results = [...view.options, ...others].map((o) => o.result);
  const maxTotal = Math.max(0, ...results.map((r) => Math.max(r.perGpu.total, sumGpu(r))));
  const axisMax = niceAxisMax(Math.max(maxTotal, capacityBytes ?? 0));
  const offloadMax = Math.max(0, ...results.map((r) => r.perCpu.total + r.nvme));
  const scale: RowScale = { axisMax, offloadMax, capacity: capacityBytes };
  // Under FSDP or Megatron the server has no ZeRO edit for the file (it names no DeepSpeed config): no Apply.
  const applicable = !others.some((a) => a.current);
  const bars = view.options.map((option) => buildBar(option, option === current, applicable, scale, t));
  const alternatives = others.map((option, i) => ({ ...memoryRow(`alt-${i}-${option.family}`, option.label, option.result, option.current, scale, t), family: option.family }));
  const missing = view.missing.map((m) => missingLabel(m, t));
  let message = '';
  if (view.options.length === 0) {
    message = missing.length ? t('No estimate yet: set {0} below.', andList(t, missing)) : t('No estimate yet for this file.');
  } else if (missing.length) {
    message = t('Set {0} to complete the estimate.', andList(t, missing));
  }
  return {
    ...base,
    kindLabel: kindLabel(view.kind, t),
    message,
    missing: view.missing,
    axis: { maxBytes: axisMax, ticks: view.options.length ? ticksFor(axisMax) : [] },
    capacity:
      capacityBytes === undefined || view.options.length === 0
        ? null
        : { bytes: capacityBytes, fraction: clamp01(capacityBytes / axisMax), label: t('GPU capacity {0}', formatGiB(capacityBytes)) },
    offloadAxisMaxBytes: offloadMax,
    bars,
    alternatives,
    table: { headers: tableHeaders(t), rows: [...bars, ...alternatives].map((row) => tableRow(row, t)) },
    context: contextRows(view.context, t),
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

function sumGpu(result: EstimateResult): number {
  const g = result.perGpu;
  return SEGMENT_ROLES.reduce((sum, role) => sum + Math.max(0, g[role]), 0);
}

/** The axes every row is drawn on and the GPU's size. */
interface RowScale {
  axisMax: number;
  offloadMax: number;
  capacity: number | undefined;
}

function buildBar(option: StageOption, current: boolean, applicable: boolean, scale: RowScale, t: Translate): BarVM {
  const key: OptionKey = { stage: option.stage, offloadOptimizer: option.offloadOptimizer, offloadParam: option.offloadParam };
  return {
    ...memoryRow(optionKey(key), option.label, option.result, current, scale, t),
    option: key,
    applicable,
    applyLabel: current ? t('{0} is the current option', option.label) : t('Apply {0} to the file', option.label),
    applyTitle: current ? t('The file uses this option') : t('Edit the file to use this option (undoable)'),
  };
}

function memoryRow(key: string, label: string, result: EstimateResult, current: boolean, scale: RowScale, t: Translate): MemoryRowVM {
  const gpu = result.perGpu;
  const segments = layout(
    SEGMENT_ROLES.map((role) => ({ role, bytes: gpu[role] })),
    scale.axisMax,
    t,
  );
  const cpuBytes = Math.max(0, result.perCpu.total);
  const nvmeBytes = Math.max(0, result.nvme);
  const offloadSegments = layout(
    [
      { role: 'cpu' as const, bytes: cpuBytes },
      { role: 'nvme' as const, bytes: nvmeBytes },
    ],
    scale.offloadMax,
    t,
  );
  const total = gpu.total > 0 ? gpu.total : sumGpu(result);
  const fit = fitOf(result.fits, total, scale.capacity);
  const fitLabel = fitLabelOf(fit, total, scale.capacity, t);
  const totalLabel = formatGiB(total);
  const allocatedBytes = gpu.allocated ?? 0;
  const allocatedLabel = formatGiB(allocatedBytes);
  const peakPhase = gpu.peakPhase ? phaseLabel(gpu.peakPhase, t) : '';
  const offloadLabel =
    cpuBytes === 0 && nvmeBytes === 0
      ? t('no CPU RAM or NVMe needed')
      : [t('CPU RAM {0}/node', formatGiB(cpuBytes)), nvmeBytes > 0 ? `NVMe ${formatGiB(nvmeBytes)}` : ''].filter(Boolean).join(' · ');
  const named = current ? t('{0} (current)', label) : label;
  return {
    key,
    label,
    current,
    totalBytes: total,
    total: totalLabel,
    allocatedBytes,
    allocated: allocatedLabel,
    peakPhase,
    peakLine: peakPhase ? t('{0} allocated · peak: {1}', allocatedLabel, peakPhase) : t('{0} allocated', allocatedLabel),
    fit,
    fitLabel,
    summary: peakPhase ? t('≈ {0}/GPU ({1} allocated; peak: {2}) · {3}', totalLabel, allocatedLabel, peakPhase, fitLabel) : t('≈ {0}/GPU ({1} allocated) · {2}', totalLabel, allocatedLabel, fitLabel),
    segments,
    offload: { segments: offloadSegments, label: offloadLabel, ariaLabel: t('{0}: {1}', label, offloadLabel), cpuBytes, nvmeBytes },
    ariaLabel: peakPhase
      ? t('{0}: {1} per GPU, {2} allocated; peak: {3}, {4}; {5}', named, totalLabel, allocatedLabel, peakPhase, fitLabel, offloadLabel)
      : t('{0}: {1} per GPU, {2} allocated, {3}; {4}', named, totalLabel, allocatedLabel, fitLabel, offloadLabel),
    notes: [...result.notes, ...(result.errsHigh ?? []).map((e) => t('Errs high: {0}.', e))],
  };
}

/** Lays segments end to end on an axis; empty ones (under a byte) are dropped: nothing to draw or focus. */
function layout(parts: { role: SegmentRole | OffloadRole; bytes: number }[], axisMax: number, t: Translate): SegmentVM[] {
  let offset = 0;
  const segments: SegmentVM[] = [];
  for (const { role, bytes } of parts) {
    if (!(bytes >= 1)) continue;
    const fraction = axisMax > 0 ? bytes / axisMax : 0;
    const style = roleStyles(t)[role];
    const value = formatGiB(bytes);
    segments.push({ role, bytes, fraction, offset, value, description: t('{0}: {1}', style.label, value), style });
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

function fitLabelOf(fit: FitState, total: number, capacity: number | undefined, t: Translate): string {
  if (capacity === undefined) return fit === 'unknown' ? t('capacity unknown') : fit === 'fits' ? t('fits') : t('does not fit');
  if (fit === 'fits') return t('fits {0}', formatGiB(capacity));
  if (fit === 'exceeds') return total > capacity ? t('exceeds by {0}', formatGiB(total - capacity)) : t('does not fit {0}', formatGiB(capacity));
  return t('capacity unknown');
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

function tableHeaders(t: Translate): string[] {
  return [
    t('Option'),
    t('Parameters'),
    t('Gradients'),
    t('Optimizer states'),
    t('Activations'),
    t('Buffers'),
    t('Workspaces'),
    t('Other models'),
    t({ message: 'Overhead', comment: 'table column' }),
    t('Total per GPU'),
    t('Allocated'),
    t('Peak phase'),
    t({ message: 'Fits', comment: 'table column' }),
    t('CPU RAM per node'),
    'NVMe',
  ];
}

function tableRow(bar: MemoryRowVM, t: Translate): TableVM['rows'][number] {
  const byRole = new Map(bar.segments.map((s) => [s.role, s.bytes]));
  return {
    key: bar.key,
    current: bar.current,
    cells: [
      bar.current ? t('{0} (current)', bar.label) : bar.label,
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

function contextRows(context: TrainingContextView, t: Translate): ContextRowVM[] {
  const labels = contextLabels(t);
  return CONTEXT_ORDER.map((key) => {
    const entry = context[key];
    const label = labels[key];
    if (!entry) {
      // No LoRA anywhere means full fine-tuning, not a gap in the context.
      if (key === 'loraRank') return { key, label, display: t('full fine-tuning'), raw: null, source: t('no LoRA in the file or settings'), settable: true };
      return { key, label, display: t('not set'), raw: null, source: t('not set'), settable: true };
    }
    const value = entry.value;
    let display: string;
    let raw: ContextRowVM['raw'];
    if (typeof value === 'object') {
      display = `${value.displayName} (${formatCount(value.totalParams)})`;
      raw = value.id;
    } else if (typeof value === 'boolean') {
      display = value ? t('on') : t('off');
      raw = value;
    } else if (key === 'loraRank' && value === 0) {
      display = t('full fine-tuning');
      raw = value;
    } else {
      display = String(value);
      raw = value;
    }
    return { key, label, display, raw, source: describeSource(entry.source, t), settable: settingCanChange(entry.source) };
  });
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

export function statusSummary(vm: SidebarViewModel, t: Translate = english): StatusSummary | null {
  if (vm.status !== 'ready') return null;
  if (vm.bars.length === 0) return { text: t('ZeRO Lens: no estimate'), detail: vm.message, warning: false };
  // Under FSDP or Megatron the run as written is an alternative, and no ZeRO stage is current.
  const current = vm.bars.find((b) => b.current) ?? vm.alternatives.find((a) => a.current);
  if (!current) return { text: t('ZeRO Lens: no ZeRO stage set'), detail: t('Open the sidebar to compare stages.'), warning: false };
  return {
    text: `${current.summary}`,
    detail: vm.missing.length ? t('{0} · missing {1}', current.label, joinList(t, vm.missing)) : current.label,
    warning: current.fit === 'exceeds',
  };
}
