import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import schema from '../../schemas/ds_config.schema.json';

type Node = Record<string, any>;
interface Entry { path: string; node: Node; siblings: Record<string, Node> }

const PRESETS = new URL('../fixtures/presets/', import.meta.url);
const DOCS_LINK = /\[DeepSpeed docs\]\((https:\/\/www\.deepspeed\.ai\/[^)]*)\)$/;

/** `$ref` followed; the referring node's own keywords win, as in VS Code. */
function resolve(node: Node): Node {
  if (typeof node.$ref !== 'string') return node;
  const target = node.$ref.slice(2).split('/').reduce((n: Node, k: string) => n[k], schema as Node);
  const { $ref: _ignored, ...own } = node;
  return resolve({ ...target, ...own });
}

/** Every declared property, with its dotted path ('*' = any key, '[]' = array item). */
function properties(node: Node = schema, path = '', out: Entry[] = []): Entry[] {
  node = resolve(node);
  for (const [key, child] of Object.entries<Node>(node.properties ?? {})) {
    const entry = { path: path + key, node: resolve(child), siblings: node.properties };
    out.push(entry);
    properties(entry.node, entry.path + '.', out);
  }
  if (typeof node.additionalProperties === 'object') properties(node.additionalProperties, path + '*.', out);
  if (node.items && typeof node.items === 'object') properties(node.items, path + '[].', out);
  for (const sub of [...(node.anyOf ?? []), ...(node.allOf ?? []), node.then, node.else]) {
    if (sub) properties(sub, path, out);
  }
  return out;
}

const realForm = (node: Node): Node => node.anyOf?.find((b: Node) => b.const !== 'auto' && b.type !== 'boolean') ?? node;
const types = (node: Node): string[] => [realForm(node).type ?? []].flat();
const all = properties();

// deepspeed-config.md §13, "Keys for which a schema should allow auto".
const AUTO_KEYS = [
  'train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'gradient_clipping',
  'optimizer.params.lr', 'optimizer.params.betas', 'optimizer.params.eps', 'optimizer.params.weight_decay',
  'scheduler.params.warmup_min_lr', 'scheduler.params.warmup_max_lr', 'scheduler.params.warmup_num_steps',
  'scheduler.params.total_num_steps', 'fp16.enabled', 'bf16.enabled', 'amp.enabled', 'amp.opt_level',
  'zero_optimization.reduce_bucket_size', 'zero_optimization.stage3_prefetch_bucket_size',
  'zero_optimization.stage3_param_persistence_threshold', 'zero_optimization.stage',
  'zero_optimization.offload_optimizer.device', 'zero_optimization.offload_param.device',
  'zero_optimization.offload_optimizer.nvme_path', 'zero_optimization.offload_param.nvme_path',
  'zero_optimization.stage3_gather_16bit_weights_on_model_save',
];

// deepspeed-config.md §1.2: pydantic sections reject unknown keys, plain-dict sections ignore them.
const STRICT = ['zero_optimization', 'zero_optimization.offload_param', 'zero_optimization.offload_optimizer',
  'zero_optimization.zenflow', 'zero_optimization.leaf_module', 'fp16', 'bf16', 'bfloat16', 'tensorboard', 'wandb',
  'csv_monitor', 'comet', 'comms_logger', 'compile', 'hybrid_engine', 'timers.throughput', 'tensor_parallel',
  'tensor_parallel.tp', 'weight_quantization'];
const LOOSE = ['optimizer', 'scheduler', 'amp', 'torch_autocast', 'activation_checkpointing', 'flops_profiler',
  'autotuning', 'timers', 'aio', 'checkpoint', 'data_types', 'elasticity', 'pipeline', 'sparse_attention', 'progressive_layer_drop',
  'curriculum_learning', 'data_efficiency', 'compression_training', 'quantize_training', 'nebula', 'expert_parallel'];

// Compiled with ajv's defaults rather than the server's options (ajvOptions.json): any JSON-schema tool should
// read this schema. Once for both tests below, as compiling is the slow part.
let standardValidator: ValidateFunction | undefined;
const standardValidate = () => (standardValidator ??= new Ajv({ strict: false, allErrors: true }).compile(schema));

test('ajv compiles the schema and every ms-swift / LLaMA-Factory preset validates', () => {
  const validate = standardValidate();
  const files = readdirSync(PRESETS).filter((f) => f.endsWith('.json'));
  assert.equal(files.length, 13);
  for (const file of files) {
    const config = JSON.parse(readFileSync(new URL(file, PRESETS), 'utf8'));
    assert.ok(validate(config), `${file}: ${JSON.stringify(validate.errors)}`);
  }
});

test('ajv rejects what DeepSpeed rejects', () => {
  const validate = standardValidate();
  const bad = [
    { zero_optimization: { stage: 4 } },
    { zero_optimization: { grad_hooks: true } },
    { zero_optimization: { prefetch_bucket_size: 1, stage3_prefetch_bucket_size: 2 } },
    { zero_optimization: { cpu_offload: true, offload_optimizer: { device: 'cpu' } } },
    { zero_optimization: { offload_param: { device: 'CPU' } } },
    { bf16: { check_overflow: true } },
    { train_batch_size: 'auto-ish' },
    { scheduler: { type: 'WarmupDecayLR', params: { warmup_num_steps: 10 } } },
  ];
  for (const config of bad) assert.equal(validate(config), false, JSON.stringify(config));
});

test('every property has a markdownDescription ending in its x-deepspeed.docs link', () => {
  assert.ok(all.length > 300);
  for (const { path, node } of all) {
    const link = DOCS_LINK.exec(node.markdownDescription ?? '');
    assert.ok(link, `${path}: markdownDescription must end with a docs link`);
    assert.equal(node['x-deepspeed']?.docs, link[1], `${path}: x-deepspeed.docs`);
  }
});

test('aliases and deprecated replacements name existing siblings', () => {
  for (const { path, node, siblings } of all) {
    const meta = node['x-deepspeed'];
    if (meta.aliasOf) assert.ok(meta.aliasOf in siblings, `${path}: aliasOf ${meta.aliasOf}`);
    if (meta.deprecated) {
      const { replacement } = meta.deprecated;
      assert.ok(replacement === null || replacement in siblings, `${path}: replacement ${replacement}`);
      assert.equal(node.deprecationMessage, meta.deprecated.message, `${path}: deprecationMessage`);
    }
  }
  for (const rejected of ['grad_hooks', 'check_overflow', 'max_grad_norm']) {
    assert.ok(!all.some((e) => e.path.endsWith('.' + rejected)), `${rejected} must not be a property`);
  }
});

test('exactly the keys Hugging Face / accelerate fill accept "auto"', () => {
  const autoForm = (n: Node) => n.anyOf?.some((b: Node) => b.const === 'auto') === true;
  for (const { path, node } of all) {
    assert.equal(autoForm(node), node['x-deepspeed'].auto !== undefined, `${path}: anyOf "auto" form vs x-deepspeed.auto`);
    assert.equal(autoForm(node), AUTO_KEYS.includes(path), `${path}: accepts "auto"?`);
  }
  for (const key of AUTO_KEYS) assert.ok(all.some((e) => e.path === key), `${key} is missing`);
  const stage = all.find((e) => e.path === 'zero_optimization.stage')!.node;
  assert.equal(stage['x-deepspeed'].auto.by, 'accelerate');
  assert.deepEqual(realForm(stage).enum, [0, 1, 2, 3]);
});

test('objects declare unknownKeys; pydantic sections forbid extra keys, plain dicts do not', () => {
  for (const { path, node } of all.filter((e) => types(e.node).includes('object'))) {
    const unknownKeys = node['x-deepspeed'].unknownKeys;
    assert.ok(unknownKeys === 'error' || unknownKeys === 'warning' || (unknownKeys === 'allow' && /torch\.optim/.test(node['x-deepspeed'].keywordsOf ?? '')), `${path}: unknownKeys`);
    assert.equal(realForm(node).additionalProperties === false, unknownKeys === 'error', `${path}: additionalProperties`);
  }
  const unknownKeysOf = (p: string) => all.find((e) => e.path === p)?.node['x-deepspeed'].unknownKeys;
  for (const p of STRICT) assert.equal(unknownKeysOf(p), 'error', p);
  for (const p of LOOSE) assert.equal(unknownKeysOf(p), 'warning', p);
  assert.equal((schema as Node)['x-deepspeed'].unknownKeys, 'warning');
  assert.notEqual((schema as Node).additionalProperties, false);
});

test('integer fields carry x-deepspeed.integer', () => {
  for (const { path, node } of all) {
    assert.equal(types(node).includes('integer'), node['x-deepspeed'].integer === true, path);
  }
});

test('a fallback is one of the allowed values, and every warmup_type has log as its fallback', () => {
  const withFallback = all.filter((e) => e.node['x-deepspeed'].fallback !== undefined);
  for (const { path, node } of withFallback) {
    assert.ok(realForm(node).enum?.includes(node['x-deepspeed'].fallback), `${path}: fallback in enum`);
  }
  const warmupTypes = all.filter((e) => e.path.endsWith('.warmup_type'));
  assert.equal(warmupTypes.length, 3);
  for (const { path, node } of warmupTypes) assert.equal(node['x-deepspeed'].fallback, 'log', path);
});
