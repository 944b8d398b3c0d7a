/**
 * `npm run bench:accuracy` (and the first part of `npm run bench`): every published measured run of
 * bench/calibration/runs.json taken through the same training layer as `zero-lens estimate` — its facts become the
 * CLI's flags and a ds_config like the one it ran with — and compared with the measurement on the quantity the
 * source measured: allocated → `perGpu.allocated`, reserved → `perGpu.reserved`, nvidia-smi and unknown →
 * `perGpu.total` (reserved + CUDA context + NCCL, what nvidia-smi shows; the ms-swift headers of unknown kind are
 * read as that, which is what their maintainers most likely looked at). Prints median absolute error and the
 * worst under-estimate per half (fit / holdout), per quantity and per kind, and the runs that worked on a full
 * card that the estimate calls too big. FSDP, Megatron and device-map runs are listed apart: not modelled yet.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { estimateFromArgs } from '../server/src/cli/estimate';
import { jsonReportObject } from '../server/src/cli/estimateReport';
import { parsedPreset } from '../server/src/launch/swiftPresets';
import { findCatalogModel } from '../server/src/memory/catalog';
import { countParams } from '../server/src/memory/paramCount';
import type { ModelArchitecture, ModelInfo } from '../server/src/memory/types';

const here = __dirname;
const GiB = 2 ** 30;

export interface CalibrationRun {
  id: string;
  split: 'fit' | 'holdout';
  source: { url: string; quote: string; kind: string };
  model: string;
  framework: string;
  launcher: string;
  zeroStage: number | null;
  offloadOptimizer: string | null;
  offloadParam: string | null;
  fsdp: null | { strategy: string; version?: number; cpuOffload?: boolean; mixedPrecision?: string; reshardAfterForward?: boolean };
  tp: number | null;
  pp: number | null;
  sp: number | null;
  ep: number | null;
  method: 'full' | 'lora' | 'qlora';
  loraRank: number | null;
  loraTargets: string | string[] | null;
  quantBits: number | null;
  precision: 'bf16' | 'fp16' | 'fp32';
  pureLowPrecision: boolean;
  optimizer: string;
  gpus: number;
  nodes: number;
  gpuModel: string | null;
  gpuMemoryGiB: number | null;
  microBatch: number;
  gradAccum: number | null;
  seqLen: number | null;
  seqLenIsUpperBound: boolean | null;
  packing: boolean | null;
  paddingFree: boolean | null;
  gradientCheckpointing: boolean;
  attnImpl: string | null;
  ligerKernel: boolean | null;
  chunkedLoss: boolean | null;
  torchCompile: boolean | null;
  rlhf: null | Record<string, unknown>;
  multimodal: null | Record<string, unknown>;
  measuredGiB: number;
  quantity: 'allocated' | 'reserved' | 'nvidia-smi' | 'unknown';
  worked: boolean;
  notes: string;
}

export type Kind = 'zero' | 'ddp' | 'single' | 'fsdp' | 'megatron';

/** Features of a run the estimator does not model (it errs high on them): reported apart from the acceptance figures. */
export function unmodelledFeatures(run: CalibrationRun): string[] {
  const out: string[] = [];
  if (run.torchCompile) out.push('torch.compile');
  if (/optimizer_in_bwd (True|\+|on)|optimizer_in_bwd=True|\+ optimizer_in_bwd/i.test(run.notes)) out.push('optimizer in backward');
  if (/activation[ _]offloading( True|=True| on)|activation offloading to CPU|Activation offloading on/i.test(run.notes)) out.push('activation offloading');
  // torchtitan's selective (op) checkpointing saves some matmul outputs and recomputes the rest: neither none nor full.
  if (/Selective activation checkpointing/.test(run.source.quote + run.notes)) out.push('selective activation checkpointing');
  // A key/value cache kept through forward in training (use_cache True): errs low.
  if (/use_cache was still the transformers default \(True\)/.test(run.notes)) out.push('KV cache in training');
  return out;
}

export interface RunResult {
  run: CalibrationRun;
  kind: Kind;
  /** Features the estimator does not model; such runs are listed apart. */
  unmodelled: string[];
  /** Two-sided: the data's length is known; one-sided: only max_length is, so the estimate must not be below. */
  comparison: 'two-sided' | 'one-sided';
  estimateGiB: number;
  ratio: number;
  peakPhase: string | null;
  /** The estimate of the script as written (max_length), and whether it says the run fits the card. */
  asWrittenGiB: number;
  fitsAsWritten: boolean | null;
  args: string[];
}

export interface Skipped {
  run: CalibrationRun;
  why: string;
}

// runs.json, and the FSDP and tensor-parallel runs added for issue 27 in the same format (fsdp-tp-runs.json).
const runs: CalibrationRun[] = ['runs.json', 'fsdp-tp-runs.json'].flatMap((file) => JSON.parse(readFileSync(path.join(here, 'calibration', file), 'utf8')) as CalibrationRun[]);
const models: Record<string, ModelSpec> = JSON.parse(readFileSync(path.join(here, 'calibration/models.json'), 'utf8'));
const lengths: Record<string, { tokens: number | null; basis: string }> = JSON.parse(readFileSync(path.join(here, 'calibration/data-lengths.json'), 'utf8'));

interface ModelSpec {
  catalog?: string;
  architecture?: ModelArchitecture;
  largestLayerParams?: number;
  source?: string;
}

/** The run's model, sized from the catalog or the architecture facts in models.json. */
function modelOf(id: string): ModelInfo | undefined {
  const spec = models[id];
  if (!spec) return undefined;
  let arch: ModelArchitecture | undefined;
  if (spec.catalog) arch = findCatalogModel(spec.catalog)?.architecture;
  else arch = spec.architecture;
  if (!arch) return undefined;
  const counts = countParams(arch);
  return {
    id,
    displayName: id.split('/').pop()!,
    totalParams: counts.total,
    largestLayerParams: spec.largestLayerParams ?? counts.largestLayer,
    architecture: arch,
    source: { kind: 'cli', flag: '--model' },
  };
}

/** Which runs the estimator models: DeepSpeed ZeRO, DDP and one-GPU runs. */
export function kindOf(run: CalibrationRun): Kind | undefined {
  if (run.framework === 'deepspeed' || run.framework === 'accelerate-deepspeed') return 'zero';
  if (run.framework === 'ddp') return 'ddp';
  if (run.framework === 'single-gpu') return 'single';
  if (run.framework === 'fsdp' || run.framework === 'fsdp2') return 'fsdp';
  if (run.framework === 'megatron') return 'megatron';
  return undefined;
}

/** A ds_config like the one the run used: ms-swift's presets (3.x/4.x, or 2.x), BELLE's, LLaMA-Factory's, accelerate's. */
function configOf(run: CalibrationRun): Record<string, unknown> | undefined {
  if (run.zeroStage === null || kindOf(run) === 'megatron' || kindOf(run) === 'fsdp') return undefined;
  const stage = run.zeroStage;
  const offload = (device: string | null) => ({ device: device ?? 'none', pin_memory: true });
  if (run.launcher.startsWith('swift')) {
    if (run.id.startsWith('swiftv2-')) {
      // ms-swift 2.x swift/llm/ds_config/zero{2,3}.json at d2b45ec8: an AdamW block (DeepSpeed's FusedAdam), overlap_comm true.
      const zero = stage === 3
        ? { stage: 3, offload_optimizer: offload(null), offload_param: offload(null), overlap_comm: true, contiguous_gradients: true, sub_group_size: 1e9, reduce_bucket_size: 'auto', stage3_prefetch_bucket_size: 'auto', stage3_param_persistence_threshold: 'auto', stage3_max_live_parameters: 1e9, stage3_max_reuse_distance: 1e9, stage3_gather_16bit_weights_on_model_save: true }
        : { stage: 2, offload_optimizer: offload(null), allgather_partitions: true, allgather_bucket_size: 2e8, overlap_comm: true, reduce_scatter: true, reduce_bucket_size: 2e8, contiguous_gradients: true };
      return { bf16: { enabled: 'auto' }, optimizer: { type: 'AdamW', params: { lr: 'auto' } }, zero_optimization: zero };
    }
    const name = stage === 3 ? (run.offloadParam === 'cpu' ? 'zero3_offload' : 'zero3') : stage === 2 ? 'zero2' : stage === 1 ? 'zero1' : 'zero0';
    return parsedPreset(name) as Record<string, unknown>;
  }
  if (run.launcher === 'hf-trainer') {
    // BELLE's configs of May 2023 (notes): overlap_comm true, allgather 2e8, reduce "auto"; stage 3 with max live/reuse 0.
    const zero: Record<string, unknown> = { stage, overlap_comm: true, contiguous_gradients: true, allgather_bucket_size: 2e8, reduce_bucket_size: 'auto' };
    if (stage === 3) Object.assign(zero, { stage3_max_live_parameters: 0, stage3_max_reuse_distance: 0, stage3_prefetch_bucket_size: 'auto', stage3_param_persistence_threshold: 'auto' });
    return { fp16: { enabled: 'auto' }, optimizer: { type: 'AdamW', params: { lr: 'auto', torch_adam: true } }, zero_optimization: zero };
  }
  if (run.launcher === 'llamafactory') {
    // LLaMA-Factory examples/deepspeed/ds_z3_offload_config.json.
    return {
      fp16: { enabled: 'auto' },
      bf16: { enabled: 'auto' },
      zero_optimization: {
        stage: 3, offload_optimizer: offload('cpu'), offload_param: offload('cpu'), overlap_comm: false, contiguous_gradients: true, sub_group_size: 1e9,
        reduce_bucket_size: 'auto', stage3_prefetch_bucket_size: 'auto', stage3_param_persistence_threshold: 'auto', stage3_max_live_parameters: 1e9,
        stage3_max_reuse_distance: 1e9, stage3_gather_16bit_weights_on_model_save: true,
      },
    };
  }
  // accelerate's DeepSpeedPlugin (PEFT examples): stage and offload from its config, DeepSpeed's bucket defaults.
  return { zero_optimization: { stage, offload_optimizer: offload(run.offloadOptimizer), offload_param: offload(run.offloadParam) } };
}

/** The CLI flags that state the run's facts. `tokens` replaces max_length with the data's length when known. */
export function argsOf(run: CalibrationRun, tokens: number | undefined): string[] {
  const a: string[] = ['--format', 'json', '--model', run.model];
  a.push('--gpus-per-node', String(run.gpus / Math.max(1, run.nodes)), '--nodes', String(Math.max(1, run.nodes)));
  if (run.gpuMemoryGiB) a.push('--gpu-memory', String(run.gpuMemoryGiB));
  // A source that measured its CUDA context states it (transformers' memory-anatomy doc: 1343 MiB on its V100).
  const context = /(\d+) MiB of CUDA context/.exec(run.notes);
  if (context) a.push('--cuda-context', (Number(context[1]) / 1024).toFixed(3));
  a.push('--dtype', run.precision);
  const kind = kindOf(run);
  if (kind === 'fsdp') {
    a.push(...fsdpArgs(run));
  } else if (kind === 'megatron') {
    a.push(...megatronArgs(run));
  } else if (run.zeroStage === null) {
    a.push('--ddp');
    // Plain PyTorch holds the weights in the dtype they were loaded in: bf16/fp16 for pure low-precision runs.
    a.push('--torch-dtype', run.pureLowPrecision ? run.precision : 'fp32');
  } else {
    a.push('--stage', String(run.zeroStage));
    if (run.offloadOptimizer && run.offloadOptimizer !== 'none') a.push('--offload-optimizer', run.offloadOptimizer);
    if (run.offloadParam && run.offloadParam !== 'none') a.push('--offload-param', run.offloadParam);
  }
  const optimizer = run.optimizer.toLowerCase();
  a.push('--optimizer', /8bit/.test(optimizer) ? 'adam8bit' : optimizer === 'adamw' ? 'adamw' : optimizer);
  a.push('--micro-batch', String(run.microBatch));
  if (run.gradAccum) a.push('--grad-accum', String(run.gradAccum));
  const seq = tokens ?? run.seqLen ?? 2048;
  a.push('--seq-len', String(seq));
  // Megatron's selective recompute keeps every layer's activations but the attention core's (FlashAttention saves none).
  const selective = kind === 'megatron' && /recompute selective/.test(run.notes);
  a.push(run.gradientCheckpointing && !selective ? '--gradient-checkpointing' : '--no-gradient-checkpointing');
  if (run.method !== 'full') {
    a.push('--lora-rank', String(run.loraRank ?? 8));
    a.push('--lora-targets', loraTargetsOf(run.loraTargets));
    if (run.method === 'qlora') a.push('--qlora');
    // ms-swift's default lora_dropout is 0.05 (tuner_args.py:135); others state theirs ("dropout 0.1"), PEFT's default is 0.
    const stated = /dropout (0\.\d+)/.exec(run.notes);
    const dropout = stated ? stated[1] : run.launcher.startsWith('swift') ? '0.05' : undefined;
    if (dropout) a.push('--lora-dropout', dropout);
  }
  if (run.attnImpl) a.push('--attn-impl', run.attnImpl === 'flash' ? 'flash' : run.attnImpl === 'eager' ? 'eager' : 'sdpa');
  if (run.ligerKernel) a.push('--use-liger-kernel');
  else if (run.chunkedLoss) a.push('--chunked-loss');
  if (/paged/i.test(run.optimizer)) a[a.indexOf('--optimizer') + 1] = 'paged_adamw_8bit';
  if (run.packing) a.push('--packing');
  // Synthetic data of one length (transformers' memory-anatomy experiments) are fixed-length steps too.
  else if (/dummy data/i.test(run.notes)) a.push('--fixed-length');
  if (run.paddingFree) a.push('--padding-free');
  if (run.sp && run.sp > 1 && kind !== 'megatron') a.push('--sequence-parallel', String(run.sp));
  const mm = run.multimodal as { freezeVit?: boolean | null } | null;
  if (mm) a.push(mm.freezeVit === false ? '--no-freeze-vit' : '--freeze-vit');
  const rlhf = run.rlhf as { type?: string; refModel?: boolean; rewardModelId?: string; teacherModel?: string; teacherOffload?: string; vllmColocate?: boolean; vllmGpuMemoryUtilization?: number; sleepLevel?: number; maxCompletionLength?: number } | null;
  if (rlhf?.type) {
    a.push('--rlhf', rlhf.type);
    // Extra models go through the CLI's own resolver: the catalog id models.json maps them to.
    const catalogId = (id: string) => models[id]?.catalog ?? id;
    if (rlhf.rewardModelId) a.push('--reward-model', catalogId(rlhf.rewardModelId));
    if (rlhf.teacherModel) a.push('--teacher-model', catalogId(rlhf.teacherModel));
    if (rlhf.teacherOffload) a.push('--teacher-offload');
    if (rlhf.vllmColocate) a.push('--vllm-gpu-memory-utilization', String(rlhf.vllmGpuMemoryUtilization ?? 0.9));
    if (rlhf.sleepLevel !== undefined) a.push('--vllm-sleep-level', String(rlhf.sleepLevel));
    if ((rlhf as { offloadModelDuringRollout?: boolean }).offloadModelDuringRollout) a.push('--rollout-offload');
    if (rlhf.maxCompletionLength) a.push('--max-completion-length', String(rlhf.maxCompletionLength));
  }
  return a;
}

/** `--fsdp` flags: the strategy, CPU offload, FSDP2, and no mixed precision for pure 16-bit runs (weights stay in their load dtype). */
function fsdpArgs(run: CalibrationRun): string[] {
  const f = run.fsdp!;
  const strategy = f.version === 2 && f.reshardAfterForward === false ? 'shard_grad_op' : f.strategy.toLowerCase();
  const a = ['--fsdp', strategy];
  if (f.cpuOffload) a.push('--fsdp-offload');
  if (f.version === 2) a.push('--fsdp-version', '2');
  const mp = f.mixedPrecision ?? '';
  if (run.pureLowPrecision || /^(no|none)/.test(mp)) a.push('--fsdp-mixed-precision', 'no');
  a.push('--torch-dtype', run.pureLowPrecision || run.method !== 'full' ? run.precision : 'fp32');
  return a;
}

/** Megatron-Core's sizes; `optimizer_cpu_offload` in the notes moves master weights and states to CPU. */
function megatronArgs(run: CalibrationRun): string[] {
  const a: string[] = [];
  a.push('--tp', String(run.tp ?? 1), '--pp', String(run.pp ?? 1));
  if (run.ep && run.ep > 1) a.push('--ep', String(run.ep));
  if (/optimizer_cpu_offload true/.test(run.notes)) a.push('--megatron-offload-optimizer');
  if (!/sequence_parallel/.test(run.notes) && (run.tp ?? 1) > 1) a.push('--no-sequence-parallel-tp');
  return a;
}

/** PEFT target names in the estimator's vocabulary: Qwen-1's fused c_attn is q/k/v, torchtune's output_proj/w1..w3 are o/gate/down/up. */
function loraTargetsOf(targets: string | string[] | null): string {
  if (targets === null) return 'all-linear';
  if (typeof targets === 'string') return /default \(q,v/.test(targets) ? 'q_proj,v_proj' : 'all-linear';
  const names: Record<string, string[]> = { c_attn: ['q_proj', 'k_proj', 'v_proj'], 'attn.c_proj': ['o_proj'], output_proj: ['o_proj'], w1: ['gate_proj'], w2: ['down_proj'], w3: ['up_proj'] };
  return [...new Set(targets.flatMap((t) => names[t] ?? [t]))].join(',');
}

/** The run's ds_config as a file the CLI reads with --config (a temporary folder, removed at exit). */
let tempDir: string | undefined;
function configArgs(config: Record<string, unknown> | undefined, id: string): string[] {
  if (!config) return [];
  tempDir ??= mkdtempSync(path.join(os.tmpdir(), 'zero-lens-accuracy-'));
  const file = path.join(tempDir, `${id}.json`);
  writeFileSync(file, JSON.stringify(config));
  return ['--config', file];
}
process.on('exit', () => {
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
});

const quantityOf = (run: CalibrationRun, json: { perGpu: { allocated: number; reserved: number; total: number } }) =>
  run.quantity === 'allocated' ? json.perGpu.allocated : run.quantity === 'reserved' ? json.perGpu.reserved : json.perGpu.total;

async function estimateRun(run: CalibrationRun, model: ModelInfo, tokens: number | undefined): Promise<{ json: ReturnType<typeof jsonReportObject>; args: string[] }> {
  const args = [...configArgs(configOf(run), run.id), ...argsOf(run, tokens)];
  const { args: parsed, run: estimateRunResult } = await estimateFromArgs(args, os.tmpdir(), undefined, model);
  return { json: jsonReportObject(parsed, estimateRunResult), args };
}

export interface AccuracyReport {
  results: RunResult[];
  skipped: Skipped[];
  notModelled: CalibrationRun[];
}

export async function computeAccuracy(): Promise<AccuracyReport> {
  const results: RunResult[] = [];
  const skipped: Skipped[] = [];
  const notModelled: CalibrationRun[] = [];
  for (const run of runs) {
    const kind = kindOf(run);
    if (!kind) {
      notModelled.push(run);
      continue;
    }
    const model = modelOf(run.model);
    if (!model) {
      skipped.push({ run, why: 'architecture not known (no config.json facts in models.json)' });
      continue;
    }
    const upper = run.seqLenIsUpperBound === true || run.seqLen === null;
    const known = lengths[run.id];
    const tokens = upper ? known?.tokens ?? undefined : undefined;
    if (upper && !known) {
      skipped.push({ run, why: 'no data-length entry' });
      continue;
    }
    const twoSided = !upper || tokens !== undefined;
    const asWritten = await estimateRun(run, model, undefined);
    const compared = twoSided && tokens !== undefined ? await estimateRun(run, model, tokens) : asWritten;
    const estimate = quantityOf(run, compared.json.perGpu ? compared.json : asWritten.json) / GiB;
    results.push({
      run,
      kind,
      unmodelled: unmodelledFeatures(run),
      comparison: twoSided ? 'two-sided' : 'one-sided',
      estimateGiB: estimate,
      ratio: estimate / run.measuredGiB,
      peakPhase: compared.json.perGpu.peakPhase,
      asWrittenGiB: asWritten.json.perGpu.total / GiB,
      // A run that states no sequence length has no estimate "as written"; its data length stands in where known.
      fitsAsWritten: (twoSided ? compared.json.fits : run.seqLen === null ? null : asWritten.json.fits) ?? null,
      args: compared.args,
    });
  }
  return { results, skipped, notModelled };
}

export interface Summary {
  count: number;
  medianAbsError: number;
  worstRatio: number;
  worstId: string;
  below090: number;
}

export function summarize(rows: RunResult[]): Summary | undefined {
  if (rows.length === 0) return undefined;
  const errors = rows.map((r) => Math.abs(r.ratio - 1)).sort((a, b) => a - b);
  const mid = errors.length / 2;
  const median = errors.length % 2 ? errors[Math.floor(mid)] : (errors[mid - 1] + errors[mid]) / 2;
  const worst = rows.reduce((w, r) => (r.ratio < w.ratio ? r : w), rows[0]);
  return { count: rows.length, medianAbsError: median, worstRatio: worst.ratio, worstId: worst.run.id, below090: rows.filter((r) => r.ratio < 0.9).length };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function line(label: string, s: Summary | undefined): string {
  if (!s) return `  ${label.padEnd(28)} —`;
  return `  ${label.padEnd(28)} n=${String(s.count).padStart(2)}  median |err| ${pct(s.medianAbsError).padStart(6)}  worst ${s.worstRatio.toFixed(2)} (${s.worstId})${s.below090 ? `  ${s.below090} below 0.90` : ''}`;
}

export function render(report: AccuracyReport): string {
  const out: string[] = ['Estimate ÷ measured, per GPU, on the quantity each source measured (bench/calibration/runs.json)', ''];
  for (const split of ['fit', 'holdout'] as const) {
    const rows = report.results.filter((r) => r.run.split === split && r.unmodelled.length === 0);
    const two = rows.filter((r) => r.comparison === 'two-sided');
    out.push(`${split.toUpperCase()} half — data length known (two-sided):`);
    out.push(line('all ZeRO / DDP / one GPU', summarize(two.filter((r) => r.kind === 'zero' || r.kind === 'ddp' || r.kind === 'single'))));
    out.push(line('all FSDP / Megatron', summarize(two.filter((r) => r.kind === 'fsdp' || r.kind === 'megatron'))));
    for (const kind of ['zero', 'ddp', 'single', 'fsdp', 'megatron'] as const) out.push(line(`kind ${kind}`, summarize(two.filter((r) => r.kind === kind))));
    for (const q of ['allocated', 'reserved', 'nvidia-smi', 'unknown'] as const) out.push(line(`quantity ${q}`, summarize(two.filter((r) => r.run.quantity === q))));
    const one = rows.filter((r) => r.comparison === 'one-sided');
    const under = one.filter((r) => r.ratio < 1);
    out.push(`${split.toUpperCase()} half — data length unknown (one-sided, estimate at max_length must not be below): ${one.length} runs, ${under.length} below${under.length ? ': ' + under.map((r) => `${r.run.id} ${r.ratio.toFixed(2)}`).join(', ') : ''}`);
    out.push('');
  }
  const apart = report.results.filter((r) => r.unmodelled.length > 0);
  out.push(`Runs with features the estimate does not model (listed apart; most err high, a KV cache in training errs low): ${apart.map((r) => `${r.run.id} (${r.run.split}, ${r.unmodelled.join(' + ')}, ${r.ratio.toFixed(2)})`).join('; ')}`);
  out.push('');
  const tooBig = report.results.filter((r) => r.run.gpuMemoryGiB && r.run.worked && r.fitsAsWritten === false);
  out.push(`Runs that worked on a full card but are called too big: ${tooBig.length ? tooBig.map((r) => `${r.run.id} (${r.run.split}, ${r.asWrittenGiB.toFixed(1)} GiB as written > ${r.run.gpuMemoryGiB} GiB)`).join('; ') : 'none'}`);
  out.push('');
  out.push('Per run (ratio = estimate ÷ measured):');
  for (const r of [...report.results].sort((a, b) => a.run.split.localeCompare(b.run.split) || a.ratio - b.ratio)) {
    out.push(`  ${r.run.split.padEnd(7)} ${r.kind.padEnd(6)} ${r.comparison === 'two-sided' ? '  ' : '≥ '}${r.ratio.toFixed(2)}  ${r.estimateGiB.toFixed(1).padStart(6)} vs ${String(r.run.measuredGiB).padStart(6)} ${r.run.quantity.padEnd(10)} ${(r.peakPhase ?? '').padEnd(16)} ${r.run.id}`);
  }
  if (report.skipped.length) out.push('', `Skipped: ${report.skipped.map((s) => `${s.run.id} (${s.why})`).join('; ')}`);
  const byFramework = new Map<string, number>();
  for (const r of report.notModelled) byFramework.set(r.framework, (byFramework.get(r.framework) ?? 0) + 1);
  out.push('', `Not modelled yet (FSDP, Megatron tensor/pipeline/expert parallel, device_map): ${report.notModelled.length} runs (${[...byFramework].map(([f, n]) => `${f} ${n}`).join(', ')})`);
  return out.join('\n') + '\n';
}

if (require.main === module && process.argv[2]) {
  // `bench/accuracy.ts RUN_ID`: one run's arguments and every phase, to see where its estimate comes from.
  const run = runs.find((r) => r.id === process.argv[2]);
  if (!run) throw new Error(`no run ${process.argv[2]}`);
  const upper = run.seqLenIsUpperBound === true || run.seqLen === null;
  estimateRun(run, modelOf(run.model)!, upper ? lengths[run.id]?.tokens ?? undefined : undefined).then(({ json, args }) => {
    const g = (b: number) => (b / GiB).toFixed(2);
    process.stdout.write(`${args.join(' ')}\nmeasured ${run.measuredGiB} (${run.quantity})\n`);
    for (const ph of json.phases) {
      process.stdout.write(`${ph.phase.padEnd(17)} P ${g(ph.params)} G ${g(ph.gradients)} O ${g(ph.optimizerStates)} A ${g(ph.activations)} B ${g(ph.buffers)} T ${g(ph.temporaries)} X ${g(ph.extraModels)} | alloc ${g(ph.allocated)} res ${g(ph.reserved)} total ${g(ph.total)} cpu ${g(ph.cpu)}\n`);
    }
    process.stdout.write(`notes: ${json.notes.join(' | ')}\n`);
  });
} else if (require.main === module) {
  computeAccuracy().then(
    (report) => process.stdout.write(render(report)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
