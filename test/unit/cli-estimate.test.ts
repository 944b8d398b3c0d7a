import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliRun } from './cli-helpers';
import { runEstimate } from '../../server/src/cli/estimate';
import { deepSpeedZero2, deepSpeedZero3, estimate, defaultEstimateInput, findCatalogModel, GiB } from '../../server/src/memory';
import { nodeFileSystem } from '../../server/src/nodeHost';

const fixtures = join(__dirname, '..', 'fixtures', 'memory');

function cli(args: string[], cwd = fixtures): Promise<CliRun> {
  return runCli(['estimate', ...args], cwd);
}

async function json(args: string[]) {
  const r = await cli([...args, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

test('--format json has the documented shape, in bytes', async () => {
  const j = await json(['--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8', '--stage', '3', '--gpu-memory', '80']);
  assert.equal(j.schemaVersion, 2);
  assert.deepEqual(Object.keys(j.perGpu).sort(), [
    'activations', 'allocated', 'allocatorCache', 'buffers', 'cudaContext', 'extraModels', 'gradients', 'optimizerStates', 'overhead', 'params', 'peakPhase', 'reserved', 'temporaries', 'total',
  ]);
  // total is what 'fits' is judged on: reserved plus the CUDA context and NCCL; allocated stands beside it.
  assert.equal(j.perGpu.total, j.perGpu.reserved + j.perGpu.cudaContext);
  assert.ok(j.perGpu.allocated <= j.perGpu.reserved);
  assert.deepEqual(j.phases.map((p: { phase: string }) => p.phase), ['load', 'optimizer-init', 'forward-backward', 'optimizer-step', 'checkpoint-save']);
  assert.ok(j.phases.some((p: { phase: string; total: number }) => p.phase === j.perGpu.peakPhase && p.total === j.perGpu.total));
  assert.ok(Array.isArray(j.errsHigh));
  assert.equal(typeof j.perCpu.total, 'number');
  assert.equal(typeof j.nvme, 'number');
  assert.equal(j.fits, true);
  assert.deepEqual(j.stages.map((s: { stage: number }) => s.stage), [0, 1, 2, 3]);
  assert.ok(j.stages.every((s: { perGpuTotal: unknown; allocated: unknown; peakPhase: unknown }) => typeof s.perGpuTotal === 'number' && typeof s.allocated === 'number' && typeof s.peakPhase === 'string'));
  assert.equal(j.stages[3].perGpuTotal, j.perGpu.total);
  // Same numbers as the core, given the same input.
  const model = findCatalogModel('Qwen/Qwen3-8B')!;
  const core = estimate({ ...defaultEstimateInput(model), gpusPerNode: 8, stage: 3, gpuMemoryBytes: 80 * GiB });
  assert.deepEqual(j.perGpu, core.perGpu);
  // Every input says where it came from.
  assert.deepEqual(j.inputs.stage, { value: 3, source: { kind: 'cli', flag: '--stage' } });
  assert.deepEqual(j.inputs.totalParams, { value: 8_190_735_360, source: { kind: 'catalog', id: 'Qwen/Qwen3-8B' } });
  assert.deepEqual(j.inputs.seqLen, { value: 2048, source: { kind: 'default' } });
  assert.deepEqual(j.inputs.gpuMemoryBytes, { value: 80 * GiB, source: { kind: 'cli', flag: '--gpu-memory' } });
  // Buffer sizes nobody gave are DeepSpeed's defaults, reported as such (overlap_comm on at stage 3).
  assert.deepEqual(j.inputs.reduceBucketSize, { value: 5e8, source: { kind: 'default' } });
  assert.deepEqual(j.inputs.overlapComm, { value: true, source: { kind: 'default' } });
});

test('fits is null without --gpu-memory, false when too big', async () => {
  assert.equal((await json(['--params', '7B'])).fits, null);
  assert.equal((await json(['--params', '70B', '--gpu-memory', '80'])).fits, false);
});

test('counts accept 7e9, 7B, 7000M and 7,000,000,000', async () => {
  for (const form of ['7e9', '7B', '7000M', '7,000,000,000', '7b']) {
    const j = await json(['--params', form, '--stage', '2']);
    assert.equal(j.inputs.totalParams.value, 7e9, form);
  }
  const j = await json(['--params', '7B', '--largest-layer-params', '500M']);
  assert.deepEqual(j.inputs.largestLayerParams, { value: 5e8, source: { kind: 'cli', flag: '--largest-layer-params' } });
});

test('--mode deepspeed: perGpu.total and perCpu.total equal DeepSpeed\'s estimator to the byte', async () => {
  const P = 2_851_598_336;
  const LL = 32_899_072;
  const base = ['--params', String(P), '--largest-layer-params', String(LL), '--gpus-per-node', '8', '--mode', 'deepspeed'];
  const cases: Array<[string[], { cpu: number; gpu: number }]> = [
    [['--stage', '2'], deepSpeedZero2(P, 8, 1, false)],
    [['--stage', '2', '--offload-optimizer', 'cpu'], deepSpeedZero2(P, 8, 1, true)],
    [['--stage', '2', '--legacy-zero2'], deepSpeedZero2(P, 8, 1, false, 1.5, true)],
    [['--stage', '3'], deepSpeedZero3(P, LL, 8, 1, false, false, true)],
    [['--stage', '3', '--no-zero-init'], deepSpeedZero3(P, LL, 8, 1, false, false, false)],
    [['--stage', '3', '--offload-optimizer', 'cpu'], deepSpeedZero3(P, LL, 8, 1, true, false, true)],
    [['--stage', '3', '--offload-optimizer', 'cpu', '--offload-param', 'cpu'], deepSpeedZero3(P, LL, 8, 1, true, true, true)],
    [['--stage', '3', '--offload-optimizer', 'cpu', '--offload-param', 'cpu', '--zero-init'], deepSpeedZero3(P, LL, 8, 1, true, true, true)],
  ];
  for (const [args, expected] of cases) {
    const j = await json([...base, ...args]);
    assert.equal(j.perGpu.total, expected.gpu, args.join(' '));
    assert.equal(j.perCpu.total, expected.cpu, args.join(' '));
    const parts = j.perGpu.params + j.perGpu.gradients + j.perGpu.optimizerStates + j.perGpu.buffers;
    assert.equal(parts, j.perGpu.total, `breakdown adds up: ${args.join(' ')}`);
  }
  const factor = await json([...base, '--stage', '2', '--offload-optimizer', 'cpu', '--additional-buffer-factor', '2']);
  assert.equal(factor.perCpu.total, deepSpeedZero2(P, 8, 1, true, 2).cpu);
  // The documented values.
  assert.equal((await json([...base, '--stage', '3'])).perGpu.total, 6_547_692_544);
  assert.equal((await json([...base, '--stage', '2'])).stages[0].perGpuTotal, null);
});

test('--mode deepspeed text output prints DeepSpeed\'s tables', async () => {
  const r = await cli(['--params', '2851598336', '--largest-layer-params', '32899072', '--gpus-per-node', '8', '--mode', 'deepspeed', '--stage', '3']);
  assert.equal(r.code, 0);
  assert.ok(r.out.includes('SW: Model with 2851M total params, 32M largest layer params.'));
  assert.ok(r.out.includes('   71.71GB |   0.12GB | offload_param=cpu , offload_optimizer=cpu , zero_init=1'));
  assert.ok(r.out.includes('  127.48GB |  11.29GB | offload_optimizer=none'));
});

test('text output: all stages side by side, GiB written as everywhere else (one decimal), fit marked with a symbol and a word', async () => {
  const r = await cli(['--model', 'qwen3-8b', '--gpus-per-node', '8', '--gpu-memory', '80', '--stage', '2']);
  assert.equal(r.code, 0, r.err);
  const header = r.out.split('\n').find((l) => l.startsWith('GiB'))!;
  assert.match(header, /ZeRO-0\s+ZeRO-1\s+ZeRO-2 \*\s+ZeRO-3/);
  const fits = r.out.split('\n').find((l) => l.startsWith('fits'))!;
  assert.match(fits, /(✓ fits|✗ too big)/);
  const total = r.out.split('\n').find((l) => l.startsWith('total per GPU'))!;
  assert.match(total, /^total per GPU(\s+\d+\.\d){4}$/);
});

test('--config: stage, offload and buckets from the file, with file and key as sources; "auto" filled like the HF Trainer', async () => {
  const j = await json(['--config', 'ds_zero3_offload.json', '--model', 'meta-llama/Llama-3.1-8B', '--gpus-per-node', '4']);
  assert.deepEqual(j.inputs.stage, { value: 3, source: { kind: 'config', file: join(fixtures, 'ds_zero3_offload.json'), key: 'zero_optimization.stage' } });
  assert.deepEqual(j.inputs.offloadParam.value, 'cpu');
  assert.deepEqual(j.inputs.precision, { value: 'bf16', source: { kind: 'default', forAuto: true } });
  assert.equal(j.inputs.reduceBucketSize.value, 4096 * 4096);
  assert.equal(j.inputs.pinMemory.value, true);
  // The offloaded states are pinned; saving adds the 16-bit model in rank 0's pageable memory on top.
  const training = j.phases.find((p: { phase: string }) => p.phase === 'optimizer-step').cpu;
  assert.equal(j.perCpu.pinned, training);
  assert.ok(j.perCpu.total > training);
  assert.equal(j.perCpu.peakPhase, 'checkpoint-save');
  assert.ok(j.notes.some((n: string) => n.includes('"auto"')));
  // Flags win over the config.
  const overridden = await json(['--config', 'ds_zero3_offload.json', '--params', '7B', '--stage', '2']);
  assert.deepEqual(overridden.inputs.stage, { value: 2, source: { kind: 'cli', flag: '--stage' } });
  const z2 = await json(['--config', join(fixtures, 'ds_zero2_bf16.json'), '--params', '7B']);
  assert.equal(z2.inputs.microBatch.value, 4);
  assert.deepEqual(z2.inputs.optimizer.source, { kind: 'config', file: join(fixtures, 'ds_zero2_bf16.json'), key: 'optimizer.type' });
});

test('LoRA and QLoRA through the CLI', async () => {
  const full = await json(['--model', 'meta-llama/Llama-3.1-8B', '--stage', '0']);
  const lora = await json(['--model', 'meta-llama/Llama-3.1-8B', '--stage', '0', '--lora-rank', '8']);
  const qlora = await json(['--model', 'meta-llama/Llama-3.1-8B', '--stage', '0', '--lora-rank', '8', '--qlora']);
  assert.ok(lora.perGpu.optimizerStates < full.perGpu.optimizerStates / 100);
  assert.ok(qlora.perGpu.params < lora.perGpu.params / 2);
  assert.deepEqual(lora.inputs.lora.value, { rank: 8, targetModules: ['all-linear'] });
});

test('bad input: clear message on stderr, exit 2, nothing on stdout', async () => {
  const bad: string[][] = [
    ['--stage', '4', '--params', '7B'],
    ['--params', 'seven'],
    ['--params', '7B', '--offload-optimizer', 'disk'],
    ['--params', '7B', '--dtype', 'int8'],
    ['--params', '7B', '--optimizer', 'rmsprop-ish'],
    ['--params', '7B', '--gpus-per-node', '0'],
    ['--params', '7B', '--seq-len', '99999999999999999999'],
    ['--params', '7B', '--format', 'yaml'],
    ['--params', '7B', '--bogus'],
    ['--params'],
    [],
    ['--model', 'nobody/no-such-model'],
    ['--config', 'missing.json', '--params', '7B'],
    ['--config', 'ds_broken.json', '--params', '7B'],
    ['--params', '7B', '--mode', 'deepspeed', '--stage', '0'],
    ['--params', '7B', '--qlora'],
    ['--params', '7B', '--gpu-memory', 'lots'],
  ];
  for (const args of bad) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args.join(' ')} → ${r.code} ${r.out}`);
    assert.equal(r.out, '', args.join(' '));
    assert.match(r.err, /^zero-lens estimate: .+\n/, args.join(' '));
  }
  assert.match((await cli(['--model', 'nobody/no-such-model'])).err, /not in the built-in catalog/);
  // An option that only means something beside another one is refused without it, as --qlora is without
  // --lora-rank: it used to be dropped without a word (and its value never checked: --lora-dropout 1.5).
  const needs: Array<[string[], RegExp]> = [
    [['--lora-dropout', '0.1'], /--lora-dropout needs --lora-rank\./],
    [['--lora-dropout', '1.5'], /--lora-dropout needs --lora-rank\./],
    [['--lora-targets', 'q_proj,v_proj'], /--lora-targets needs --lora-rank\./],
    [['--teacher-offload'], /--teacher-offload needs --rlhf \(dpo, /],
    [['--rollout-offload'], /--rollout-offload needs --rlhf/],
    [['--vllm-sleep-level', '1'], /--vllm-sleep-level needs --rlhf/],
    [['--max-completion-length', '256'], /--max-completion-length needs --rlhf/],
    [['--zero-init'], /--zero-init needs --mode deepspeed\./],
    [['--no-zero-init'], /--no-zero-init needs --mode deepspeed\./],
    [['--legacy-zero2'], /--legacy-zero2 needs --mode deepspeed\./],
    [['--additional-buffer-factor', '2'], /--additional-buffer-factor needs --mode deepspeed\./],
    // Plain PyTorch or FSDP and a ZeRO option: the table showed plain PyTorch's figures under "ZeRO-3 *".
    [['--ddp', '--stage', '3'], /--ddp trains without DeepSpeed, and --stage is a DeepSpeed ZeRO option: give one\./],
    [['--ddp', '--offload-optimizer', 'cpu'], /--ddp trains without DeepSpeed, and --offload-optimizer is a DeepSpeed ZeRO option/],
    [['--fsdp', 'full_shard', '--offload-param', 'cpu'], /--fsdp trains without DeepSpeed, and --offload-param is a DeepSpeed ZeRO option/],
  ];
  for (const [args, message] of needs) {
    const r = await cli(['--params', '7B', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')} → ${r.code} ${r.out}`);
    assert.equal(r.out, '', args.join(' '));
    assert.match(r.err, message, args.join(' '));
  }
  assert.match((await cli(['--config', 'ds_broken.json', '--params', '7B'])).err, /not a valid ds_config/);
});

test('--config and --model files that cannot be used say why, in the words zero-lens check uses', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zero-lens-estimate-'));
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  const err = async (args: string[]) => {
    const r = await cli(args, dir);
    assert.equal(r.code, 2, `${args.join(' ')} → ${r.out}`);
    return r.err.split('\n')[0];
  };
  write('deep.json', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
  write('empty.json', '');
  write('list.json', '[{"train_batch_size": 8}]');
  write('broken.json', '{\n  "train_batch_size": 8\n  "gradient_clipping": 1.0\n}');
  mkdirSync(join(dir, 'configs'));
  mkdirSync(join(dir, 'no-weights'));
  // jsonc-parser's recursion overflowed the stack on this one: "zero-lens: Maximum call stack size exceeded".
  assert.match(await err(['--params', '7B', '--config', 'deep.json']), /'deep.json' is not a valid ds_config: Nesting deeper than 256 levels/);
  assert.match(await err(['--params', '7B', '--config', 'empty.json']), /line 1, column 1: The file is empty/);
  assert.match(await err(['--params', '7B', '--config', 'list.json']), /one JSON object \{ \.\.\. \}, not a list/);
  assert.match(await err(['--params', '7B', '--config', 'broken.json']), /line 3, column 3: .*'zero-lens check broken.json' lists every problem/);
  assert.match(await err(['--params', '7B', '--config', 'configs']), /cannot read config 'configs': it is a folder/);
  assert.match(await err(['--params', '7B', '--config', 'none.json']), /cannot read config 'none.json': no such file/);
  assert.match(await err(['--model', './no-weights']), /model folder '.\/no-weights': ZeRO Lens found neither a config.json .* nor \*.safetensors/);
  assert.match(await err(['--model', '']), /--model needs a value/);
  assert.match(await err(['--params', '7B', '--lora-rank', '8', '--lora-targets=']), /--lora-targets needs a value/);
  // A BOM is a warning for zero-lens check (DeepSpeed reads the file); estimate read it as a syntax error.
  write('bom.json', '\ufeff{"zero_optimization": {"stage": 3}}');
  const bom = await cli(['--params', '7B', '--config', 'bom.json', '--format', 'json'], dir);
  assert.equal(bom.code, 0, bom.err);
  assert.equal(JSON.parse(bom.out).inputs.stage.value, 3);
});

test('a script with no DeepSpeed config: no false "cannot size the model", but the flags that estimate its job, which run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zero-lens-estimate-'));
  writeFileSync(join(dir, 'plain.sh'), 'torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-8B --bf16\n');
  writeFileSync(join(dir, 'missing.sh'), 'deepspeed train.py --deepspeed missing.json --model_name_or_path "/data/my models/q"\n');
  const plain = await cli(['plain.sh'], dir);
  assert.equal(plain.code, 2);
  assert.doesNotMatch(plain.err, /catalog/);
  const suggested = /zero-lens estimate (--model \S+ --gpus-per-node 8) --stage 3 .*or --ddp/.exec(plain.err);
  assert.ok(suggested, plain.err);
  for (const engine of [['--stage', '3'], ['--ddp']]) assert.equal((await cli([...suggested[1].split(' '), ...engine], dir)).code, 0);
  // A path with a space is one shell word; the GPU count the script does not state is a placeholder.
  const missing = await cli(['missing.sh'], dir);
  assert.match(missing.err, /--model '\/data\/my models\/q' --gpus-per-node <N> --stage 3/);
  // Why the config it names cannot be used, as `zero-lens check` says it on the same file.
  assert.match(missing.err, /--ddp \(plain PyTorch\)\. DeepSpeed config 'missing\.json' /);
});

test('a LLaMA-Factory YAML whose DeepSpeed config cannot be used: estimate says why in the words of zero-lens check, on the YAML and on a script that trains it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zero-lens-estimate-lf-'));
  const yaml = (deepspeed: string) => `model_name_or_path: meta-llama/Llama-2-7b-hf\nstage: sft\ndo_train: true\nfinetuning_type: full\ndeepspeed: ${deepspeed}\n`;
  // LLaMA-Factory's own example names examples/deepspeed/ds_z3_config.json, relative to where it is started.
  writeFileSync(join(dir, 'train.yaml'), yaml('examples/deepspeed/ds_z3_config.json'));
  writeFileSync(join(dir, 'run.sh'), '#!/bin/bash\nFORCE_TORCHRUN=1 llamafactory-cli train train.yaml\n');
  mkdirSync(join(dir, 'folder.json'));
  writeFileSync(join(dir, 'folder.yaml'), yaml('folder.json'));
  for (const [file, said] of [
    ['train.yaml', "DeepSpeed config 'examples/deepspeed/ds_z3_config.json' is not next to this file"],
    ['folder.yaml', "ZeRO Lens did not read 'folder.json': it is a folder"],
    ['run.sh', "train.yaml: DeepSpeed config 'examples/deepspeed/ds_z3_config.json' is not next to this file"],
  ]) {
    const check = await runCli(['check', file === 'run.sh' ? 'train.yaml' : file], dir);
    const estimate = await cli([file], dir);
    assert.equal(estimate.code, 2, estimate.err);
    assert.match(estimate.err, /names no DeepSpeed config ZeRO Lens can read/);
    // The same sentence zero-lens check prints for the file that names the config.
    const checkSays = said.replace(/^train\.yaml: /, '');
    assert.ok(check.out.includes(checkSays), check.out);
    assert.ok(estimate.err.includes(said), `${file}: ${estimate.err}`);
  }
});

test('model-parallel sizes the GPUs cannot tile are refused with the error Megatron or DeepSpeed raises, not estimated', async () => {
  const megatron = await cli(['--model', 'Qwen/Qwen2.5-7B', '--tp', '8', '--pp', '7', '--gpus-per-node', '1']);
  assert.equal(megatron.code, 2);
  assert.equal(megatron.out, '');
  assert.match(megatron.err, /^zero-lens estimate: 1 GPUs \(--gpus-per-node 1\) cannot be split into model-parallel groups of TP 8 × PP 7 × CP 1 = 56: Megatron raises RuntimeError/);
  const nodes = await cli(['--model', 'Qwen/Qwen2.5-7B', '--tp', '4', '--gpus-per-node', '2', '--nodes', '3']);
  assert.match(nodes.err, /6 GPUs \(--gpus-per-node 2 × --nodes 3\)/);
  const autotp = await cli(['--model', 'Qwen/Qwen2.5-7B', '--tp', '3', '--stage', '2', '--gpus-per-node', '8']);
  assert.match(autotp.err, /8 GPUs \(--gpus-per-node 8\) cannot form AutoTP groups of 3/);
  // Sizes that tile the GPUs are estimated.
  assert.equal((await cli(['--model', 'Qwen/Qwen2.5-7B', '--tp', '2', '--pp', '2', '--gpus-per-node', '8'])).code, 0);
  assert.equal((await cli(['--model', 'Qwen/Qwen2.5-7B', '--tp', '2', '--stage', '2', '--gpus-per-node', '8'])).code, 0);
});

test('a .vscode/settings.json value the setting refuses is named in the notes, as the editor says it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zero-lens-estimate-'));
  writeFileSync(join(dir, 'ds_config.json'), '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}}\n');
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(join(dir, '.vscode', 'settings.json'), '{"zeroLens.gpusPerNode": "8"}\n');
  const r = await cli(['ds_config.json', '--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8'], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /ZeRO Lens ignores a setting: zeroLens\.gpusPerNode must be a whole number \(it is "8"\)\. It is read as unset\./);
});

test('--help prints the options and exits 0; runEstimate takes an injected file system', async () => {
  const r = await cli(['--help']);
  assert.equal(r.code, 0);
  for (const flag of ['--config', '--model', '--params', '--largest-layer-params', '--gpus-per-node', '--nodes', '--gpu-memory', '--stage', '--offload-optimizer', '--offload-param', '--dtype', '--optimizer', '--micro-batch', '--grad-accum', '--seq-len', '--gradient-checkpointing', '--lora-rank', '--mode', '--zero-init', '--no-zero-init', '--format']) {
    assert.ok(r.out.includes(flag), flag);
  }
  let out = '';
  const code = await runEstimate(['--params', '1B', '--format', 'json', '--flag=unknown'], { stdout: (t) => (out += t), stderr: () => {}, cwd: '/' }, nodeFileSystem);
  assert.equal(code, 2);
  assert.equal(out, '');
});

test('--config with train_batch_size and no micro-batch: the micro-batch DeepSpeed derives for the world size', async () => {
  const j = await json(['--config', 'ds_train_batch_only.json', '--params', '7B', '--gpus-per-node', '8']);
  // 32 ÷ 8 GPUs ÷ 2 accumulation steps.
  assert.deepEqual(j.inputs.microBatch, { value: 2, source: { kind: 'config-derived', file: join(fixtures, 'ds_train_batch_only.json'), key: 'train_batch_size', total: 32, world: 8, by: 'accumulation', divisor: 2 } });
  // 32 does not divide over 3 GPUs × 2: DeepSpeed refuses that config, so nothing is derived.
  assert.deepEqual((await json(['--config', 'ds_train_batch_only.json', '--params', '7B', '--gpus-per-node', '3'])).inputs.microBatch.source, { kind: 'default' });
});

test('--offload-optimizer cpu at ZeRO-1/2 adds a GPU staging buffer of the largest param to "buffers"', async () => {
  const args = ['--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8', '--stage', '2'];
  const none = await json(args);
  const cpu = await json([...args, '--offload-optimizer', 'cpu']);
  // max(reduce, gather bucket) 5e8 · 2 bytes, + temp_grad_buffer_for_gpu_offload: the embedding, 2 · 622,329,856.
  assert.equal(none.perGpu.buffers, 1_000_000_000);
  assert.equal(cpu.perGpu.buffers, 2_244_659_712);
  // The text table shows it: 2,244,659,712 bytes = 2.1 GiB in both offload columns.
  const text = await cli([...args, '--offload-optimizer', 'cpu']);
  assert.match(text.out, /^buffers\s+0\s+2\.1\s+2\.1\s+/m);
});

test('--grad-accum, else the config\'s gradient_accumulation_steps or what DeepSpeed derives: ZeRO-2 offload\'s CPU buffer', async () => {
  const offload = ['--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8', '--stage', '2', '--offload-optimizer', 'cpu'];
  // Qwen3-8B, P = 8,190,735,360 over 8 ranks of one node: fp32 gradient copy 4P = 32,762,941,440 bytes per node
  // + each rank's bf16 offload temp buffer of the embedding, 8 · 2 · 622,329,856 = 9,957,277,696: 42,720,219,136 ...
  const single = await json(offload);
  assert.deepEqual(single.inputs.gradientAccumulationSteps, { value: 1, source: { kind: 'default' } });
  assert.equal(single.perCpu.gradients, 42_720_219_136);
  // ... plus the bf16 accumulation buffer 2P with 4 steps: 6P + 9,957,277,696 = 59,101,689,856.
  const four = await json([...offload, '--grad-accum', '4']);
  assert.deepEqual(four.inputs.gradientAccumulationSteps, { value: 4, source: { kind: 'cli', flag: '--grad-accum' } });
  assert.equal(four.perCpu.gradients, 59_101_689_856);
  assert.deepEqual(four.perGpu, single.perGpu);
  assert.ok(four.notes.some((n: string) => n.startsWith('Gradient accumulation (4 steps) with ZeRO-2 optimizer offload')));
  const text = await cli([...offload, '--grad-accum', '4']);
  assert.match(text.out, /Workload: micro-batch 1, gradient accumulation 4, sequence 2048/);

  // The config's number (ds_train_batch_only.json: 2).
  const fromConfig = await json(['--config', 'ds_train_batch_only.json', '--params', '7B', '--gpus-per-node', '8']);
  assert.deepEqual(fromConfig.inputs.gradientAccumulationSteps, { value: 2, source: { kind: 'config', file: join(fixtures, 'ds_train_batch_only.json'), key: 'gradient_accumulation_steps' } });
  // No key: 64 // 2 // 8 GPUs = 4 (config.py:955-958), from train_batch_size; "auto" leaves the default, with a note.
  const dir = mkdtempSync(join(tmpdir(), 'zero-lens-grad-accum-'));
  writeFileSync(join(dir, 'derived.json'), JSON.stringify({ train_batch_size: 64, train_micro_batch_size_per_gpu: 2, zero_optimization: { stage: 2 } }));
  writeFileSync(join(dir, 'auto.json'), JSON.stringify({ gradient_accumulation_steps: 'auto', zero_optimization: { stage: 2 } }));
  const derived = JSON.parse((await cli(['--config', 'derived.json', '--params', '7B', '--gpus-per-node', '8', '--format', 'json'], dir)).out);
  assert.deepEqual(derived.inputs.gradientAccumulationSteps, { value: 4, source: { kind: 'config-derived', file: join(dir, 'derived.json'), key: 'train_batch_size', total: 64, world: 8, by: 'micro-batch', divisor: 2 } });
  const auto = JSON.parse((await cli(['--config', 'auto.json', '--params', '7B', '--format', 'json'], dir)).out);
  assert.deepEqual(auto.inputs.gradientAccumulationSteps, { value: 1, source: { kind: 'default', forAuto: true } });
  assert.ok(auto.notes.some((n: string) => n.startsWith('gradient_accumulation_steps is "auto"')));

  const zero = await cli(['--params', '7B', '--grad-accum', '0']);
  assert.equal(zero.code, 2);
  assert.match(zero.err, /--grad-accum '0' must be a whole number ≥ 1/);
});

test("--rlhf gkd counts GKD's divergence over the full vocabulary: 32 bytes per token and vocabulary entry, against the chunked loss's 7", async () => {
  const base = ['--model', 'Qwen/Qwen2.5-7B', '--gpus-per-node', '4', '--stage', '3', '--seq-len', '1024', '--micro-batch', '2', '--gradient-checkpointing', '--fixed-length', '--rlhf', 'gkd', '--teacher-model', 'Qwen/Qwen2.5-14B'];
  const early = (j: { phases: Array<{ phase: string; activations: number }> }) => j.phases.find((p) => p.phase === 'forward-backward')!.activations;
  const gkd = await json(base);
  // The same run with a chunked loss stated (2 + 4 + 4/8 forward, 4/8 backward): only the loss differs.
  const chunked = await json([...base, '--chunked-loss']);
  const V = findCatalogModel('Qwen/Qwen2.5-7B')!.architecture!.vocabSize;
  assert.equal(early(gkd) - early(chunked), (32 - 7) * 2 * 1024 * V);
});

test('--rlhf gkd with a stated completion length: the two logits span the sequence, the divergence only the completion', async () => {
  const base = ['--model', 'Qwen/Qwen2.5-7B', '--gpus-per-node', '4', '--stage', '3', '--seq-len', '1024', '--micro-batch', '2', '--gradient-checkpointing', '--fixed-length', '--rlhf', 'gkd', '--teacher-model', 'Qwen/Qwen2.5-14B', '--max-completion-length', '256'];
  const early = (j: { phases: Array<{ phase: string; activations: number }> }) => j.phases.find((p) => p.phase === 'forward-backward')!.activations;
  const gkd = await json(base);
  const chunked = await json([...base, '--chunked-loss']);
  const V = findCatalogModel('Qwen/Qwen2.5-7B')!.architecture!.vocabSize;
  // 2p over every token and 14p over the quarter that is completion: 4 + 28/4 = 11 bytes per token and entry.
  assert.equal(early(gkd) - early(chunked), (11 - 7) * 2 * 1024 * V);
});
