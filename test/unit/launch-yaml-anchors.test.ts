import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLaunchFacts } from '../../server/src/launch';
import { codes, doc, service, settings, workspaceRoot } from './launch-helpers';

// yaml.safe_load (accelerate config_args.py:152 at 16cb6eb8, ms-swift swift/cli/main.py:47 at 3602360a) and
// OmegaConf.load (LLaMA-Factory hparams/parser.py:119 at ff6d4d12) read YAML with PyYAML's SafeConstructor, which
// resolves aliases and `<<` merge keys (flatten_mapping: the map's own keys win, then the first merged map).
const files = { 'examples/deepspeed/ds_z3_config.json': '{ "zero_optimization": { "stage": 3 } }' };

// LLaMA-Factory examples/train_full/llama3_full_sft.yaml's keys, shared through an anchor as a sweep file does.
const llamaFactory = `base: &base
  model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
  stage: sft
  finetuning_type: full
  deepspeed: examples/deepspeed/ds_z3_config.json
  cutoff_len: &len 2048
<<: *base
per_device_train_batch_size: 1
gradient_accumulation_steps: 2
bf16: true
max_samples: *len
`;

test('LLaMA-Factory YAML: keys that come through a << merge key are read, and point where the anchor writes them', () => {
  const document = doc('lf/sweep.yaml', llamaFactory);
  const [f] = extractLaunchFacts(document, [workspaceRoot]);
  assert.equal(f?.launcher, 'llamafactory-yaml');
  assert.deepEqual([f.model?.value, f.tuner?.value, f.seqLen?.value, f.microBatch?.value], ['meta-llama/Meta-Llama-3-8B-Instruct', 'full', 2048, 1]);
  assert.equal(f.deepspeed?.kind, 'file');
  assert.equal(f.deepspeed?.span.line, 5, 'the deepspeed value where the anchored map writes it (1-based)');
  assert.equal(f.seqLen?.span.line, 6);
});

test('a key written beside << wins over the merged one; the first of several merged maps wins', () => {
  const text = `a: &a\n  cutoff_len: 1024\n  lora_rank: 8\nb: &b\n  cutoff_len: 4096\n  lora_rank: 32\n  finetuning_type: lora\n<<: [*a, *b]\nlora_rank: 64\n`;
  const [f] = extractLaunchFacts(doc('lf/merge.yaml', text), [workspaceRoot]);
  assert.deepEqual([f?.seqLen?.value, f?.loraRank?.value, f?.tuner?.value], [1024, 64, 'lora']);
});

test('an alias as a value (accelerate deepspeed_config: *ds, num_processes: *n) is read as the anchored node', () => {
  const text = `shared: &ds\n  zero_stage: 3\n  offload_param_device: cpu\ngpus: &n 8\ncompute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config: *ds\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: *n\n`;
  const [f] = extractLaunchFacts(doc('accel/alias.yaml', text), [workspaceRoot]);
  assert.equal(f?.gpusPerNode?.value, 8);
  assert.deepEqual(f.deepspeed && f.deepspeed.kind === 'settings' && [f.deepspeed.stage, f.deepspeed.offloadParam], [3, 'cpu']);
  assert.equal(f.deepspeed?.span.line, 2);
});

test('ms-swift YAML: a merged deepspeed value gets its checks where it is written', async () => {
  const text = `common: &common\n  model: Qwen/Qwen2.5-7B-Instruct\n  deepspeed: examples/deepspeed/ds_z9.json\n<<: *common\ntrain_type: lora\n`;
  const { ls } = service(files);
  const diagnostics = await ls.doValidation(doc('swift/sft.yaml', text), settings());
  assert.deepEqual(codes(diagnostics), ['deepspeed-config-not-found']);
  assert.equal(diagnostics[0].range.start.line, 2);
  // The hover on the merged key, where the anchored map writes it, is the deepspeed key's.
  const hover = await ls.doHover(doc('swift/ok.yaml', text.replace('ds_z9', 'ds_z3_config')), { line: 2, character: 4 }, settings());
  assert.match(JSON.stringify(hover?.contents), /DeepSpeed/);
});

test('an anchor merged into itself, or aliases past PyYAML-like limits, never throw', () => {
  for (const text of ['a: &a\n  <<: *a\n  cutoff_len: 1\n<<: *a\nstage: sft\n', 'x: &x [1]\n' + Array.from({ length: 200 }, (_, i) => `k${i}: *x`).join('\n') + '\nstage: sft\n']) {
    assert.doesNotThrow(() => extractLaunchFacts(doc('lf/odd.yaml', text), [workspaceRoot]));
  }
});
