/**
 * LLaMA-Factory's refusals where `llamafactory-cli train sft.yaml key=value …` overrides the YAML it runs (OmegaConf.merge,
 * hiyouga/LLaMA-Factory@ff6d4d12 src/llamafactory/hparams/parser.py:117-120): the command line reports a case it writes a
 * part of, reads the rest from the YAML, and says nothing where it turns the option off. Also fp8 with quantization_bit
 * (parser.py:520-527, off under USE_MCA / USE_MEGATRON_BRIDGE) and USE_V1, which skips parser.py.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { upstreamLink } from '../../server/src/diagnostics/registry';
import { LLAMA_FACTORY } from '../../server/src/diagnostics/upstream';
import { doc, fixed, service, settings } from './launch-helpers';

const ds = { 'ds_z2.json': '{ "zero_optimization": { "stage": 2 } }', 'ds_z3.json': '{ "zero_optimization": { "stage": 3 } }' };
const base = 'model_name_or_path: Qwen/Qwen3-8B\nstage: sft\ndo_train: true\n';
const link = (lines: string) => upstreamLink(`${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L${lines}`);
const lf = /^llamafactory-/;

/** The LLaMA-Factory diagnostics of a script running lf/sft.yaml (`yaml`). */
async function run(script: string, yaml: string, locale?: 'zh-cn') {
  const document = doc('run.sh', script);
  const all = await service({ ...ds, 'lf/sft.yaml': `${base}${yaml}` }).ls.doValidation(document, settings(locale ? { language: locale } : {}));
  const ours = all.filter((d) => lf.test(String(d.code)));
  return { document, all, ours, at: ours.map((d) => document.getText(d.range)) };
}

test('GaLore: the command line turns it on, the YAML makes it layer-wise: the case is layer-wise (parser.py:506-507)', async () => {
  const r = await run('llamafactory-cli train lf/sft.yaml use_galore=true\n', 'galore_layerwise: true\ndeepspeed: ds_z2.json\n');
  assert.deepEqual(r.at, ['use_galore=true']);
  assert.equal(r.ours[0].codeDescription?.href, link('506-507'));
  assert.equal(fixed(r.document, r.all, 'llamafactory-deepspeed-incompatible', 'Remove use_galore'), 'llamafactory-cli train lf/sft.yaml\n');
});

test('GaLore in the YAML: the command line turning it off says nothing; naming the DeepSpeed config reports it there', async () => {
  assert.deepEqual((await run('llamafactory-cli train lf/sft.yaml use_galore=false deepspeed=ds_z2.json\n', 'use_galore: true\n')).ours, []);
  const r = await run('llamafactory-cli train lf/sft.yaml deepspeed=ds_z2.json\n', 'use_galore: true\n');
  assert.deepEqual(r.at, ['deepspeed=ds_z2.json']);
  assert.match(String(r.ours[0].message), /^use_galore with DeepSpeed \(ds_z2\.json\)/);
  // Removing the DeepSpeed override does not turn use_galore off: no fix.
  assert.deepEqual(r.ours[0].data?.fixes ?? [], []);
  // Nothing on the command line is part of the case: the YAML reports it, not the script.
  assert.deepEqual((await run('llamafactory-cli train lf/sft.yaml\n', 'use_galore: true\ndeepspeed: ds_z2.json\n')).ours, []);
  // Written on both: removing the override brings the YAML's true back, so no removal fix.
  const both = await run('llamafactory-cli train lf/sft.yaml use_galore=true\n', 'use_galore: true\ndeepspeed: ds_z2.json\n');
  assert.deepEqual(both.at, ['use_galore=true']);
  assert.deepEqual(both.ours[0].data?.fixes ?? [], []);
});

test('BAdam: the YAML\'s badam_mode: ratio under the command line\'s use_badam=true (parser.py:513-514)', async () => {
  const r = await run('llamafactory-cli train lf/sft.yaml use_badam=true\n', 'badam_mode: ratio\ndeepspeed: ds_z3.json\n');
  assert.equal(r.ours[0]?.codeDescription?.href, link('513-514'));
});

test('ZeRO-3 refusals on the command line, over the YAML (parser.py:486-536)', async () => {
  const r = await run('llamafactory-cli train lf/sft.yaml pure_bf16=true\n', 'deepspeed: ds_z3.json\n');
  assert.deepEqual(r.at, ['pure_bf16=true']);
  assert.equal(r.ours[0].code, 'llamafactory-zero3-incompatible');
  assert.equal(fixed(r.document, r.all, 'llamafactory-zero3-incompatible', 'Remove pure_bf16'), 'llamafactory-cli train lf/sft.yaml\n');
  assert.deepEqual((await run('llamafactory-cli train lf/sft.yaml pure_bf16=true\n', 'deepspeed: ds_z2.json\n')).ours, []);
  assert.deepEqual((await run('llamafactory-cli train lf/sft.yaml pure_bf16=false\n', 'pure_bf16: true\ndeepspeed: ds_z3.json\n')).ours, []);
  const viaDs = await run('llamafactory-cli train lf/sft.yaml deepspeed=ds_z3.json\n', 'use_unsloth: true\ndeepspeed: ds_z2.json\n');
  assert.deepEqual(viaDs.at, ['deepspeed=ds_z3.json']);
  assert.match(String(viaDs.ours[0].message), /^use_unsloth with a ZeRO-3 DeepSpeed config \(ds_z3\.json\)/);
  // HQQ needs quantization_bit, which the command line adds.
  const hqq = await run('llamafactory-cli train lf/sft.yaml quantization_bit=4\n', 'quantization_method: hqq\ndeepspeed: ds_z3.json\n');
  assert.deepEqual(hqq.at, ['quantization_bit=4']);
});

test('quantization_bit with full or freeze tuning across the command line and the YAML (parser.py:235-237)', async () => {
  const r = await run('llamafactory-cli train lf/sft.yaml quantization_bit=4\n', 'finetuning_type: full\n');
  assert.deepEqual(r.at, ['quantization_bit=4']);
  assert.equal(r.ours[0].codeDescription?.href, link('235-237'));
  assert.equal(fixed(r.document, r.all, 'llamafactory-invalid-value', 'Remove quantization_bit'), 'llamafactory-cli train lf/sft.yaml\n');
  const ft = await run('llamafactory-cli train lf/sft.yaml finetuning_type=freeze\n', 'quantization_bit: 4\n');
  assert.deepEqual(ft.at, ['finetuning_type=freeze']);
  assert.match(String(ft.ours[0].message), /^quantization_bit with finetuning_type: freeze/);
  assert.deepEqual((await run('llamafactory-cli train lf/sft.yaml finetuning_type=lora\n', 'quantization_bit: 4\nfinetuning_type: full\n')).ours, []);
  // Flags without a config file (HfArgumentParser).
  assert.deepEqual((await run('llamafactory-cli train --quantization_bit 4 --finetuning_type full\n', '')).at, ['--quantization_bit 4']);
});

test('fp8 with quantization_bit: an error on a command line, a warning in a YAML (the environment decides), none under USE_MCA', async () => {
  const r = await run('llamafactory-cli train lf/sft.yaml fp8=true\n', 'quantization_bit: 4\n');
  assert.deepEqual(r.at, ['fp8=true']);
  assert.equal(r.ours[0].severity, 1);
  assert.equal(r.ours[0].codeDescription?.href, link('520-527'));
  assert.match(String(r.ours[0].message), /^fp8 with quantization_bit: 4: LLaMA-Factory refuses it at start \("FP8 training is not compatible with quantization\. Please disable one of them\."/);
  assert.equal(fixed(r.document, r.all, 'llamafactory-invalid-value', 'Remove fp8'), 'llamafactory-cli train lf/sft.yaml\n');
  for (const env of ['USE_MCA=1', 'USE_MEGATRON_BRIDGE=true']) assert.deepEqual((await run(`${env} llamafactory-cli train lf/sft.yaml fp8=true\n`, 'quantization_bit: 4\n')).ours, []);
  assert.deepEqual((await run('USE_MCA=0 llamafactory-cli train lf/sft.yaml fp8=true\n', 'quantization_bit: 4\n')).at, ['fp8=true']);
  const text = `${base}fp8: true\nquantization_bit: 4\ndeepspeed: ds_z2.json\n`;
  const document = doc('lf/fp8.yaml', text);
  const all = await service(ds).ls.doValidation(document, settings());
  const [w] = all.filter((d) => d.code === 'llamafactory-invalid-value');
  assert.equal(w?.severity, 2);
  assert.equal(document.getText(w.range), 'fp8: true');
  assert.match(String(w.message), /unless the environment sets USE_MCA=1 or USE_MEGATRON_BRIDGE=1\.$/);
  assert.equal(fixed(document, all, 'llamafactory-invalid-value', 'Remove quantization_bit'), `${base}fp8: true\ndeepspeed: ds_z2.json\n`);
  const zh = (await service(ds).ls.doValidation(doc('lf/fp8zh.yaml', text), settings({ language: 'zh-cn' }))).find((d) => d.code === 'llamafactory-invalid-value');
  assert.match(String(zh?.message), /^fp8 配合 quantization_bit: 4：LLaMA-Factory 启动时会拒绝（.*），除非环境设置了 USE_MCA=1 或 USE_MEGATRON_BRIDGE=1。$/);
});

test('USE_V1=1 runs the v1 trainer, which does not read hparams/parser.py (cli.py:19-22): no refusal', async () => {
  assert.deepEqual((await run('USE_V1=1 llamafactory-cli train lf/sft.yaml use_galore=true quantization_bit=4 fp8=true\n', 'finetuning_type: full\ndeepspeed: ds_z2.json\n')).ours, []);
  assert.equal((await run('llamafactory-cli train lf/sft.yaml use_galore=true\n', 'deepspeed: ds_z2.json\n')).ours.length, 1);
});

test('one visible device: llamafactory-cli trains without torchrun, where DeepSpeed is refused (launcher.py:57-62, parser.py:471-472)', async () => {
  const r = await run('CUDA_VISIBLE_DEVICES=0 llamafactory-cli train lf/sft.yaml\n', 'deepspeed: ds_z2.json\n');
  assert.deepEqual(r.at, ['CUDA_VISIBLE_DEVICES=0']);
  assert.equal(r.ours[0].severity, 1);
  assert.equal(r.ours[0].codeDescription?.href, link('471-472'));
  assert.match(String(r.ours[0].message), /^CUDA_VISIBLE_DEVICES leaves one device visible, .*\("Please use `FORCE_TORCHRUN=1` to launch DeepSpeed training\.", hparams\/parser\.py:471-472\)\. Set FORCE_TORCHRUN=1\.$/);
  const exported = await run('export CUDA_VISIBLE_DEVICES=3\nllamafactory-cli train lf/sft.yaml deepspeed=ds_z3.json\n', '');
  assert.deepEqual(exported.at, ['CUDA_VISIBLE_DEVICES=3']);
  // torchrun starts: forced, by USE_MCA, or with two devices; Ray trains its own workers; no DeepSpeed, no refusal.
  for (const prefix of ['FORCE_TORCHRUN=1 CUDA_VISIBLE_DEVICES=0', 'USE_MCA=1 CUDA_VISIBLE_DEVICES=0', 'USE_RAY=1 CUDA_VISIBLE_DEVICES=0', 'CUDA_VISIBLE_DEVICES=0,1', '']) {
    assert.deepEqual((await run(`${prefix} llamafactory-cli train lf/sft.yaml\n`, 'deepspeed: ds_z2.json\n')).ours, [], prefix);
  }
  assert.deepEqual((await run('CUDA_VISIBLE_DEVICES=0 llamafactory-cli train lf/sft.yaml\n', 'finetuning_type: lora\n')).ours, []);
  const zh = await run('CUDA_VISIBLE_DEVICES=0 llamafactory-cli train lf/sft.yaml\n', 'deepspeed: ds_z2.json\n', 'zh-cn');
  assert.match(String(zh.ours[0]?.message), /^CUDA_VISIBLE_DEVICES 只留下一个可见设备，所以 llamafactory-cli train 不经 torchrun、在单个进程里训练/);
});
