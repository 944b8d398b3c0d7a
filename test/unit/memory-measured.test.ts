import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultEstimateInput, estimate, findCatalogModel, type EstimateInput } from '../../server/src/memory';
import { countParams } from '../../server/src/memory/paramCount';

/**
 * The estimator against the mechanisms measured on an H200 (bench/gpu/measure_mechanisms.py and the variable-length
 * runs; torch 2.11, transformers 5.17, PEFT 0.21): pure-bf16 full fine-tuning and LoRA of Qwen2.5 0.5B/1.5B/7B and
 * Llama-3.2-3B, random weights, fixed and variable lengths. Every run is plain PyTorch on one GPU, so these pin
 * the activations, the optimizer's workspaces and the allocator model; DeepSpeed's own terms are pinned by
 * memory-estimate.test.ts from its source.
 */
const results = path.join(__dirname, '../../bench/gpu/results');
const GiB = 2 ** 30;
const catalogId: Record<string, string> = {
  'qwen2.5-0.5b': 'Qwen/Qwen2.5-0.5B',
  'qwen2.5-1.5b': 'Qwen/Qwen2.5-1.5B',
  'llama-3.2-3b': 'meta-llama/Llama-3.2-3B',
  'qwen2.5-7b': 'Qwen/Qwen2.5-7B',
};

function measuredInput(run: { model: string; mode: string; mb: number; gc: boolean | number; attn?: string; fused_adam?: boolean; fused?: number }, seqLen: number, fixedLength: boolean): EstimateInput {
  const model = findCatalogModel(catalogId[run.model])!;
  return {
    ...defaultEstimateInput(model),
    engine: 'torch',
    torchDtype: 'bf16',
    precision: 'bf16',
    seqLen,
    microBatch: run.mb,
    gradientCheckpointing: !!run.gc,
    attention: (run.attn ?? 'sdpa') as EstimateInput['attention'],
    optimizerKernel: run.fused_adam || run.fused ? 'fused' : 'foreach',
    fixedLength,
    lora: run.mode === 'lora' ? { rank: 8, targetModules: ['all-linear'] } : undefined,
  };
}

interface MechanismRun {
  index: number;
  model: string;
  mode: string;
  seq: number;
  mb: number;
  gc: boolean;
  attn: string;
  fused_adam: boolean;
  steps: Array<Record<string, { max_allocated?: number; max_reserved?: number }>>;
}

test('fixed-length runs: allocated within 4%, reserved within 12% of the H200 measurements', () => {
  const data = JSON.parse(readFileSync(path.join(results, 'h200-mechanisms.json'), 'utf8')) as { runs: MechanismRun[] };
  // The "mixed" runs emulate DeepSpeed's optimizer in plain PyTorch; they are not DeepSpeed and are left out.
  const runs = data.runs.filter((r) => r.mode !== 'mixed');
  assert.equal(runs.length, 18);
  for (const run of runs) {
    // The second step: the optimizer states exist (they are created in the first).
    const step = run.steps[1];
    const phases = ['forward_peak', 'backward_peak', 'step_peak'];
    const allocated = Math.max(...phases.map((p) => step[p].max_allocated!));
    const reserved = Math.max(...phases.map((p) => step[p].max_reserved!));
    const e = estimate(measuredInput(run, run.seq, true)).perGpu;
    const label = `run ${run.index} (${run.model} ${run.mode} seq ${run.seq} × ${run.mb}, checkpointing ${run.gc ? 'on' : 'off'}, ${run.attn})`;
    assert.ok(Math.abs(e.allocated / allocated - 1) <= 0.04, `${label}: allocated ${(e.allocated / GiB).toFixed(2)} vs ${(allocated / GiB).toFixed(2)} GiB`);
    assert.ok(Math.abs(e.reserved / reserved - 1) <= 0.12, `${label}: reserved ${(e.reserved / GiB).toFixed(2)} vs ${(reserved / GiB).toFixed(2)} GiB`);
  }
});

test('variable lengths over 40 steps: reserved within 6% of the H200 measurements', () => {
  type VarRun = { model: string; mode: string; lo: number; hi: number; mb: number; gc: number; fused: number; steps: number[][] };
  const runs = JSON.parse(readFileSync(path.join(results, 'h200-varlen-40steps.json'), 'utf8')) as VarRun[];
  assert.equal(runs.length, 6);
  for (const run of runs) {
    const [, allocated, reserved] = run.steps[run.steps.length - 1];
    // The estimate is for the longest step the run met, with lengths that vary.
    const longest = Math.max(...run.steps.map((s) => s[0])) / run.mb;
    const e = estimate(measuredInput(run, longest, false)).perGpu;
    const label = `${run.model} ${run.mode} lengths ${run.lo}–${run.hi} × ${run.mb}, checkpointing ${run.gc ? 'on' : 'off'}${run.fused ? ', fused AdamW' : ''}`;
    assert.ok(Math.abs(e.allocated / allocated - 1) <= 0.04, `${label}: allocated ${(e.allocated / GiB).toFixed(2)} vs ${(allocated / GiB).toFixed(2)} GiB`);
    assert.ok(Math.abs(e.reserved / reserved - 1) <= 0.06, `${label}: reserved ${(e.reserved / GiB).toFixed(2)} vs ${(reserved / GiB).toFixed(2)} GiB`);
  }
});

test('variable lengths over 12 steps: allocated within 4%; the pool depends on the order of lengths (documented spread)', () => {
  type VarRun = { model: string; mode: string; lo: number; hi: number; mb: number; gc: number; pf: number; steps: number[][] };
  const runs = JSON.parse(readFileSync(path.join(results, 'h200-varlen.json'), 'utf8')) as VarRun[];
  for (const run of runs) {
    const [, allocated, reserved] = run.steps[run.steps.length - 1];
    const longest = Math.max(...run.steps.map((s) => s[0]));
    const e = estimate(measuredInput({ ...run, mb: run.pf ? 1 : run.mb }, run.pf ? longest : longest / run.mb, run.lo === run.hi)).perGpu;
    assert.ok(Math.abs(e.allocated / allocated - 1) <= 0.04, `${run.model} ${run.mode} ${run.lo}–${run.hi}: allocated ${(e.allocated / GiB).toFixed(2)} vs ${(allocated / GiB).toFixed(2)} GiB`);
    // docs/memory-model.md §8 states the spread: −28% (full fine-tuning whose records come late) to +43% (LoRA
    // whose longest step came first).
    assert.ok(e.reserved / reserved > 0.7 && e.reserved / reserved < 1.45);
  }
});

/**
 * FSDP FULL_SHARD as Answer.AI's LoRA recipe runs it, measured on the H200 as rank 0 of a world of 2 or 8 over the
 * fake process group (bench/gpu/measure_fsdp_sharded.py: Llama-2-7B shapes with 8 decoder layers, pure bf16, LoRA
 * r64 on all seven projections as units of their own, checkpointing per layer, 2048 tokens, AdamW): the live
 * tensors and the reserved pool with the compute stream's own share (allocator.ts, FSDP_ACTIVATION_CACHE_SHARE).
 */
test('FSDP FULL_SHARD runs measured on the H200: allocated a little high, reserved within 5% at batch 4', () => {
  const { runs } = JSON.parse(readFileSync(path.join(results, 'h200-fsdp-sharded.json'), 'utf8')) as {
    runs: { world: number; offload: boolean; batch: number; layers: number; seq: number; phases: { max_allocated: number; max_reserved: number }[] }[];
  };
  const llama = findCatalogModel('meta-llama/Llama-2-7b-hf')!;
  assert.equal(runs.length, 4);
  for (const run of runs) {
    const architecture = { ...llama.architecture!, numLayers: run.layers };
    const counts = countParams(architecture);
    const model = { ...llama, architecture, totalParams: counts.total, largestLayerParams: counts.largestLayer };
    const r = estimate({
      ...defaultEstimateInput(model),
      engine: 'fsdp',
      torchDtype: 'bf16',
      precision: 'bf16',
      optimizer: 'adamw',
      gpusPerNode: run.world,
      microBatch: run.batch,
      seqLen: run.seq,
      gradientCheckpointing: true,
      fixedLength: true,
      lora: { rank: 64, targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] },
      fsdp: { strategy: 'FULL_SHARD', version: 1, offloadParams: run.offload, mixedPrecision: false, autoWrap: 'TRANSFORMER_BASED_WRAP' },
    });
    const allocated = r.perGpu.allocated / GiB / Math.max(...run.phases.map((p) => p.max_allocated));
    const reserved = r.perGpu.reserved / GiB / Math.max(...run.phases.map((p) => p.max_reserved));
    const what = `world ${run.world}, offload ${run.offload}, batch ${run.batch}: allocated ${allocated.toFixed(2)}, reserved ${reserved.toFixed(2)}`;
    assert.ok(allocated >= 1 && allocated <= 1.2, what);
    // At batch 1 the pool stays at what FSDP's initialisation left cached (docs/memory-model.md §11a), not modelled.
    if (run.batch > 1) assert.ok(reserved >= 0.95 && reserved <= 1.05, what);
    else assert.ok(reserved >= 0.8, what);
  }
});
