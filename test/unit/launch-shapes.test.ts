import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLaunchFacts } from '../../server/src/launch';
import { doc, launchFixture, workspaceRoot } from './launch-helpers';
import * as path from 'node:path';

/** Facts of every real command shape in launchers-and-models.md §1.6 (items 1–17) and §2. */
function factsOf(name: string) {
  return extractLaunchFacts(doc(`scripts/${name}`, launchFixture(`shapes/${name}`)), [workspaceRoot]);
}

function summary(name: string) {
  return factsOf(name).map((f) => ({
    chain: f.chain.join('>'),
    sub: f.subcommand,
    model: f.model?.value,
    gpus: f.gpusPerNode?.value,
    nodes: f.nodes?.value,
    ds: f.deepspeed ? `${f.deepspeed.kind}:${f.deepspeed.text}` : undefined,
  }));
}

test('1–2: ms-swift zero2/zero3 with a lowercase variable, $(expr …) and CUDA/NPROC prefixes', () => {
  const [f] = factsOf('01-train_zero2.sh');
  assert.deepEqual(summary('01-train_zero2.sh'), [{ chain: 'swift', sub: 'sft', model: 'Qwen/Qwen2.5-7B-Instruct', gpus: 2, nodes: undefined, ds: 'preset:zero2' }]);
  assert.equal(f.gradientAccumulation?.value, 8, '$(expr 16 / $nproc_per_node) with nproc_per_node=2');
  assert.equal(f.gpusPerNode?.via, 'NPROC_PER_NODE');
  assert.equal(f.gpusPerNode?.span.line, 4);
  assert.equal(f.seqLen?.value, 2048);
  assert.equal(f.microBatch?.value, 1);
  assert.equal(f.tuner?.value, 'lora');
  assert.equal(f.loraRank?.value, 8);
  assert.equal(f.dtype?.value, 'bf16');
  assert.equal(f.gradientCheckpointing?.value, true);
  assert.equal(f.gradientCheckpointing?.isDefault, true);
  assert.equal(f.deepspeed?.span.line, 14);
  assert.equal(summary('02-train_zero3.sh')[0].ds, 'preset:zero3');
});

test('3: multi-node ms-swift: NNODES, nested $(expr a / b / c), multi-value dataset on a continuation line', () => {
  const [f] = factsOf('03-multi_node_swift.sh');
  assert.equal(f.nodes?.value, 2);
  assert.equal(f.gpusPerNode?.value, 4);
  assert.equal(f.gradientAccumulation?.value, 4);
  assert.equal(f.tuner?.value, 'full');
  assert.equal(f.loraRank, undefined);
  assert.equal(f.seqLen?.value, 8192);
});

test('4: DLC variables from the environment stay unresolved, nothing invented', () => {
  const [f] = factsOf('04-dlc.sh');
  assert.equal(f.nodes, undefined);
  assert.equal(f.deepspeed?.kind, 'preset');
});

test('5: deepspeed launcher running swift/cli/sft.py, --hostfile=…', () => {
  assert.deepEqual(summary('05-deepspeed_launcher.sh'), [{ chain: 'deepspeed>swift', sub: 'sft', model: 'Qwen/Qwen2.5-7B-Instruct', gpus: undefined, nodes: undefined, ds: undefined }]);
});

test('6: torchrun with --opt=$var forms running swift', () => {
  const [f] = factsOf('06-torchrun.sh');
  assert.deepEqual(summary('06-torchrun.sh'), [{ chain: 'torchrun>swift', sub: 'sft', model: 'Qwen/Qwen2.5-7B-Instruct', gpus: 4, nodes: 2, ds: 'preset:zero2' }]);
  assert.equal(f.gpusPerNode?.via, '--nproc_per_node');
  assert.equal(f.script?.value, 'swift/cli/sft.py');
});

test('7: accelerate launch with a config file', () => {
  const [f] = factsOf('07-accelerate.sh');
  assert.equal(f.chain.join('>'), 'accelerate>swift');
  assert.deepEqual(f.configFile?.candidates[0], path.join(workspaceRoot, 'scripts/examples/train/multi-node/accelerate/multi_node.yaml'));
  assert.equal(f.configFile?.candidates[1], path.join(workspaceRoot, 'examples/train/multi-node/accelerate/multi_node.yaml'));
});

test('8–11, 13–15: swift pt / rlhf / sft shapes', () => {
  assert.deepEqual(summary('08-pretrain.sh'), [{ chain: 'swift', sub: 'pt', model: 'Qwen/Qwen2.5-7B', gpus: 4, nodes: undefined, ds: 'preset:zero3' }]);
  assert.equal(factsOf('08-pretrain.sh')[0].gradientAccumulation?.value, 16);
  assert.deepEqual(summary('09-dpo_full.sh'), [{ chain: 'swift', sub: 'rlhf', model: 'Qwen/Qwen2.5-7B-Instruct', gpus: 4, nodes: undefined, ds: 'preset:zero3' }]);
  assert.equal(factsOf('09-dpo_full.sh')[0].microBatch?.value, 4);
  assert.deepEqual(summary('10-grpo_72b.sh')[0].ds, 'preset:zero3_offload');
  assert.deepEqual(summary('11-sequence_parallel.sh'), [{ chain: 'swift', sub: 'sft', model: 'Qwen/QwQ-32B', gpus: 8, nodes: undefined, ds: 'preset:zero3_offload' }]);
  assert.equal(factsOf('11-sequence_parallel.sh')[0].seqLen?.value, 512000);
  assert.deepEqual(summary('13-ascend.sh'), [{ chain: 'swift', sub: 'sft', model: 'Qwen/Qwen3-32B', gpus: 8, nodes: undefined, ds: 'preset:zero3' }]);
  assert.equal(factsOf('14-multimodal.sh')[0].loraRank?.value, 16);
  assert.equal(factsOf('14-multimodal.sh')[0].tuner?.value, 'lora_llm');
  assert.deepEqual(summary('15-sapo_zero1.sh')[0].ds, 'preset:zero1');
});

test('12: swift sft with a YAML config as the first argument', () => {
  const [f] = factsOf('12-yaml_sft.sh');
  assert.equal(f.subcommand, 'sft');
  assert.equal(f.gpusPerNode?.value, 2);
});

test('16: accelerate + FSDP, --quant_bits without --quant_method', () => {
  const [f] = factsOf('16-fsdp_qlora.sh');
  assert.equal(f.chain.join('>'), 'accelerate>swift');
  assert.equal(f.quantBits?.value, 4);
  assert.equal(f.quantMethod, undefined);
  assert.equal(f.deepspeed, undefined);
});

test('17: megatron sft has no --deepspeed; env prefixes still read', () => {
  const [f] = factsOf('17-megatron.sh');
  assert.equal(f.chain.join('>'), 'megatron');
  assert.equal(f.tuner?.value, 'full');
  assert.equal(f.nodes?.value, 2);
  assert.equal(f.microBatch?.value, 1);
});

test('§2.2: HF script under deepspeed and torchrun with --deepspeed <json>', () => {
  const [f] = factsOf('20-hf_translation.sh');
  assert.equal(f.chain.join('>'), 'deepspeed>python');
  assert.equal(f.gpusPerNode?.value, 2);
  assert.equal(f.model?.value, 'google-t5/t5-small');
  assert.equal(f.dtype?.value, 'fp16');
  assert.equal(f.deepspeed?.kind, 'file');
  const [g] = factsOf('21-hf_torchrun.sh');
  assert.equal(g.gpusPerNode?.value, 8);
  assert.equal(g.dtype?.value, 'bf16');
  assert.equal(g.deepspeed?.kind === 'file' && g.deepspeed.candidates[0], path.join(workspaceRoot, 'scripts/ds_config.json'));
});

test('§2.5: llamafactory-cli train lines with env prefixes and dotlist overrides', () => {
  const facts = factsOf('22-llamafactory.sh');
  assert.equal(facts.length, 3);
  assert.deepEqual(facts.map((f) => f.configFile?.value), [
    'examples/train_lora/qwen3_lora_sft_ds3.yaml',
    'examples/train_full/qwen3_full_sft.yaml',
    'examples/train_lora/qwen3_lora_sft.yaml',
  ]);
  assert.equal(facts[1].nodes?.value, 2);
  assert.equal(facts[2].gpusPerNode?.value, 2);
});

test('llamafactory-cli train with --flags (HfArgumentParser form) instead of a YAML', () => {
  const text = 'MODEL_PATH=Qwen/Qwen3-4B-Instruct-2507\nllamafactory-cli train \\\n    --model_name_or_path ${MODEL_PATH} \\\n    --finetuning_type lora \\\n    --lora_rank 8 \\\n    --cutoff_len 2048 \\\n    --per_device_train_batch_size 1 \\\n    --deepspeed examples/deepspeed/ds_z3_config.json \\\n    --bf16\n';
  const [f] = extractLaunchFacts(doc('scripts/lf.sh', text), [workspaceRoot]);
  assert.deepEqual([f.model?.value, f.tuner?.value, f.loraRank?.value, f.seqLen?.value, f.microBatch?.value, f.dtype?.value], ['Qwen/Qwen3-4B-Instruct-2507', 'lora', 8, 2048, 1, 'bf16']);
  assert.equal(f.deepspeed?.kind === 'file' && f.deepspeed.path, 'examples/deepspeed/ds_z3_config.json');
  assert.equal(f.configFile, undefined);
});

test('ms-swift --torch_dtype float32 trains with fp16 AMP unless --fp16/--bf16 say otherwise', () => {
  const dtypeOf = (args: string) => extractLaunchFacts(doc('scripts/dtype.sh', `NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B-Instruct --tuner_type full ${args} --deepspeed zero3\n`), [workspaceRoot])[0].dtype;
  const f32 = dtypeOf('--torch_dtype float32');
  assert.equal(f32?.value, 'fp16');
  assert.match(String(f32?.via), /ms-swift turns on fp16 AMP/);
  assert.equal(dtypeOf('--torch_dtype float32 --fp16 false')?.value, 'fp32');
  assert.equal(dtypeOf('--torch_dtype bfloat16')?.value, 'bf16');
});

test('NPROC_PER_NODE is read by the swift command only: python swift/cli/sft.py runs one process', () => {
  const gpus = (command: string) => extractLaunchFacts(doc('scripts/n.sh', `NPROC_PER_NODE=4 ${command} --model m --deepspeed zero2\n`), [workspaceRoot])[0].gpusPerNode?.value;
  assert.equal(gpus('swift sft'), 4);
  // One process, so one GPU, not the zeroLens.gpusPerNode fallback.
  assert.equal(gpus('python swift/cli/sft.py'), 1);
  assert.equal(gpus('python -m swift.cli.sft'), 1);
});

test('python on its own runs one process: an HF-style script or module is one GPU, a launcher still decides', () => {
  const one = (command: string) => extractLaunchFacts(doc('scripts/hf.sh', `${command} --model_name_or_path m --deepspeed ds.json\n`), [workspaceRoot])[0];
  // Before: no GPU count, so the estimate fell back to zeroLens.gpusPerNode.
  for (const [command, via] of [
    ['python train.py', 'python train.py runs one process'],
    ['CUDA_VISIBLE_DEVICES=0,1 python3 -u examples/train.py', 'python3 examples/train.py runs one process'],
    ['python -m pkg.train', 'python -m pkg.train runs one process'],
    ['python -mpkg.train', 'python -m pkg.train runs one process'],
  ]) {
    const f = one(command);
    assert.deepEqual([f.chain.join('>'), f.gpusPerNode?.value, f.gpusPerNode?.isDefault, f.gpusPerNode?.via, f.deepspeed?.kind], ['python', 1, true, via, 'file'], command);
  }
  // At the words that decide it: `python … train.py`.
  assert.deepEqual([one('python train.py').gpusPerNode?.span.start, one('python train.py').gpusPerNode?.span.end], [0, 15]);
  // Launchers started by python keep their own count.
  assert.equal(one('python -m torch.distributed.run --nproc_per_node 4 train.py').gpusPerNode?.value, 4);
  assert.equal(one('python -m torch.distributed.run train.py').gpusPerNode?.via, 'torchrun default');
  assert.equal(one('python -m deepspeed --num_gpus 2 train.py').gpusPerNode?.value, 2);
  // A module is a training script only with a DeepSpeed config; launchers and CLIs we do not read are not one.
  assert.equal(extractLaunchFacts(doc('scripts/hf.sh', 'python -m pip install deepspeed\n'), [workspaceRoot]).length, 0);
  // deepspeed.launcher.launch is the per-node launcher the deepspeed runner starts with --world_info (launch.py:157-158).
  assert.equal(extractLaunchFacts(doc('scripts/hf.sh', 'python -m deepspeed.launcher.launch train.py --deepspeed ds.json\n'), [workspaceRoot]).length, 0);
});

test('python -m accelerate.commands.launch and accelerate-launch are accelerate launch (same parser and main)', () => {
  const facts = (command: string) => {
    const f = extractLaunchFacts(doc('scripts/acc.sh', `${command} --num_processes 4 --mixed_precision bf16 train.py --model_name_or_path m --deepspeed ds.json\n`), [workspaceRoot])[0];
    return [f?.chain.join('>'), f?.gpusPerNode?.value, f?.dtype?.value, f?.deepspeed?.kind, f?.script?.value];
  };
  const expected = facts('accelerate launch');
  assert.deepEqual(expected, ['accelerate>python', 4, 'bf16', 'file', 'train.py']);
  // Before: python -m accelerate.commands.launch was no launch at all, accelerate-launch neither.
  for (const command of ['python -m accelerate.commands.launch', 'python3 -u -m accelerate.commands.launch', '/usr/bin/accelerate-launch']) {
    assert.deepEqual(facts(command), expected, command);
  }
});
