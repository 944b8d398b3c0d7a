/**
 * One number per setup on every surface, for generated ds_configs and settings (test/protocol/parity.test.ts checks
 * the fixtures over LSP): the training analysis, the sidebar's view, the config's inlay hint, `zero-lens estimate
 * FILE` in a workspace with those settings, and the flags-only `zero-lens estimate --config FILE --model …`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { catalogEntries } from '../../server/src/memory';
import { formatGiB, sameOption } from '../../server/src/protocol';
import { withDefaults } from '../../server/src/settings';
import { runCli } from '../unit/cli-helpers';
import { configDocument, estimateFeatures, memoryHosts } from '../unit/context-hosts';

const setup = fc.record({
  model: fc.constantFrom(...catalogEntries().map((e) => e.id)),
  gpusPerNode: fc.constantFrom(1, 2, 8),
  nodes: fc.constantFrom(1, 4),
  stage: fc.constantFrom(0, 1, 2, 3),
  offloadOptimizer: fc.constantFrom('none', 'cpu', 'nvme'),
  offloadParam: fc.constantFrom('none', 'cpu', 'nvme'),
  precision: fc.constantFrom('bf16', 'fp16', 'fp32'),
  microBatch: fc.constantFrom<number | 'auto'>(1, 4, 'auto'),
  gradAccum: fc.constantFrom<number | 'auto'>(1, 8, 'auto'),
  sequenceLength: fc.constantFrom(512, 4096, 32768),
  gradientCheckpointing: fc.boolean(),
  loraRank: fc.constantFrom(0, 0, 16),
  gpuMemoryGiB: fc.constantFrom(24, 80, 141),
  reduceBucket: fc.constantFrom<number | 'auto' | undefined>(undefined, 'auto', 1e8),
});

test('generated configs: analysis, sidebar view, inlay hint and both CLI forms give the same per-GPU total', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-surface-parity-'));
  try {
    await fc.assert(
      fc.asyncProperty(setup, async (s) => {
        const zero: Record<string, unknown> = { stage: s.stage };
        if (s.offloadOptimizer !== 'none') zero.offload_optimizer = { device: s.offloadOptimizer };
        if (s.offloadParam !== 'none') zero.offload_param = { device: s.offloadParam };
        if (s.reduceBucket !== undefined) zero.reduce_bucket_size = s.reduceBucket;
        const config: Record<string, unknown> = { train_micro_batch_size_per_gpu: s.microBatch, gradient_accumulation_steps: s.gradAccum, zero_optimization: zero };
        if (s.precision !== 'fp32') config[s.precision] = { enabled: true };
        const text = JSON.stringify(config, null, 2);
        const own = { model: s.model, gpusPerNode: s.gpusPerNode, nodes: s.nodes, gpuMemoryGiB: s.gpuMemoryGiB, sequenceLength: s.sequenceLength, gradientCheckpointing: s.gradientCheckpointing, ...(s.loraRank ? { loraRank: s.loraRank } : {}) };
        const settings = withDefaults(own);

        const features = estimateFeatures(memoryHosts({ 'ds_config.json': text }));
        const document = configDocument('ds_config.json', text);
        const analysis = await features.analyzeConfig(document, settings);
        const result = analysis.estimate(analysis.current)!;
        const total = result.perGpu.total;
        const view = await features.getEstimateView(document, settings);
        const row = view!.options.find((o) => sameOption(o, analysis.current));
        if (row) assert.equal(row.result.perGpu.total, total, 'sidebar');
        const hints = await features.inlayHints!(document, { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } }, settings);
        const hint = hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((l) => l.value).join(''))).join(' | ');
        assert.ok(hint.includes(formatGiB(total)), `hint '${hint}' lacks ${formatGiB(total)}`);

        writeFileSync(path.join(dir, 'ds_config.json'), text);
        mkdirSync(path.join(dir, '.vscode'), { recursive: true });
        writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(Object.fromEntries(Object.entries(own).map(([k, v]) => [`zeroLens.${k}`, v]))));
        const byFile = await runCli(['estimate', 'ds_config.json', '--format', 'json'], dir);
        assert.equal(byFile.code, 0, byFile.err);
        const fileJson = JSON.parse(byFile.out);
        assert.equal(fileJson.perGpu.total, total, 'zero-lens estimate FILE');
        assert.equal(fileJson.fits, result.fits);
        const flags = ['--config', 'ds_config.json', '--model', s.model, '--gpus-per-node', String(s.gpusPerNode), '--nodes', String(s.nodes), '--gpu-memory', String(s.gpuMemoryGiB), '--seq-len', String(s.sequenceLength), s.gradientCheckpointing ? '--gradient-checkpointing' : '--no-gradient-checkpointing', ...(s.loraRank ? ['--lora-rank', String(s.loraRank)] : [])];
        const byFlags = await runCli(['estimate', ...flags, '--format', 'json'], dir);
        assert.equal(byFlags.code, 0, byFlags.err);
        assert.equal(JSON.parse(byFlags.out).perGpu.total, total, 'zero-lens estimate --config');
      }),
      { numRuns: 150 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
