import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction } from 'vscode-languageserver-types';
import { estimateExceedsCode } from '../../server/src/estimates/fitDiagnostic';
import type { ZeroOption as StageTarget } from '../../server/src/protocol';
import { withDefaults } from '../../server/src/settings';
import { applyWorkspaceEdit, configDocument, fixture, memoryHosts, scriptDocument, estimateFeatures } from './context-hosts';

const known = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 });

async function actionsFor(name: string, settings = known, diagnostics: CodeAction['diagnostics'] = []) {
  const features = estimateFeatures(memoryHosts({ [name]: fixture(name) }));
  const document = configDocument(name);
  const line = document.getText().split('\n').findIndex((l) => l.includes('"stage"'));
  const actions = await features.codeActions!(document, { start: { line, character: 0 }, end: { line, character: 0 } }, { diagnostics: diagnostics ?? [] }, settings);
  const apply = (titleStart: string): string => {
    const action = actions.find((a) => a.title.startsWith(titleStart));
    assert.ok(action, `an action "${titleStart}…" among ${actions.map((a) => a.title).join(' | ')}`);
    return applyWorkspaceEdit(document, action.edit as Parameters<typeof applyWorkspaceEdit>[1]);
  };
  return { actions, apply, document, features };
}

test('zero2: each fix title carries its estimate; only the lower fitting stage is preferred', async () => {
  const { actions } = await actionsFor('ds_config_zero2.json');
  const titles = actions.map((a) => a.title.replace(/\d+\.\d GiB/g, 'N GiB'));
  assert.deepEqual(titles, [
    'Switch to ZeRO-0 (≈ N GiB/GPU)',
    'Switch to ZeRO-1 (≈ N GiB/GPU)',
    'Switch to ZeRO-3 (≈ N GiB/GPU)',
    'Offload optimizer states to CPU (≈ N GiB/GPU)',
    'Offload parameters to CPU (ZeRO-3, ≈ N GiB/GPU)',
  ]);
  // On 8 × 80 GiB ZeRO-0 does not fit and ZeRO-1 does: the lowest fitting stage is preferred (lower is faster).
  assert.deepEqual(actions.filter((a) => a.isPreferred).map((a) => a.title.slice(0, 16)), ['Switch to ZeRO-1']);
});

test('Switch to ZeRO-3 changes the stage value and nothing else; comments survive', async () => {
  const { apply } = await actionsFor('ds_config_zero2.json');
  assert.equal(apply('Switch to ZeRO-3'), fixture('ds_config_zero2.json').replace('"stage": 2, // fastest', '"stage": 3, // fastest'));
});

test('Offload optimizer states to CPU inserts the block after the last key, keeping its block comment; nothing the title does not name', async () => {
  const { apply } = await actionsFor('ds_config_zero2.json');
  assert.equal(
    apply('Offload optimizer states'),
    `{
  // ZeRO-2 for the 8B run
  "bf16": { "enabled": "auto" },
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "zero_optimization": {
    "stage": 2, // fastest that fits?
    "overlap_comm": true,
    "contiguous_gradients": true,
    "reduce_bucket_size": 5e8, /* tuned on A100 */
    "offload_optimizer": {
      "device": "cpu"
    }
  }
}
`,
  );
});

test('Offload parameters to CPU moves to ZeRO-3 and adds offload_param', async () => {
  const { apply } = await actionsFor('ds_config_zero2.json');
  assert.equal(
    apply('Offload parameters'),
    `{
  // ZeRO-2 for the 8B run
  "bf16": { "enabled": "auto" },
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "zero_optimization": {
    "stage": 3, // fastest that fits?
    "overlap_comm": true,
    "contiguous_gradients": true,
    "reduce_bucket_size": 5e8, /* tuned on A100 */
    "offload_param": {
      "device": "cpu"
    }
  }
}
`,
  );
});

test('leaving ZeRO-3 removes every ZeRO-3-only key, each named in the title; the offload choices stay', async () => {
  const { apply, actions } = await actionsFor('ds_config_zero3.json');
  assert.match(
    actions.find((a) => a.title.startsWith('Switch to ZeRO-2'))!.title,
    /, removing sub_group_size, stage3_prefetch_bucket_size, stage3_param_persistence_threshold, max_live_parameters, stage3_max_reuse_distance, stage3_gather_16bit_weights_on_model_save \(read only by ZeRO-3\)$/,
  );
  assert.equal(
    apply('Switch to ZeRO-2'),
    `{
  "bf16": {
    "enabled": true
  },
  "train_micro_batch_size_per_gpu": 1,
  "zero_optimization": {
    // sharded everything
    "stage": 2,
    "offload_optimizer": {
      "device": "cpu",
      "pin_memory": true
    },
    "offload_param": {
      "device": "cpu", // host RAM is plentiful
      "pin_memory": true
    },
    "overlap_comm": true,
    "reduce_bucket_size": "auto"
  },
  "steps_per_print": 100
}
`,
  );
});

test('Switch to ZeRO-0 changes the stage and keeps the offload the user chose (the checks then flag it)', async () => {
  const { apply } = await actionsFor('ds_config_zero3.json');
  const text = apply('Switch to ZeRO-0');
  assert.match(text, /"stage": 0,\n {4}"offload_optimizer": \{\n {6}"device": "cpu",\n {6}"pin_memory": true\n {4}\},/);
  assert.match(text, /"offload_param": \{\n {6}"device": "cpu", \/\/ host RAM is plentiful/);
  assert.doesNotMatch(text, /stage3_|sub_group_size|max_live_parameters/);
});

test('one-line objects stay on one line', async () => {
  const { apply } = await actionsFor('ds_config_minimal.json');
  assert.equal(apply('Offload optimizer states'), '{"zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}, "train_micro_batch_size_per_gpu": 4}\n');
  assert.equal(apply('Switch to ZeRO-2'), '{"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 4}\n');
});

test('trailing commas are kept; a stage switch keeps a partial offload ratio and the NVMe path (the user\'s choices)', async () => {
  const { apply } = await actionsFor('ds_config_trailing.json');
  assert.equal(
    apply('Switch to ZeRO-2'),
    `{
  "zero_optimization": {
    "stage": 2,
    "offload_optimizer": {"device": "nvme", "nvme_path": "/nvme", "ratio": 0.5,},
  },
}
`,
  );
  assert.equal(
    apply('Offload parameters'),
    `{
  "zero_optimization": {
    "stage": 3,
    "stage3_max_live_parameters": 1e9, // trailing commas below
    "offload_optimizer": {"device": "nvme", "nvme_path": "/nvme", "ratio": 0.5,},
    "offload_param": {
      "device": "cpu"
    },
  },
}
`,
  );
});

test('stage and offload moves keep the deprecated cpu_offload flag where it already says CPU', async () => {
  const { apply, actions } = await actionsFor('ds_config_legacy.json');
  assert.ok(!actions.some((a) => a.title.includes('removing')), 'replacing the flag is not dropping a setting');
  assert.equal(apply('Switch to ZeRO-3'), fixture('ds_config_legacy.json').replace('"stage": 2,', '"stage": 3,'));
  assert.equal(
    apply('Offload parameters'),
    `{
  "zero_optimization": {
    "stage": 3,
    "cpu_offload": true,
    "offload_param": {
      "device": "cpu"
    }
  },
  "fp16": {"enabled": true}
}
`,
  );
});

test('fixes attach to the fit warning; its suggestion is preferred when no plain stage switch fits', async () => {
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 5, gpuMemoryGiB: 40 });
  const features = estimateFeatures(memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') }));
  const document = configDocument('ds_config_zero2.json');
  const [warning] = await features.validate!(document, settings);
  assert.equal(warning.code, estimateExceedsCode);
  // Asked from the diagnostic's range (as the editor does), not from the stage line.
  const actions = await features.codeActions!(document, warning.range, { diagnostics: [warning] }, settings);
  assert.ok(actions.length >= 4);
  assert.ok(actions.every((a) => a.diagnostics?.[0] === warning));
  const preferred = actions.filter((a) => a.isPreferred);
  assert.equal(preferred.length, 1);
  assert.match(preferred[0].title, /^Offload optimizer states to CPU/);
});

test('no actions away from the stage line without a warning; none on broken JSON', async () => {
  const { features, document } = await actionsFor('ds_config_zero2.json');
  assert.deepEqual(await features.codeActions!(document, { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, { diagnostics: [] }, known), []);
  const broken = configDocument('ds_config_zero2.json', fixture('ds_config_zero2.json').replace('"overlap_comm": true,', '"overlap_comm": tru,'));
  const actions = await features.codeActions!(broken, { start: { line: 6, character: 0 }, end: { line: 6, character: 0 } }, { diagnostics: [] }, known);
  assert.deepEqual(actions, [], 'no edits on a file with syntax errors');
});

test('ApplyOption: a config without zero_optimization gets one, in the file\'s tab indentation', async () => {
  const features = estimateFeatures(memoryHosts({ 'ds_config_nozero.json': fixture('ds_config_nozero.json') }));
  const document = configDocument('ds_config_nozero.json');
  const result = await features.getApplyOptionEdit(document, { uri: document.uri, stage: 2, offloadOptimizer: 'cpu', offloadParam: 'none' }, known);
  assert.equal(
    applyWorkspaceEdit(document, result.edit as Parameters<typeof applyWorkspaceEdit>[1]),
    '{\n\t"train_batch_size": 16,\n\t"fp16": {\n\t\t"enabled": true\n\t},\n\t"zero_optimization": {\n\t\t"stage": 2,\n\t\t"offload_optimizer": {\n\t\t\t"device": "cpu"\n\t\t}\n\t}\n}\n',
  );
  const same = await features.getApplyOptionEdit(document, { uri: document.uri, stage: 0, offloadOptimizer: 'none', offloadParam: 'none' }, known);
  assert.deepEqual(same, { edit: null, reason: 'The config already uses ZeRO-0.' });
});

test('ApplyOption NVMe: sets the device and invents no nvme_path (the check then asks for the user\'s own)', async () => {
  const features = estimateFeatures(memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') }));
  const document = configDocument('ds_config_zero2.json');
  const result = await features.getApplyOptionEdit(document, { uri: document.uri, stage: 3, offloadOptimizer: 'nvme', offloadParam: 'none' }, known);
  const text = applyWorkspaceEdit(document, result.edit as Parameters<typeof applyWorkspaceEdit>[1]);
  assert.match(text, /"offload_optimizer": \{\n {6}"device": "nvme"\n {4}\}/);
  assert.doesNotMatch(text, /nvme_path|local_nvme/);
});

test('ApplyOption on a script: the ms-swift preset name changes; options without a preset say why', async () => {
  const features = estimateFeatures(memoryHosts({ 'train_preset.sh': fixture('train_preset.sh') }));
  const document = scriptDocument('train_preset.sh');
  const result = await features.getApplyOptionEdit(document, { uri: document.uri, stage: 3, offloadOptimizer: 'cpu', offloadParam: 'cpu' }, known);
  assert.equal(
    applyWorkspaceEdit(document, result.edit as Parameters<typeof applyWorkspaceEdit>[1]),
    fixture('train_preset.sh').replace('--deepspeed zero2', '--deepspeed zero3_offload'),
  );
  const none = await features.getApplyOptionEdit(document, { uri: document.uri, stage: 1, offloadOptimizer: 'cpu', offloadParam: 'none' }, known);
  assert.equal(none.edit, null);
  assert.match(none.reason ?? '', /ms-swift has no preset for ZeRO-1 \+ CPU offload \(optimizer\)/);
});

test('ApplyOption on a script that points at a JSON file edits that file', async () => {
  const features = estimateFeatures(memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json'), 'train_zero2.sh': fixture('train_zero2.sh') }));
  const script = scriptDocument('train_zero2.sh');
  const result = await features.getApplyOptionEdit(script, { uri: script.uri, stage: 3, offloadOptimizer: 'none', offloadParam: 'none' }, known);
  const config = configDocument('ds_config_zero2.json');
  assert.deepEqual(Object.keys(result.edit?.changes ?? {}), [config.uri]);
  assert.equal(applyWorkspaceEdit(config, result.edit as Parameters<typeof applyWorkspaceEdit>[1]), fixture('ds_config_zero2.json').replace('"stage": 2,', '"stage": 3,'));
});

test('a config without zero_optimization (stage 0) gets the warning and the fixes on its first key', async () => {
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 });
  const features = estimateFeatures(memoryHosts({ 'ds_config_nozero.json': fixture('ds_config_nozero.json') }));
  const document = configDocument('ds_config_nozero.json');
  const [warning] = await features.validate!(document, settings);
  assert.equal(warning.code, estimateExceedsCode);
  assert.match(warning.message as string, /^ZeRO-0 needs/);
  assert.equal(document.getText().slice(document.offsetAt(warning.range.start), document.offsetAt(warning.range.end)), '"train_batch_size"');
  const actions = await features.codeActions!(document, warning.range, { diagnostics: [warning] }, settings);
  const preferred = actions.find((a) => a.isPreferred)!;
  assert.match(preferred.title, /^Switch to ZeRO-\d \(≈ \d+\.\d GiB\/GPU\)$/);
  const after = applyWorkspaceEdit(document, preferred.edit as Parameters<typeof applyWorkspaceEdit>[1]);
  assert.match(after, /\t"zero_optimization": \{\n\t\t"stage": \d\n\t\}\n\}\n$/);
});

test('when only a stage switch combined with offload fits, it is offered as one preferred move', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') });
  const document = configDocument('ds_config_zero2.json');
  const base = { model: 'Qwen/Qwen3-8B', gpusPerNode: 2 };
  // Size the GPU between ZeRO-3 + full offload and every other move.
  const probe = await estimateFeatures(hosts).analyzeConfig(document, withDefaults(base));
  const full = probe.estimate({ stage: 3, offloadOptimizer: 'cpu', offloadParam: 'cpu' })!.perGpu.total;
  const others = [
    { stage: 3, offloadOptimizer: 'none', offloadParam: 'none' },
    { stage: 2, offloadOptimizer: 'cpu', offloadParam: 'none' },
    { stage: 3, offloadOptimizer: 'none', offloadParam: 'cpu' },
    { stage: 1, offloadOptimizer: 'cpu', offloadParam: 'none' },
    { stage: 3, offloadOptimizer: 'cpu', offloadParam: 'none' },
  ].map((t) => probe.estimate(t as StageTarget)!.perGpu.total);
  assert.ok(full < Math.min(...others), 'precondition: full offload is the smallest');
  const settings = withDefaults({ ...base, gpuMemoryGiB: (full + Math.min(...others)) / 2 / 2 ** 30 });

  const features = estimateFeatures(hosts);
  const [warning] = await features.validate!(document, settings);
  assert.match(warning.message as string, /Smallest change that fits: ZeRO-3 \+ CPU offload \(optimizer, params\) \(≈ \d+\.\d GiB\/GPU\)\.$/);
  const actions = await features.codeActions!(document, warning.range, { diagnostics: [warning] }, settings);
  const preferred = actions.filter((a) => a.isPreferred);
  assert.equal(preferred.length, 1);
  assert.match(preferred[0].title, /^Switch to ZeRO-3 \+ CPU offload \(optimizer, params\) \(≈ \d+\.\d GiB\/GPU\)$/);
  const after = applyWorkspaceEdit(document, preferred[0].edit as Parameters<typeof applyWorkspaceEdit>[1]);
  assert.match(after, /"stage": 3, \/\/ fastest that fits\?/);
  assert.match(after, /"offload_optimizer": \{\n {6}"device": "cpu"\n {4}\},\n {4}"offload_param": \{\n {6}"device": "cpu"\n/);
});
