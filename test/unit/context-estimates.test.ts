import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type MarkupContent } from 'vscode-languageserver-types';
import { estimateExceedsCode, type FitDiagnosticData } from '../../server/src/estimates/fitDiagnostic';
import { peakTooltip, peakWords, stageHintText } from '../../server/src/estimates/present';
import { formatGiB as gib } from '../../server/src/protocol';
import { GiB } from '../../server/src/memory/units';
import type { EstimateResult } from '../../server/src/memory/types';
import { withDefaults } from '../../server/src/settings';
import { configDocument, fixture, memoryHosts, estimateFeatures } from './context-hosts';

const wholeFile = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };

function result(totalGiB: number, fits: boolean | null, cpu = { params: 0, gradients: 0, optimizerStates: 0 }, nvme = 0): EstimateResult {
  const total = Math.round(totalGiB * GiB);
  const cpuTotal = cpu.params + cpu.gradients + cpu.optimizerStates;
  return {
    perGpu: { params: 0, gradients: 0, optimizerStates: 0, activations: 0, buffers: 0, temporaries: 0, extraModels: 0, allocated: Math.round(total * 0.8), peakPhase: 'optimizer-step', reserved: total, allocatorCache: Math.round(total * 0.2), cudaContext: 0, overhead: 0, total },
    phases: [],
    perCpu: { ...cpu, total: cpuTotal, pinned: 0, peakPhase: null },
    nvme,
    fits,
    notes: [],
    errsHigh: [],
    params: { total: 8e9, trainable: 8e9 },
  };
}

test('hint text: per-GPU estimate, model and GPU count; the GPU size when it does not fit', () => {
  assert.equal(gib(19.24 * GiB), '19.2 GiB');
  assert.equal(gib(1536 * GiB), '1,536 GiB');
  // The total the fit is judged on, the model and the GPUs (within VS Code's 43-character cut), then the allocated
  // figure and the phase that sets the peak, whole in the tooltip.
  assert.equal(stageHintText(result(19.24, true), 'Qwen3-8B', 5, 1), '≈ 19.2 GiB/GPU · Qwen3-8B · 5 GPUs · 15.4 allocated, optimizer step');
  assert.equal(stageHintText(result(0.5, null), 'Qwen3-0.6B', 1, 1), '≈ 0.5 GiB/GPU · Qwen3-0.6B · 1 GPU · 0.4 allocated, optimizer step');
  assert.equal(stageHintText(result(92.06, false), 'Qwen3-32B', 8, 2, 80 * GiB), '≈ 92.1 GiB/GPU (> 80.0 GiB) · Qwen3-32B · 16 GPUs (2 nodes × 8) · 73.6 allocated, optimizer step');
  assert.equal(peakTooltip(result(19.24, true)), 'Peak in the optimizer step: 19.2 GiB per GPU = 19.2 GiB reserved by PyTorch + 0 GiB CUDA context and NCCL; 15.4 GiB allocated (live tensors).');
});

async function setup(settings: Record<string, unknown>, config = 'ds_config_zero2.json') {
  const hosts = memoryHosts({ [config]: fixture(config), 'train_zero2.sh': fixture('train_zero2.sh').replace('ds_config_zero2.json', config) });
  const features = estimateFeatures(hosts);
  const document = configDocument(config);
  const analysis = await estimateFeatures(hosts).analyzeConfig(document, withDefaults(settings));
  return { features, document, analysis, settings: withDefaults(settings) };
}

test('the stage hint sits right after the value and matches the estimate of the current option', async () => {
  const { features, document, analysis, settings } = await setup({ gpuMemoryGiB: 80 });
  const hints = await features.inlayHints!(document, wholeFile, settings);
  assert.equal(hints.length, 1);
  const stageLine = document.getText().split('\n').findIndex((l) => l.includes('"stage"'));
  assert.deepEqual(hints[0].position, { line: stageLine, character: document.getText().split('\n')[stageLine].indexOf('2') + 1 });
  const current = analysis.estimate(analysis.current)!;
  assert.equal(hints[0].label, `≈ ${gib(current.perGpu.total)}/GPU · Qwen3-8B · 5 GPUs · ${peakWords(current)}`);
  const tooltip = hints[0].tooltip as MarkupContent;
  assert.ok(tooltip.value.startsWith(peakTooltip(current)), 'the tooltip gives the total, reserved, allocated and the phase');
  assert.match(tooltip.value, /model Qwen3-8B \(8\.19B params\) _\(train_zero2\.sh line 6\)_/);
  assert.match(tooltip.value, /GPUs\/node 5 _\(train_zero2\.sh line 4\)_/);
});

test('offload devices get a CPU RAM hint (per node) next to them', async () => {
  const { features, document, analysis, settings } = await setup({ gpuMemoryGiB: 80 }, 'ds_config_zero3.json');
  const hints = await features.inlayHints!(document, wholeFile, settings);
  const current = analysis.estimate(analysis.current)!;
  const lines = document.getText().split('\n');
  const labels = hints.map((h) => [lines[h.position.line].trim(), h.label]);
  assert.deepEqual(labels, [
    ['"stage": 3,', `≈ ${gib(current.perGpu.total)}/GPU · Qwen3-8B · 5 GPUs · ${peakWords(current)}`],
    ['"device": "cpu",', `CPU RAM ≈ ${gib(current.perCpu.optimizerStates + current.perCpu.gradients)}/node for the optimizer`],
    ['"device": "cpu", // host RAM is plentiful', `CPU RAM ≈ ${gib(current.perCpu.params)}/node for the parameters`],
  ]);
  // Each names its part; the tooltip gives the node's whole need, the estimate table's "CPU RAM / node".
  for (const hint of hints.slice(1)) assert.equal(hint.tooltip, `What this offload puts in CPU RAM on each node. With pinned buffers and everything else offloaded, a node needs ${gib(current.perCpu.total)} (the estimate table's CPU RAM / node).`);
  assert.ok(current.perCpu.optimizerStates > 0 && current.perCpu.params > 0);
});

test('hover on stage: a table of every option with per-GPU, allocated, peak phase, CPU, fit, communication and shards; current marked', async () => {
  const { features, document, analysis, settings } = await setup({ gpuMemoryGiB: 80 });
  const stageLine = document.getText().split('\n').findIndex((l) => l.includes('"stage"'));
  const hover = await features.hover!(document, { line: stageLine, character: 6 }, settings);
  const markdown = (hover!.contents as MarkupContent).value;
  // The ZeRO table comes first; the same job under FSDP follows in its own table.
  const zeroTable = markdown.split('**The same job under PyTorch FSDP**')[0];
  const rows = zeroTable.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| |'));
  assert.equal(rows.length, 8);
  assert.equal(analysis.options.length, 8);
  for (const option of analysis.options) {
    const label = option.label;
    const row = rows.find((r) => r.split('|')[2].replace(/\*\*/g, '').trim() === label);
    assert.ok(row, `row for ${label}`);
    const cells = row.split('|').map((c) => c.replace(/\*\*/g, '').trim());
    // Sizes in the table keep number and unit together with a no-break space.
    const inCell = (bytes: number) => gib(bytes).replace(' ', '\u00a0');
    assert.equal(cells[3], inCell(option.result.perGpu.total));
    assert.equal(cells[4], inCell(option.result.perGpu.allocated));
    assert.match(cells[5], /^(model loading|optimizer creation|forward \+ backward|optimizer step|checkpoint save)$/);
    assert.equal(cells[6].startsWith(option.result.perCpu.total > 0 ? inCell(option.result.perCpu.total) : '—'), true);
    assert.equal(cells[7], option.result.fits ? '✓' : '✗');
    assert.equal(cells[8], option.target.stage === 3 ? '3Ψ\u00a0(1.5×)' : '2Ψ\u00a0(1×)');
    assert.match(cells[9], option.target.stage === 0 ? /^nothing/ : option.target.stage === 3 ? /parameters/ : /optimizer states/);
    assert.equal(cells[1] === '▶', option.target.stage === 2 && option.target.offloadOptimizer === 'none', `current marker on ${label}`);
  }
  assert.match(markdown, /^\*\*ZeRO options for Qwen3-8B\*\* on 5 GPUs/);
  assert.match(markdown, /Fits 80\.0\u00a0GiB/);
  assert.match(markdown, /micro-batch 2 _\(train_zero2\.sh line 9\)_/);
  // The current option's peak, what it is made of, and what the total means.
  assert.match(markdown, /\*\*ZeRO-2\*\* peaks in the (forward \+ backward|optimizer step): [\d.]+\u00a0GiB allocated \(weights [\d.]+, .*\) \+ [\d.]+\u00a0GiB allocator cache \+ [\d.]+\u00a0GiB CUDA context and NCCL = /);
  assert.match(markdown, /Per GPU: what the GPU must hold/);
  assert.match(markdown, /Errs high where unsure: every sample is assumed to fill 4096 tokens/);
  // No hover away from the stage key.
  assert.equal(await features.hover!(document, { line: 1, character: 4 }, settings), null);
});

test('in Chinese the stage table keeps its short labels whole: phases and option names wrap only at their spaces', async () => {
  const { features, document, settings } = await setup({ gpuMemoryGiB: 80, language: 'zh-cn' });
  const stageLine = document.getText().split('\n').findIndex((l) => l.includes('"stage"'));
  const markdown = ((await features.hover!(document, { line: stageLine, character: 6 }, settings))!.contents as MarkupContent).value;
  const rows = markdown.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| |') && l.includes('ZeRO-'));
  assert.ok(rows.length >= 8, markdown);
  const twoHanApart = /[\u4e00-\u9fff][\u4e00-\u9fff]/;
  for (const row of rows) {
    const cells = row.split('|').map((c) => c.replace(/\*\*/g, '').trim());
    // Option, peak phase: a word joiner between every two Chinese characters, so the narrow hover cannot break there.
    for (const cell of [cells[2], cells[5]]) assert.doesNotMatch(cell, twoHanApart, `${cell} in ${row}`);
    assert.match(cells[5], /^[\u4e00-\u9fff\u2060 +]+$/, cells[5]);
    // What it shards is prose: it wraps where Chinese wraps.
    if (cells[9].length > 6) assert.match(cells[9], twoHanApart);
  }
});

test('fit warning: says by how much, names the smallest change that fits, carries the data its fixes need', async () => {
  const { features, document, analysis, settings } = await setup({ gpuMemoryGiB: 48 });
  const diagnostics = await features.validate!(document, settings);
  assert.equal(diagnostics.length, 1);
  const d = diagnostics[0];
  const current = analysis.estimate(analysis.current)!;
  assert.equal(d.code, estimateExceedsCode);
  assert.equal(d.source, 'zero-lens');
  assert.equal(d.severity, DiagnosticSeverity.Warning);
  assert.ok(d.codeDescription?.href.startsWith('https://'));
  assert.equal(document.getText().slice(document.offsetAt(d.range.start), document.offsetAt(d.range.end)), '2');
  // A stage switch comes first, but no stage fits 48 GiB without offload; offloading the optimizer at ZeRO-2 does.
  const fitting = analysis.options.filter((o) => o.result.fits);
  assert.ok(!fitting.some((o) => o.target.offloadOptimizer === 'none'), 'precondition: nothing fits without offload');
  const expected = analysis.options.find((o) => o.label === 'ZeRO-2 + CPU offload (optimizer)')!;
  assert.equal(expected.result.fits, true);
  assert.equal(
    d.message,
    `ZeRO-2 needs ≈ ${gib(current.perGpu.total)} per GPU, ${gib(current.perGpu.total - 48 * GiB)} more than the 48.0 GiB GPU (Qwen3-8B, 5 GPUs, micro-batch 2, sequence 4096). Smallest change that fits: ${expected.label} (≈ ${gib(expected.result.perGpu.total)}/GPU).`,
  );
  const data = d.data as FitDiagnosticData;
  assert.deepEqual(data.current, analysis.current);
  assert.deepEqual({ ...data.suggestion, perGpuBytes: undefined }, { ...expected.target, perGpuBytes: undefined });

  // Enough memory: no warning. Unknown GPU size: no warning either (fit unknown).
  assert.deepEqual(await features.validate!(document, withDefaults({ gpuMemoryGiB: 200 })), []);
  assert.deepEqual(await features.validate!(document, withDefaults({})), []);
});

test('fit warning when nothing fits: says so and what else to change', async () => {
  const { features, document, settings } = await setup({ gpuMemoryGiB: 4 });
  const [d] = await features.validate!(document, settings);
  assert.match(d.message as string, /No ZeRO option fits: even the most offloaded one needs ≈ \d+\.\d GiB\/GPU\. Lower the micro-batch or sequence length/);
  assert.equal((d.data as FitDiagnosticData).suggestion, null);
});

test('a stage of "auto" (filled by accelerate) gets no estimate and no warning', async () => {
  const text = fixture('ds_config_zero2.json').replace('"stage": 2,', '"stage": "auto",');
  const hosts = memoryHosts({ 'ds_config_zero2.json': text, 'train_zero2.sh': fixture('train_zero2.sh') });
  const features = estimateFeatures(hosts);
  const document = configDocument('ds_config_zero2.json', text);
  const settings = withDefaults({ gpuMemoryGiB: 8 });
  assert.deepEqual(await features.inlayHints!(document, wholeFile, settings), []);
  assert.deepEqual(await features.validate!(document, settings), []);
});
