import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTrainingContextCommand } from '../../server/src/estimates/setContextCommand';
import { withDefaults } from '../../server/src/settings';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { configDocument, fixture, memoryHosts, scriptDocument, workspaceRoot, estimateFeatures } from './context-hosts';
import { shown } from './context-hosts';
import { describeSource } from '../../server/src/protocol';

const wholeFile = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };

test('a launch script that references the config gives model, GPUs, batch and sequence, each with its line', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json'), 'train_zero2.sh': fixture('train_zero2.sh') });
  const engine = estimateFeatures(hosts);
  const analysis = await engine.analyzeConfig(configDocument('ds_config_zero2.json'), withDefaults({ gpuMemoryGiB: 80, gpusPerNode: 2 }));
  const c = analysis.context;
  assert.deepEqual(shown(c.model), { value: 'Qwen/Qwen3-8B', source: 'train_zero2.sh line 6' });
  // The script wins over the setting for the GPU count.
  assert.deepEqual(shown(c.gpusPerNode), { value: 5, source: 'train_zero2.sh line 4' });
  assert.deepEqual(shown(c.microBatchSize), { value: 2, source: 'train_zero2.sh line 9' });
  assert.deepEqual(shown(c.sequenceLength), { value: 4096, source: 'train_zero2.sh line 10' });
  assert.deepEqual(shown(c.gpuMemoryGiB), { value: 80, source: 'settings (zeroLens.gpuMemoryGiB)' });
  assert.deepEqual(shown(c.nodes), { value: 1, source: 'default' });
  // bf16.enabled is "auto" and the script says nothing: the default, labelled as such.
  assert.deepEqual(shown(c.dtype), { value: 'bf16', source: 'default (for "auto")' });
  assert.equal(c.lora, undefined, '--tuner_type full');
  assert.equal(analysis.model?.displayName, 'Qwen3-8B');
  assert.deepEqual(analysis.missing, []);
  assert.equal(analysis.options.length, 8);
  assert.deepEqual(analysis.current, { stage: 2, offloadOptimizer: 'none', offloadParam: 'none' });
});

test('several scripts: the first by path is used and the note says which others exist', async () => {
  const other = fixture('train_zero2.sh').replace('NPROC_PER_NODE=5', 'NPROC_PER_NODE=8').replace('CUDA_VISIBLE_DEVICES=0,1,2,3,4 \\\n', '');
  const hosts = memoryHosts({
    'ds_config_zero2.json': fixture('ds_config_zero2.json'),
    'b_train.sh': other,
    'a_train.sh': fixture('train_zero2.sh'),
  });
  const analysis = await estimateFeatures(hosts).analyzeConfig(configDocument('ds_config_zero2.json'), withDefaults({}));
  assert.equal(analysis.context.gpusPerNode?.value, 5);
  assert.match(describeSource(analysis.context.gpusPerNode!.source), /^a_train\.sh line \d+$/);
  assert.equal(analysis.context.notes.length, 1);
  assert.match(analysis.context.notes[0], /using a_train\.sh line \d+ \(first by path\), not b_train\.sh line \d+/);
});

test('settings only: every value says it comes from settings, the config micro-batch wins over the setting', async () => {
  const hosts = memoryHosts({ 'ds_config_minimal.json': fixture('ds_config_minimal.json') });
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 4, nodes: 2, gpuMemoryGiB: 24, sequenceLength: 1024, microBatchSize: 8, loraRank: 16, dtype: 'fp16' });
  const analysis = await estimateFeatures(hosts).analyzeConfig(configDocument('ds_config_minimal.json'), settings);
  const c = analysis.context;
  assert.deepEqual(shown(c.model), { value: 'Qwen/Qwen3-8B', source: 'settings (zeroLens.model)' });
  assert.deepEqual(shown(c.gpusPerNode), { value: 4, source: 'settings (zeroLens.gpusPerNode)' });
  assert.deepEqual(shown(c.nodes), { value: 2, source: 'settings (zeroLens.nodes)' });
  assert.deepEqual(shown(c.sequenceLength), { value: 1024, source: 'settings (zeroLens.sequenceLength)' });
  // An explicit number in the config is what DeepSpeed uses.
  assert.deepEqual(shown(c.microBatchSize), { value: 4, source: 'ds_config_minimal.json (train_micro_batch_size_per_gpu)' });
  assert.deepEqual(shown(c.lora), { value: { rank: 16 }, source: 'settings (zeroLens.loraRank)' });
  // No bf16/fp16 section: the setting decides.
  assert.deepEqual(shown(c.dtype), { value: 'fp16', source: 'settings (zeroLens.dtype)' });
  assert.deepEqual(analysis.missing, []);
});

test('"auto" micro-batch comes from the script, else the setting, else the default', async () => {
  const config = fixture('ds_config_zero2.json');
  const withSetting = await estimateFeatures(memoryHosts({ 'ds_config_zero2.json': config })).analyzeConfig(
    configDocument('ds_config_zero2.json'),
    withDefaults({ microBatchSize: 3 }),
  );
  assert.deepEqual(shown(withSetting.context.microBatchSize), { value: 3, source: 'settings (zeroLens.microBatchSize)' });
  const bare = await estimateFeatures(memoryHosts({ 'ds_config_zero2.json': config })).analyzeConfig(configDocument('ds_config_zero2.json'), withDefaults({}));
  assert.deepEqual(shown(bare.context.microBatchSize), { value: 1, source: 'default (for "auto")' });
});

test('nothing known: no numbers anywhere, and a one-click way to set the model and GPUs', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') });
  const features = estimateFeatures(hosts);
  const document = configDocument('ds_config_zero2.json');
  const settings = withDefaults({});
  const analysis = await estimateFeatures(hosts).analyzeConfig(document, settings);
  assert.deepEqual(analysis.missing, ['model', 'gpusPerNode', 'gpuMemoryGiB']);
  assert.deepEqual(analysis.options, []);

  const hints = await features.inlayHints!(document, wholeFile, settings);
  assert.equal(hints.length, 1);
  const label = hints[0].label;
  assert.ok(Array.isArray(label));
  assert.equal(label[0].command?.command, setTrainingContextCommand);
  assert.deepEqual(label[0].command?.arguments, [{ uri: document.uri, missing: ['model', 'gpusPerNode', 'gpuMemoryGiB'] }]);
  assert.doesNotMatch(label[0].value, /\d/, 'no invented numbers');
  assert.equal(label[0].value, 'set model & GPUs for a memory estimate…');
  // With the model set, the hint asks only for what is still missing.
  const [gpusOnly] = await features.inlayHints!(document, wholeFile, withDefaults({ model: 'Qwen/Qwen3-8B' }));
  assert.equal((gpusOnly.label as { value: string }[])[0].value, 'set the GPU count for a memory estimate…');

  const hover = await features.hover!(document, { line: 6, character: 6 }, settings);
  const markdown = (hover!.contents as { value: string }).value;
  assert.match(markdown, /does not know the model or the number of GPUs/);
  assert.match(markdown, /command:zeroLens\.setTrainingContext\?/);
  assert.doesNotMatch(markdown, /\d GiB/, "no invented numbers");

  assert.deepEqual(await features.validate!(document, settings), []);
  const actions = await features.codeActions!(document, { start: { line: 6, character: 4 }, end: { line: 6, character: 4 } }, { diagnostics: [] }, settings);
  const setContext = actions.find((a) => a.command?.command === setTrainingContextCommand);
  assert.ok(setContext, 'a code action sets the context');
  assert.ok(actions.some((a) => a.title === 'Switch to ZeRO-3'), 'stage switches are offered without numbers');
});

test('an unknown model name is reported as such, not estimated', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') });
  const analysis = await estimateFeatures(hosts).analyzeConfig(configDocument('ds_config_zero2.json'), withDefaults({ model: 'acme/NoSuchModel', gpusPerNode: 8 }));
  assert.equal(analysis.model, undefined);
  assert.deepEqual(analysis.options, []);
  assert.match(analysis.modelProblem ?? '', /cannot size the model "acme\/NoSuchModel" \(from settings \(zeroLens\.model\)\)/);
  assert.equal(analysis.missing[0], 'model');
});

test('an unknown model whose name states a size is estimated from it, marked approximate', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') });
  const analysis = await estimateFeatures(hosts).analyzeConfig(configDocument('ds_config_zero2.json'), withDefaults({ model: 'acme/NoSuchModel-13B', gpusPerNode: 8 }));
  assert.equal(analysis.model?.totalParams, 13e9);
  assert.equal(analysis.model?.approximate?.label, 'size from the name');
  assert.ok(analysis.options.length > 0);
  // Never silent: the notes every surface lists (hover, CLI) say how to get an exact size.
  assert.ok(analysis.notes.includes(analysis.model!.approximate!.howToExact));
});

test('launch references are read once and kept until invalidate()', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json'), 'train_zero2.sh': fixture('train_zero2.sh') });
  const engine = estimateFeatures(hosts);
  const settings = withDefaults({});
  await engine.analyzeConfig(configDocument('ds_config_zero2.json'), settings);
  const afterFirst = hosts.reads();
  // New versions of the config (typing) must not re-read the workspace.
  for (let version = 2; version < 20; version++) {
    await engine.analyzeConfig(configDocument('ds_config_zero2.json', fixture('ds_config_zero2.json').replace('"stage": 2', `"stage": ${version % 4}`), version), settings);
  }
  assert.equal(hosts.reads(), afterFirst);
  hosts.write('train_zero2.sh', fixture('train_zero2.sh').replace('NPROC_PER_NODE=5', 'NPROC_PER_NODE=3'));
  engine.invalidate();
  const fresh = await engine.analyzeConfig(configDocument('ds_config_zero2.json'), settings);
  assert.equal(fresh.context.gpusPerNode?.value, 3);
});

test('a config keeps the analyses of its latest version only: typing does not pile up one per keystroke', async () => {
  const engine = estimateFeatures(memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') }));
  const settings = withDefaults({});
  const version = (n: number) => configDocument('ds_config_zero2.json', fixture('ds_config_zero2.json'), n);
  const first = await engine.analyzeConfig(version(1), settings);
  assert.equal(await engine.analyzeConfig(version(1), settings), first, 'the same version is answered from the cache');
  const second = await engine.analyzeConfig(version(2), settings);
  assert.equal(await engine.analyzeConfig(version(2), settings), second);
  const again = await engine.analyzeConfig(version(1), settings);
  assert.notEqual(again, first, 'version 1 was dropped once version 2 was analysed, so it is computed anew');
  assert.deepEqual(again.current, first.current, 'and comes out the same');
});

test('a script document: its own command is the context, its preset the current option', async () => {
  const hosts = memoryHosts({ 'train_preset.sh': fixture('train_preset.sh') });
  const features = estimateFeatures(hosts);
  const view = await features.getEstimateView(scriptDocument('train_preset.sh'), withDefaults({ gpuMemoryGiB: 80 }));
  assert.ok(view);
  assert.equal(view.kind, 'launch-script');
  assert.deepEqual(view.current, { stage: 2, offloadOptimizer: 'none', offloadParam: 'none' });
  assert.equal(view.context.model?.value.displayName, 'Qwen2.5-7B');
  assert.deepEqual(shown(view.context.gpusPerNode), { value: 8, source: 'train_preset.sh line 2' });
  assert.deepEqual(shown(view.context.loraRank), { value: 16, source: 'train_preset.sh line 6' });
  assert.equal(view.options.length, 8);
  assert.equal(view.gpuMemoryBytes, 80 * 2 ** 30);
  assert.deepEqual(view.missing, []);
});

test('a LLaMA-Factory YAML that names the config gives the context for the config, and its own view', async () => {
  const hosts = memoryHosts({ 'ds_config_zero3.json': fixture('ds_config_zero3.json'), 'llama3_lora.yaml': fixture('llama3_lora.yaml') });
  const settings = withDefaults({ gpusPerNode: 4 });
  const analysis = await estimateFeatures(hosts).analyzeConfig(configDocument('ds_config_zero3.json'), settings);
  assert.deepEqual(shown(analysis.context.model), { value: 'meta-llama/Meta-Llama-3-8B-Instruct', source: 'llama3_lora.yaml line 2' });
  assert.deepEqual(shown(analysis.context.lora), { value: { rank: 8, quantBits: undefined }, source: 'llama3_lora.yaml line 7' });
  assert.deepEqual(shown(analysis.context.sequenceLength), { value: 2048, source: 'llama3_lora.yaml line 12' });
  assert.deepEqual(shown(analysis.context.gpusPerNode), { value: 4, source: 'settings (zeroLens.gpusPerNode)' });
  // The config's explicit values win over the YAML for what DeepSpeed reads itself.
  assert.deepEqual(shown(analysis.context.microBatchSize), { value: 1, source: 'ds_config_zero3.json (train_micro_batch_size_per_gpu)' });
  assert.deepEqual(shown(analysis.context.dtype), { value: 'bf16', source: 'ds_config_zero3.json (bf16/fp16)' });
  assert.deepEqual(analysis.missing, ['gpuMemoryGiB']);

  const view = await estimateFeatures(hosts).getEstimateView(
    TextDocument.create(URI.file(path.join(workspaceRoot, 'llama3_lora.yaml')).toString(), 'yaml', 1, fixture('llama3_lora.yaml')),
    settings,
  );
  assert.equal(view?.kind, 'launch-yaml');
  assert.deepEqual(view?.current, { stage: 3, offloadOptimizer: 'cpu', offloadParam: 'cpu' });
  assert.equal(view?.options.length, 8);
  assert.deepEqual(shown(view?.context.loraRank), { value: 8, source: 'llama3_lora.yaml line 7' });
});

test('train_batch_size without a micro-batch: the micro-batch is what DeepSpeed derives for the GPUs', async () => {
  const config = JSON.stringify({ train_batch_size: 64, zero_optimization: { stage: 2 } });
  const engine = estimateFeatures(memoryHosts({ 'ds_config.json': config }));
  const analysis = await engine.analyzeConfig(configDocument('ds_config.json', config), withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8 }));
  assert.deepEqual(shown(analysis.context.microBatchSize), { value: 8, source: 'ds_config.json (train_batch_size 64 ÷ 8 GPUs ÷ 1 accumulation)' });
});

test('gradient accumulation: "auto" takes the swift flag, else ms-swift default max(1, ⌈16 ÷ micro ÷ world⌉)', async () => {
  const config = fixture('ds_config_zero2.json'); // "gradient_accumulation_steps": "auto"
  const settings = withDefaults({});
  // train_zero2.sh: swift sft, --per_device_train_batch_size 2 on NPROC_PER_NODE=5: ⌈16 ÷ 2 ÷ 5⌉ = ⌈1.6⌉ = 2.
  const byDefault = await estimateFeatures(memoryHosts({ 'ds_config_zero2.json': config, 'train_zero2.sh': fixture('train_zero2.sh') })).analyzeConfig(configDocument('ds_config_zero2.json'), settings);
  assert.deepEqual(shown(byDefault.context.gradientAccumulationSteps), { value: 2, source: 'ms-swift default ⌈16 ÷ 2 ÷ 5 GPUs⌉ (train_zero2.sh)' });
  const flagged = fixture('train_zero2.sh').replace('--max_length 4096', '--max_length 4096 \\\n    --gradient_accumulation_steps 4');
  const byFlag = await estimateFeatures(memoryHosts({ 'ds_config_zero2.json': config, 'train_zero2.sh': flagged })).analyzeConfig(configDocument('ds_config_zero2.json'), settings);
  assert.deepEqual(shown(byFlag.context.gradientAccumulationSteps), { value: 4, source: 'train_zero2.sh line 11' });
  // 16 samples per step are reached without accumulation: 1 (max(1, ⌈16 ÷ 2 ÷ 16⌉) = 1).
  const wide = fixture('train_zero2.sh').replace('NPROC_PER_NODE=5', 'NPROC_PER_NODE=16').replace('CUDA_VISIBLE_DEVICES=0,1,2,3,4 \\\n', '');
  const byWide = await estimateFeatures(memoryHosts({ 'ds_config_zero2.json': config, 'train_zero2.sh': wide })).analyzeConfig(configDocument('ds_config_zero2.json'), settings);
  assert.deepEqual(shown(byWide.context.gradientAccumulationSteps), { value: 1, source: 'ms-swift default ⌈16 ÷ 2 ÷ 16 GPUs⌉ (train_zero2.sh)' });
  // GRPO's own default is 1 (rlhf_args.py:527-530).
  const grpo = fixture('train_zero2.sh').replace('swift sft', 'swift rlhf --rlhf_type grpo');
  const byGrpo = await estimateFeatures(memoryHosts({ 'ds_config_zero2.json': config, 'train_zero2.sh': grpo })).analyzeConfig(configDocument('ds_config_zero2.json'), settings);
  assert.deepEqual(shown(byGrpo.context.gradientAccumulationSteps), { value: 1, source: 'ms-swift default (train_zero2.sh)' });
  // No script: the default, labelled as filling "auto".
  const bare = await estimateFeatures(memoryHosts({ 'ds_config_zero2.json': config })).analyzeConfig(configDocument('ds_config_zero2.json'), withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8 }));
  assert.deepEqual(shown(bare.context.gradientAccumulationSteps), { value: 1, source: 'default (for "auto")' });
});

test('gradient accumulation from the config: its number, else derived from train_batch_size, else 1 (the script flag does not reach DeepSpeed)', async () => {
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8 });
  const analyze = async (config: object, files: Record<string, string> = {}) => {
    const text = JSON.stringify(config);
    return (await estimateFeatures(memoryHosts({ 'ds_config.json': text, ...files })).analyzeConfig(configDocument('ds_config.json', text), settings)).context;
  };
  const zero2 = { zero_optimization: { stage: 2 } };
  assert.deepEqual(shown((await analyze({ ...zero2, train_micro_batch_size_per_gpu: 2, gradient_accumulation_steps: 8 })).gradientAccumulationSteps), { value: 8, source: 'ds_config.json (gradient_accumulation_steps)' });
  // config.py:955-958: 64 // 2 // 8 GPUs = 4.
  assert.deepEqual(shown((await analyze({ ...zero2, train_batch_size: 64, train_micro_batch_size_per_gpu: 2 })).gradientAccumulationSteps), { value: 4, source: 'ds_config.json (train_batch_size 64 ÷ 8 GPUs ÷ micro-batch 2)' });
  // train_batch_size alone: DeepSpeed sets accumulation 1 and derives the micro-batch (config.py:973-975).
  const alone = await analyze({ ...zero2, train_batch_size: 64 });
  assert.deepEqual(alone.microBatchSize.value, 8);
  assert.deepEqual(shown(alone.gradientAccumulationSteps), { value: 1, source: 'ds_config.json (train_batch_size 64 ÷ 8 GPUs ÷ micro-batch 8)' });
  // No key, a flag in the script: DeepSpeed keeps 1, and a note says the flag does not reach it.
  const script = 'deepspeed --num_gpus 8 train.py --deepspeed ds_config.json --model_name_or_path Qwen/Qwen3-8B --gradient_accumulation_steps 4\n';
  const ignored = await analyze({ ...zero2, train_micro_batch_size_per_gpu: 2 }, { 'train.sh': script });
  assert.deepEqual(shown(ignored.gradientAccumulationSteps), { value: 1, source: "accelerate's 1 for a config without it (train.sh)" });
  // Through the HF Trainer accelerate writes 1 before DeepSpeed could derive 64 ÷ 2 ÷ 8 = 4 (dataclasses.py:1274-1275);
  // a script's own --deepspeed_config reaches deepspeed.initialize, which derives it.
  const batch = { ...zero2, train_batch_size: 64, train_micro_batch_size_per_gpu: 2 };
  assert.deepEqual((await analyze(batch, { 'train.sh': script })).gradientAccumulationSteps.value, 1);
  const native = 'deepspeed --num_gpus 8 train.py --deepspeed --deepspeed_config ds_config.json\n';
  assert.deepEqual(shown((await analyze(batch, { 'train.sh': native })).gradientAccumulationSteps), { value: 4, source: 'ds_config.json (train_batch_size 64 ÷ 8 GPUs ÷ micro-batch 2)' });
  assert.ok(ignored.notes.some((n) => n === 'ds_config.json has no gradient_accumulation_steps, so DeepSpeed accumulates 1, not the 4 of train.sh line 1; "auto" would take the script\'s value.'), ignored.notes.join('\n'));
});

test('gradient accumulation reaches the estimate: ZeRO-2 CPU offload gains the CPU accumulation buffer', async () => {
  const config = JSON.stringify({ zero_optimization: { stage: 2, offload_optimizer: { device: 'cpu' } }, bf16: { enabled: true }, train_micro_batch_size_per_gpu: 1, gradient_accumulation_steps: 4 });
  const analysis = await estimateFeatures(memoryHosts({ 'ds_config.json': config })).analyzeConfig(configDocument('ds_config.json', config), withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8 }));
  const offload = analysis.estimate({ stage: 2, offloadOptimizer: 'cpu', offloadParam: 'none' })!;
  // Qwen3-8B, P = 8,190,735,360 over 8 ranks of one node: fp32 gradient copy 4P + bf16 buffer 2P = 49,144,412,160,
  // + each rank's bf16 offload temp buffer of the embedding, 8 · 2 · 622,329,856 = 59,101,689,856.
  assert.equal(offload.perCpu.gradients, 59_101_689_856);
  assert.ok(offload.notes.some((n) => n.startsWith('Gradient accumulation (4 steps)')));
});

test('gradient accumulation from a LLaMA-Factory YAML and from an accelerate config fills "auto"', async () => {
  const config = JSON.stringify({ zero_optimization: { stage: 2, offload_optimizer: { device: 'cpu' } }, gradient_accumulation_steps: 'auto' });
  const yaml = fixture('llama3_lora.yaml').replace('ds_config_zero3.json', 'ds_config.json') + 'gradient_accumulation_steps: 8\n';
  const hosts = memoryHosts({ 'ds_config.json': config, 'llama3_lora.yaml': yaml });
  const analysis = await estimateFeatures(hosts).analyzeConfig(configDocument('ds_config.json', config), withDefaults({ gpusPerNode: 4 }));
  assert.deepEqual(shown(analysis.context.gradientAccumulationSteps), { value: 8, source: 'llama3_lora.yaml line 14' });

  // accelerate builds the config itself from deepspeed_config (utils/dataclasses.py:1302-1305).
  const accelerate = 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n  offload_optimizer_device: cpu\n  gradient_accumulation_steps: 4\nnum_machines: 1\nnum_processes: 8\nmixed_precision: bf16\n';
  const view = await estimateFeatures(memoryHosts({ 'accelerate.yaml': accelerate })).getEstimateView(
    TextDocument.create(URI.file(path.join(workspaceRoot, 'accelerate.yaml')).toString(), 'yaml', 1, accelerate),
    withDefaults({ model: 'Qwen/Qwen3-8B' }),
  );
  const offload = view?.options.find((o) => o.stage === 2 && o.offloadOptimizer === 'cpu');
  // Qwen3-8B on 8 ranks: fp32 gradient copy 4P + bf16 buffer 2P = 6 · 8,190,735,360 = 49,144,412,160 bytes,
  // + the offload temp buffers 8 · 2 · 622,329,856 = 59,101,689,856.
  assert.equal(offload?.result.perCpu.gradients, 59_101_689_856);
});

test('an open config\'s analysis follows the settings, the caller\'s overrides and the version, whatever was asked just before', async () => {
  const hosts = memoryHosts({ 'ds_config_zero2.json': fixture('ds_config_zero2.json') });
  const engine = estimateFeatures(hosts);
  const document = configDocument('ds_config_zero2.json');
  const two = withDefaults({ gpuMemoryGiB: 80, gpusPerNode: 2 });
  const gpus = async (settings = two, caller = {}) => (await engine.analyses.training.analyzeConfig(document, settings, caller)).context.gpusPerNode?.value;
  assert.equal(await gpus(), 2);
  assert.equal(await gpus(), 2);
  assert.equal(await gpus(withDefaults({ gpuMemoryGiB: 80, gpusPerNode: 4 })), 4);
  assert.equal(await gpus(), 2);
  assert.equal(await gpus(two, { context: { gpusPerNode: { value: 8, source: { kind: 'default' } } } }), 8);
  assert.equal(await gpus(two, {}), 2);
  // A new version in the same settings: its own stage.
  const stage = async () => (await engine.analyzeConfig(document, two)).current.stage;
  assert.equal(await stage(), 2);
  const at = document.getText().indexOf('"stage": 2') + '"stage": '.length;
  TextDocument.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + 1) }, text: '3' }], document.version + 1);
  assert.equal(await stage(), 3);
});

test('the hosts that record what a document\'s checks read are kept while they record for it, and made again once it closed', async () => {
  const training = estimateFeatures(memoryHosts({ 'requirements.txt': 'deepspeed==0.14.4\n', 'pyproject.toml': '' })).analyses.training;
  const uri = URI.file(path.join(workspaceRoot, 'ds_config.json')).toString();
  const pins = path.join(workspaceRoot, 'requirements.txt');
  const project = path.join(workspaceRoot, 'pyproject.toml');
  const hosts = training.hostsReadingFor(uri);
  assert.equal(training.hostsReadingFor(uri), hosts, 'the same while the document is open');
  await hosts.fs.readFile(pins, 'requirements');
  assert.deepEqual(training.filesChanged([pins]), [uri]);
  training.documentClosed(uri);
  // Opened again: what it reads now counts, what it read before does not.
  await training.hostsReadingFor(uri).fs.readFile(project, 'requirements');
  assert.deepEqual(training.filesChanged([pins]), []);
  assert.deepEqual(training.filesChanged([project]), [uri]);
});
