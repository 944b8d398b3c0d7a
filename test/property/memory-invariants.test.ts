/**
 * Invariants of the memory estimate over generated setups, through `zero-lens estimate … --format json` (in-process,
 * the CLI's real path into the training layer). Each property is one a reader relies on without reading
 * docs/memory-model.md; where the model breaks one on purpose (a documented mechanism), the generator stays out of
 * that region and the comment names the section that explains it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { catalogEntries } from '../../server/src/memory';
import { runCli } from '../unit/cli-helpers';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const models = catalogEntries().map((e) => e.id);
const GiB = 2 ** 30;

async function estimateJson(args: string[]): Promise<Json> {
  const r = await runCli(['estimate', ...args, '--format', 'json'], process.cwd());
  assert.equal(r.code, 0, `zero-lens estimate ${args.join(' ')}: ${r.err}`);
  return JSON.parse(r.out);
}

/** Every number outside the echoed inputs is finite and not negative. */
function assertSaneNumbers(value: unknown, where: string): void {
  if (typeof value === 'number') assert.ok(Number.isFinite(value) && value >= 0, `${where} = ${value}`);
  else if (Array.isArray(value)) value.forEach((v, i) => assertSaneNumbers(v, `${where}[${i}]`));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (k !== 'inputs' && k !== 'context') assertSaneNumbers(v, `${where}.${k}`);
}

const modelArg = fc.oneof(
  fc.constantFrom(...models).map((m) => ['--model', m]),
  fc.constantFrom('1M', '30M', '125M', '7B', '70B', '1T').map((p) => ['--params', p]),
);
const engineArg = fc.oneof(
  fc.record({ stage: fc.constantFrom(0, 1, 2, 3), oo: fc.constantFrom('none', 'cpu', 'nvme'), op: fc.constantFrom('none', 'cpu', 'nvme') }).map((z) => ['--stage', String(z.stage), '--offload-optimizer', z.oo, '--offload-param', z.op]),
  fc.constant(['--ddp']),
  fc.record({ s: fc.constantFrom('full_shard', 'shard_grad_op', 'no_shard', 'hybrid_shard', 'hybrid_shard_zero2'), off: fc.boolean() }).map((f) => ['--fsdp', f.s, ...(f.off ? ['--fsdp-offload'] : [])]),
  // TP and PP that divide neither heads nor layers are estimated too (the launch checks report them).
  fc.record({ tp: fc.constantFrom(1, 2, 3, 8), pp: fc.constantFrom(1, 3, 7) }).map((m) => ['--tp', String(m.tp), '--pp', String(m.pp)]),
  fc.record({ tp: fc.constantFrom(2, 3), stage: fc.constantFrom(0, 1, 2) }).map((a) => ['--tp', String(a.tp), '--stage', String(a.stage)]),
);
const workloadArg = fc
  .record({
    gpn: fc.constantFrom(1, 2, 8, 16),
    nodes: fc.constantFrom(1, 2, 128),
    seq: fc.constantFrom(1, 2048, 32768, 1_000_000),
    mb: fc.constantFrom(1, 4, 512),
    ga: fc.constantFrom(1, 8),
    dtype: fc.constantFrom('bf16', 'fp16', 'fp32'),
    lora: fc.constantFrom(0, 0, 8, 64),
    qlora: fc.boolean(),
    gc: fc.boolean(),
    gpuMemory: fc.constantFrom(undefined, 24, 80),
    extra: fc.subarray(
      [['--use-liger-kernel'], ['--attn-impl', 'eager'], ['--packing'], ['--optimizer', 'adam8bit'], ['--optimizer', 'muon'], ['--optimizer', 'paged_adamw_8bit'], ['--torch-dtype', 'fp32'], ['--rlhf', 'dpo'], ['--rlhf', 'grpo'], ['--sequence-parallel', '2']],
      { maxLength: 2 },
    ),
  })
  .map((w) => ({
    gpuMemory: w.gpuMemory,
    args: [
      '--gpus-per-node', String(w.gpn), '--nodes', String(w.nodes), '--seq-len', String(w.seq), '--micro-batch', String(w.mb), '--grad-accum', String(w.ga), '--dtype', w.dtype,
      ...(w.lora ? ['--lora-rank', String(w.lora), ...(w.qlora ? ['--qlora'] : [])] : []),
      ...(w.gc ? ['--gradient-checkpointing'] : []),
      ...(w.gpuMemory ? ['--gpu-memory', String(w.gpuMemory)] : []),
      ...w.extra.flat(),
    ],
  }));

test('every valid setup: sane numbers, total = reserved + context, the peak phase is the largest, fits follows the total', async () => {
  await fc.assert(
    fc.asyncProperty(modelArg, engineArg, workloadArg, async (model, engine, workload) => {
      const args = [...model, ...engine, ...workload.args];
      const r = await runCli(['estimate', ...args, '--format', 'json'], process.cwd());
      if (r.code === 2) return; // a combination the CLI refuses with a reason (e.g. --ddp with --sequence-parallel's launcher rules)
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out);
      assertSaneNumbers(j, args.join(' '));
      const g = j.perGpu;
      assert.equal(g.total, g.reserved + g.cudaContext);
      assert.ok(g.allocated <= g.reserved);
      const largest = Math.max(...j.phases.map((p: Json) => p.total));
      assert.equal(g.total, largest);
      assert.equal(j.phases.find((p: Json) => p.phase === g.peakPhase).total, largest);
      assert.equal(g.allocated, Math.max(...j.phases.map((p: Json) => p.allocated)));
      for (const p of j.phases) {
        const terms = p.params + p.gradients + p.optimizerStates + p.activations + p.buffers + p.temporaries + p.extraModels;
        assert.ok(Math.abs(terms - p.allocated) <= 8, `${p.phase}: terms ${terms} vs allocated ${p.allocated}`);
        assert.ok(p.allocated <= p.reserved && p.reserved <= p.total);
      }
      const card = workload.gpuMemory === undefined ? undefined : workload.gpuMemory * GiB;
      assert.equal(j.fits, card === undefined ? null : g.total <= card);
      for (const row of [...j.stages, ...j.alternatives]) assert.equal(row.fits, card === undefined ? null : row.perGpuTotal <= card);
      assert.ok(j.inputs.largestLayerParams.value <= j.inputs.totalParams.value, 'no single layer is larger than the model');
    }),
    { numRuns: 400 },
  );
});

/** Params + gradients + optimizer states, at the phase where they are largest. */
const modelStates = (j: Json): number => Math.max(...j.phases.map((p: Json) => p.params + p.gradients + p.optimizerStates));
const zero = (stage: number, oo = 'none', op = 'none') => ['--stage', String(stage), '--offload-optimizer', oo, '--offload-param', op];

const catalogJob = fc.record({
  model: fc.constantFrom(...models),
  gpn: fc.constantFrom(2, 4, 8),
  nodes: fc.constantFrom(1, 2),
  seq: fc.constantFrom(128, 2048, 8192),
  mb: fc.constantFrom(1, 2, 8),
  // fp32 with ZeRO-1/2 keeps a separate fp32 master partition and so costs more than fp32 without ZeRO (§4): 16-bit only.
  dtype: fc.constantFrom('bf16', 'fp16'),
  gc: fc.boolean(),
});
type Job = { model: string; gpn: number; nodes: number; seq: number; mb: number; dtype: string; gc: boolean };
const jobArgs = (s: Job): string[] => [
  '--model', s.model, '--gpus-per-node', String(s.gpn), '--nodes', String(s.nodes), '--seq-len', String(s.seq), '--micro-batch', String(s.mb), '--dtype', s.dtype, ...(s.gc ? ['--gradient-checkpointing'] : []),
];

test('a higher ZeRO stage never holds more model states; offloading at ZeRO-3 never adds GPU memory', async () => {
  await fc.assert(
    fc.asyncProperty(catalogJob, async (s) => {
      const job = jobArgs(s);
      const byStage = await Promise.all([0, 1, 2, 3].map((st) => estimateJson([...job, ...zero(st)])));
      for (let st = 0; st < 3; st++) assert.ok(modelStates(byStage[st + 1]) <= modelStates(byStage[st]), `ZeRO-${st + 1} vs ZeRO-${st}`);
      // Totals are not compared across stages: ZeRO's reduce buckets are allocated whole (§7) and ZeRO-3 gathers up to
      // the whole model below 1e9 parameters (§6), so small models need more at a higher stage. At ZeRO-1/2 optimizer
      // offload adds a staging buffer of the largest parameter (§6), which can outweigh a small partition.
      const none = byStage[3].perGpu.total;
      const optimizer = (await estimateJson([...job, ...zero(3, 'cpu')])).perGpu.total;
      const both = (await estimateJson([...job, ...zero(3, 'cpu', 'cpu')])).perGpu.total;
      const nvme = (await estimateJson([...job, ...zero(3, 'nvme', 'nvme')])).perGpu.total;
      assert.ok(optimizer <= none && both <= optimizer && nvme <= none);
    }),
    { numRuns: 60 },
  );
});

test('ZeRO-3 on more GPUs never needs more per GPU; longer sequences and bigger micro-batches never less', async () => {
  await fc.assert(
    fc.asyncProperty(catalogJob, fc.constantFrom('--gpus-per-node', '--nodes'), async (s, doubled) => {
      const base = await estimateJson([...jobArgs(s), ...zero(3)]);
      const more = await estimateJson([...jobArgs({ ...s, [doubled === '--nodes' ? 'nodes' : 'gpn']: (doubled === '--nodes' ? s.nodes : s.gpn) * 2 }), ...zero(3)]);
      assert.ok(more.perGpu.total <= base.perGpu.total, `${doubled} doubled: ${more.perGpu.total} > ${base.perGpu.total}`);
      for (const grown of [{ ...s, seq: s.seq * 2 }, { ...s, mb: s.mb * 2 }]) {
        const bigger = await estimateJson([...jobArgs(grown), ...zero(3)]);
        assert.ok(bigger.perGpu.total >= base.perGpu.total);
        assert.ok(Math.max(...bigger.phases.map((p: Json) => p.activations)) >= Math.max(...base.phases.map((p: Json) => p.activations)));
      }
    }),
    { numRuns: 60 },
  );
});

test('gradient checkpointing never adds activations; QLoRA never needs more than LoRA; LoRA under ZeRO never more than full fine-tuning', async () => {
  await fc.assert(
    fc.asyncProperty(catalogJob, fc.constantFrom(0, 2, 3), async (s, stage) => {
      const plain = await estimateJson([...jobArgs({ ...s, gc: false }), ...zero(stage)]);
      const checkpointed = await estimateJson([...jobArgs({ ...s, gc: true }), ...zero(stage)]);
      // The phase's activations term is the larger of early backward (all activations) and late backward (one layer
      // beside every gradient, §2), so compare the forward + backward phase's allocation, which holds either.
      const fb = (j: Json) => j.phases.find((p: Json) => p.phase === 'forward-backward').allocated;
      assert.ok(fb(checkpointed) <= fb(plain));
      const lora = await estimateJson([...jobArgs(s), ...zero(stage), '--lora-rank', '16']);
      const qlora = await estimateJson([...jobArgs(s), ...zero(stage), '--lora-rank', '16', '--qlora']);
      // A 4-bit base saves 1.5 bytes per frozen weight, divided over the GPUs at ZeRO-3, but each matmul dequantises a
      // layer's weight and the pool keeps those 16-bit blocks (§8, §11): on a tiny model sharded many ways that can
      // outweigh the saving (Pythia-70M on 16 GPUs: 0.35 MB more), by at most the largest layer in 16 bits.
      const dequantised = 2 * lora.inputs.largestLayerParams.value;
      assert.ok(qlora.perGpu.total <= lora.perGpu.total + dequantised, `QLoRA ${qlora.perGpu.total} > LoRA ${lora.perGpu.total} + ${dequantised}`);
      // DeepSpeed casts the adapters with the module (16-bit); plain PyTorch and FSDP keep PEFT's fp32 adapters, whose
      // inputs are saved as fp32 copies and can outweigh the states saved on a small model (§8): ZeRO only here.
      assert.ok(lora.perGpu.total <= (await estimateJson([...jobArgs(s), ...zero(stage)])).perGpu.total);
    }),
    // The case a random run found, where QLoRA's dequantised layer outweighs its saving, is always among the runs.
    { numRuns: 60, examples: [[{ model: 'EleutherAI/pythia-70m-deduped', gpn: 8, nodes: 2, seq: 128, mb: 1, dtype: 'bf16', gc: false }, 3]] },
  );
});

/** DeepSpeed's estimate_zero2/zero3_model_states_mem_needs, written out again from its source (stage_1_and_2.py, stage3.py). */
function deepSpeedFormula(P: number, LL: number, gpn: number, nodes: number, stage: number, cpuOptimizer: boolean, cpuParams: boolean, zeroInit: boolean, abf: number): { gpu: number; cpu: number } {
  const gpus = gpn * nodes;
  if (stage < 3) {
    return cpuOptimizer
      ? { gpu: Math.trunc(2 * P), cpu: Math.trunc(P * Math.max(4 * gpus, 16) * abf) }
      : { gpu: Math.trunc(2 * P + Math.trunc((18 * P) / gpus)), cpu: Math.trunc(P * 4 * gpn * abf) };
  }
  const f = 1 / nodes;
  if (cpuOptimizer && cpuParams) return { gpu: 4 * LL, cpu: Math.trunc(zeroInit ? P * 18 * f * abf : P * Math.max(4 * gpn, 18 * f) * abf) };
  if (cpuOptimizer) return { gpu: Math.trunc(4 * LL + Math.trunc((2 * P) / gpus)), cpu: Math.trunc(zeroInit ? P * 16 * f * abf : P * Math.max(4 * gpn, 16 * f) * abf) };
  return { gpu: Math.trunc(4 * LL + Math.trunc((18 * P) / gpus)), cpu: Math.trunc(zeroInit ? LL * 4 * gpn * abf : P * 4 * gpn * abf) };
}

test('--mode deepspeed equals DeepSpeed\'s own estimator formulas, to the byte', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        P: fc.integer({ min: 1000, max: 2e12 }),
        share: fc.double({ min: 1e-4, max: 1, noNaN: true }),
        gpn: fc.integer({ min: 1, max: 16 }),
        nodes: fc.constantFrom(1, 2, 3, 128),
        stage: fc.constantFrom(1, 2, 3),
        cpuOptimizer: fc.boolean(),
        cpuParams: fc.boolean(),
        zeroInit: fc.boolean(),
        abf: fc.constantFrom(1, 1.25, 1.5, 2),
      }),
      async (s) => {
        const LL = Math.max(1, Math.floor(s.P * s.share));
        const args = ['--params', String(s.P), '--largest-layer-params', String(LL), '--gpus-per-node', String(s.gpn), '--nodes', String(s.nodes), '--mode', 'deepspeed', '--stage', String(s.stage), '--offload-optimizer', s.cpuOptimizer ? 'cpu' : 'none', '--additional-buffer-factor', String(s.abf)];
        if (s.stage === 3) args.push('--offload-param', s.cpuParams ? 'cpu' : 'none', s.zeroInit ? '--zero-init' : '--no-zero-init');
        const j = await estimateJson(args);
        // DeepSpeed offloads parameters only together with the optimizer; parameter offload alone has no row.
        const want = deepSpeedFormula(s.P, LL, s.gpn, s.nodes, s.stage, s.cpuOptimizer, s.stage === 3 && s.cpuOptimizer && s.cpuParams, s.zeroInit, s.abf);
        assert.deepEqual({ gpu: j.perGpu.total, cpu: j.perCpu.total }, want);
      },
    ),
    { numRuns: 300 },
  );
});

test('a model given only by its count never gets a largest layer larger than itself', async () => {
  for (const params of ['1M', '30M', '42M']) {
    const j = await estimateJson(['--params', params, '--gpus-per-node', '8', '--stage', '3', '--mode', 'deepspeed']);
    const total = j.inputs.totalParams.value;
    assert.ok(j.inputs.largestLayerParams.value <= total, `${params}: largest layer ${j.inputs.largestLayerParams.value}`);
    // ZeRO-3 with everything offloaded keeps the largest layer's 16-bit params and gradients: at most 4 bytes per parameter.
    const offloaded = await estimateJson(['--params', params, '--gpus-per-node', '8', '--stage', '3', '--mode', 'deepspeed', '--offload-optimizer', 'cpu', '--offload-param', 'cpu']);
    assert.ok(offloaded.perGpu.total <= 4 * total);
  }
});
