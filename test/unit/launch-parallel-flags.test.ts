/**
 * Completion and hover of the FSDP and parallelism flags in launch scripts: the Trainer's `--fsdp` words and
 * `--fsdp_config` files, ms-swift's `--fsdp` preset, `accelerate launch --fsdp_*` and Megatron-SWIFT's sizes,
 * documented from `schemas/fsdp.schema.json` and `schemas/megatron.schema.json` in the reader's language.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, service, settings } from './launch-helpers';

const at = (line: number, character: number) => ({ line, character });
const markdown = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? String((v as { value: string }).value) : String(v));
const files = { 'configs/fsdp_llama.json': '{ "min_num_params": 0 }', 'configs/ds_zero2.json': '{ "zero_optimization": { "stage": 2 } }' };

async function complete(text: string, character: number, language?: 'zh-cn') {
  const { ls } = service(files);
  const document = doc('scripts/t.sh', text);
  const list = await ls.doComplete(document, at(0, character), settings(language ? { language } : {}));
  const items = await Promise.all(list.items.map((i) => ls.resolveCompletion(document, i, settings(language ? { language } : {}))));
  return items;
}

async function hover(text: string, character: number, language?: 'zh-cn') {
  const { ls } = service(files);
  return ls.doHover(doc('scripts/t.sh', text), at(0, character), settings(language ? { language } : {}));
}

test('megatron sft: the parallel sizes complete as flags, documented with their default and the line that reads them', async () => {
  const items = await complete('megatron sft --tensor', 21);
  const labels = items.map((i) => i.label);
  for (const flag of ['--tensor_model_parallel_size', '--pipeline_model_parallel_size', '--context_parallel_size', '--expert_model_parallel_size']) assert.ok(labels.includes(flag), flag);
  const tp = items.find((i) => i.label === '--tensor_model_parallel_size')!;
  assert.equal(tp.detail, 'megatron sft');
  assert.match(markdown(tp.documentation), /attention heads/);
  assert.match(markdown(tp.documentation), /Default: `1`/);
  assert.match(markdown(tp.documentation), /ms-swift\/blob\/3602360a[0-9a-f]*\/swift\/megatron\/arguments\/megatron_args\.py/);
});

test('megatron sft: hover on a size flag names the program, in the reader\'s language', async () => {
  const text = 'megatron sft --tensor_model_parallel_size 2';
  const en = markdown((await hover(text, 20))?.contents);
  assert.match(en, /^\*\*--tensor_model_parallel_size\*\* \(megatron sft\)/);
  assert.match(en, /\[Documentation\]\(https:\/\/swift\.readthedocs\.io\//);
  const zh = markdown((await hover(text, 20, 'zh-cn'))?.contents);
  assert.match(zh, /\[文档\]/);
});

test('Trainer --fsdp: the words complete inside the quoted value, leaving out those already written', async () => {
  const items = await complete('torchrun train.py --fsdp "full_shard au"', 39);
  const labels = items.map((i) => i.label);
  assert.ok(labels.includes('auto_wrap') && labels.includes('offload'));
  assert.ok(!labels.includes('full_shard'), 'already written');
  const wrap = items.find((i) => i.label === 'auto_wrap')!;
  assert.deepEqual(wrap.textEdit && 'range' in wrap.textEdit ? wrap.textEdit.range : undefined, { start: at(0, 37), end: at(0, 39) });
  const empty = await complete('torchrun train.py --fsdp ', 25);
  assert.deepEqual(empty.map((i) => i.label), ['full_shard', 'shard_grad_op', 'no_shard', 'hybrid_shard', 'hybrid_shard_zero2', 'offload', 'auto_wrap']);
});

test('Trainer --fsdp_config and ms-swift --fsdp: FSDP JSON files of the workspace (and ms-swift\'s preset), not DeepSpeed configs', async () => {
  assert.deepEqual((await complete('torchrun train.py --fsdp_config ', 32)).map((i) => i.label), ['../configs/fsdp_llama.json']);
  assert.deepEqual((await complete('swift sft --fsdp ', 17)).map((i) => i.label), ['fsdp2', '../configs/fsdp_llama.json']);
});

test('accelerate launch: --use_fsdp and the --fsdp_* flags complete before the static table, their values from the schema', async () => {
  const flags = (await complete('accelerate launch --fsdp_sh', 27)).map((i) => i.label);
  assert.ok(flags.includes('--use_fsdp') && flags.includes('--fsdp_sharding_strategy') && flags.includes('--use_deepspeed'));
  assert.equal(flags.filter((f) => f === '--fsdp_sharding_strategy').length, 1, 'listed once');
  const values = await complete('accelerate launch --fsdp_sharding_strategy ', 43);
  assert.deepEqual(values.map((i) => i.label), ['FULL_SHARD', 'SHARD_GRAD_OP', 'NO_SHARD', 'HYBRID_SHARD', 'HYBRID_SHARD_ZERO2']);
  const version = await complete('accelerate launch --use_fsdp --fsdp_version ', 44);
  assert.deepEqual(version.map((i) => i.label), ['1', '2']);
});

test('hover on a --fsdp word explains it; on an ms-swift preset it shows the preset\'s JSON', async () => {
  const word = markdown((await hover('torchrun train.py --fsdp "full_shard auto_wrap"', 40))?.contents);
  assert.match(word, /^\*\*auto_wrap\*\* \(`--fsdp`\)/);
  assert.match(word, /transformer block/);
  const preset = markdown((await hover('swift sft --fsdp fsdp2', 19))?.contents);
  assert.match(preset, /ms-swift FSDP preset `fsdp2`/);
  assert.match(preset, /"fsdp_version": 2/);
  const flag = markdown((await hover('swift sft --fsdp fsdp2', 13, 'zh-cn'))?.contents);
  assert.match(flag, /^\*\*--fsdp\*\* \(swift sft\)/);
  assert.match(flag, /预设/);
});
