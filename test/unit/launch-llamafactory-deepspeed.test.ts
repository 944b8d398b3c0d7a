/**
 * LLaMA-Factory refuses GaLore, APOLLO and BAdam under DeepSpeed (hiyouga/LLaMA-Factory ff6d4d12
 * src/llamafactory/hparams/parser.py:505-519): an error on the option, in the YAML config and on the command line,
 * linking the line that raises, with the fix that removes the option.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { upstreamLink } from '../../server/src/diagnostics/registry';
import { LLAMA_FACTORY } from '../../server/src/diagnostics/upstream';
import { codes, doc, fixed, service, settings } from './launch-helpers';

const files = { 'ds_z2.json': '{ "zero_optimization": { "stage": 2 } }', 'ds_z3.json': '{ "zero_optimization": { "stage": 3 } }' };
const base = 'model_name_or_path: Qwen/Qwen3-8B\nstage: sft\ndo_train: true\nfinetuning_type: full\n';
const code = 'llamafactory-deepspeed-incompatible';
const link = (lines: string) => upstreamLink(`${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L${lines}`);

async function check(name: string, text: string, locale?: 'zh-cn') {
  const document = doc(name, text);
  const diagnostics = await service(files).ls.doValidation(document, settings(locale ? { language: locale } : {}));
  return { document, diagnostics, ours: diagnostics.filter((d) => d.code === code) };
}

test('YAML: use_galore with a DeepSpeed config is an error at use_galore, linking parser.py:518-519; the fix removes it', async () => {
  const text = `${base}use_galore: true\ngalore_rank: 16\ndeepspeed: ds_z2.json\n`;
  const { document, diagnostics, ours } = await check('lf/galore.yaml', text);
  assert.deepEqual(codes(diagnostics), [code]);
  const [d] = ours;
  assert.equal(d.severity, 1);
  assert.equal(document.getText(d.range), 'use_galore: true');
  assert.equal(d.codeDescription?.href, link('518-519'));
  assert.match(String(d.message), /^use_galore with DeepSpeed \(ds_z2\.json\): LLaMA-Factory refuses it at start \("GaLore and APOLLO are incompatible with DeepSpeed yet\.", hparams\/parser\.py:518-519\)/);
  assert.equal(fixed(document, diagnostics, code, 'Remove use_galore'), `${base}galore_rank: 16\ndeepspeed: ds_z2.json\n`);
  // Off, or without DeepSpeed, LLaMA-Factory goes on.
  assert.deepEqual((await check('lf/off.yaml', text.replace('use_galore: true', 'use_galore: false'))).ours, []);
  assert.deepEqual((await check('lf/nods.yaml', text.replace('deepspeed: ds_z2.json\n', ''))).ours, []);
});

test('YAML: layer-wise GaLore and APOLLO raise earlier, as distributed training (parser.py:506-507, :509-510)', async () => {
  const galore = (await check('lf/lw.yaml', `${base}use_galore: true\ngalore_layerwise: true\ndeepspeed: ds_z3.json\n`)).ours;
  assert.equal(galore[0]?.codeDescription?.href, link('506-507'));
  assert.match(String(galore[0].message), /Distributed training does not support layer-wise GaLore\./);
  const apollo = (await check('lf/ap.yaml', `${base}use_apollo: true\napollo_layerwise: true\ndeepspeed: ds_z3.json\n`)).ours;
  assert.equal(apollo[0]?.codeDescription?.href, link('509-510'));
  const plain = (await check('lf/ap2.yaml', `${base}use_apollo: true\ndeepspeed: ds_z3.json\n`)).ours;
  assert.equal(plain[0]?.codeDescription?.href, link('518-519'));
});

test('YAML: BAdam runs under DeepSpeed only layer-wise with ZeRO-3 (parser.py:513-516)', async () => {
  const layerZ2 = (await check('lf/b2.yaml', `${base}use_badam: true\ndeepspeed: ds_z2.json\n`)).ours;
  assert.equal(layerZ2.length, 1);
  assert.equal(layerZ2[0].codeDescription?.href, link('515-516'));
  assert.match(String(layerZ2[0].message), /Layer-wise BAdam only supports DeepSpeed ZeRO-3 training\./);
  assert.deepEqual((await check('lf/b3.yaml', `${base}use_badam: true\nbadam_mode: layer\ndeepspeed: ds_z3.json\n`)).ours, []);
  const ratio = (await check('lf/br.yaml', `${base}use_badam: true\nbadam_mode: ratio\ndeepspeed: ds_z3.json\n`)).ours;
  assert.equal(ratio[0]?.codeDescription?.href, link('513-514'));
  // A config ZeRO Lens cannot read says nothing about the stage: no claim.
  assert.deepEqual((await check('lf/bx.yaml', `${base}use_badam: true\ndeepspeed: missing.json\n`)).ours, []);
});

test('command line: `key=value` overrides and `--key` flags of llamafactory-cli train', async () => {
  const dotlist = 'llamafactory-cli train lf/sft.yaml use_galore=true deepspeed=ds_z2.json\n';
  const a = await check('run.sh', dotlist);
  assert.equal(a.ours.length, 1, a.diagnostics.map((d) => d.message).join('\n'));
  assert.equal(a.document.getText(a.ours[0].range), 'use_galore=true');
  assert.equal(fixed(a.document, a.diagnostics, code, 'Remove use_galore'), 'llamafactory-cli train lf/sft.yaml deepspeed=ds_z2.json\n');
  const flags = 'llamafactory-cli train --model_name_or_path Qwen/Qwen3-8B --use_apollo --deepspeed ds_z2.json\n';
  const b = await check('run2.sh', flags);
  assert.equal(b.ours.length, 1, b.diagnostics.map((d) => d.message).join('\n'));
  assert.equal(fixed(b.document, b.diagnostics, code, 'Remove --use_apollo'), 'llamafactory-cli train --model_name_or_path Qwen/Qwen3-8B --deepspeed ds_z2.json\n');
  assert.deepEqual((await check('run3.sh', flags.replace('--use_apollo', '--use_apollo false'))).ours, []);
  // After a config file only key=value overrides are read (parser.py:117-120); without one, only flags (:125-126).
  assert.deepEqual((await check('run6.sh', 'llamafactory-cli train lf/sft.yaml --use_galore deepspeed=ds_z2.json\n')).ours, []);
  assert.deepEqual((await check('run7.sh', 'llamafactory-cli train use_galore=true --deepspeed ds_z2.json\n')).ours, []);
  const badam = await check('run4.sh', 'llamafactory-cli train --use_badam true --deepspeed ds_z2.json\n');
  assert.equal(badam.ours[0]?.codeDescription?.href, link('515-516'));
  // The DeepSpeed config of the YAML the command runs counts too.
  const document = doc('run5.sh', 'llamafactory-cli train lf/sft.yaml use_galore=true\n');
  const withYaml = service({ ...files, 'lf/sft.yaml': `${base}deepspeed: ds_z2.json\n` });
  const viaYaml = (await withYaml.ls.doValidation(document, settings())).filter((d) => d.code === code);
  assert.equal(viaYaml.length, 1);
  assert.match(String(viaYaml[0].message), /^use_galore with DeepSpeed \(ds_z2\.json\)/);
  const plainYaml = service({ ...files, 'lf/sft.yaml': base });
  assert.deepEqual((await plainYaml.ls.doValidation(document, settings())).filter((d) => d.code === code), []);
});

test('in Chinese', async () => {
  const { ours } = await check('lf/zh.yaml', `${base}use_galore: true\ndeepspeed: ds_z2.json\n`, 'zh-cn');
  assert.match(String(ours[0].message), /^use_galore 配合 DeepSpeed（ds_z2\.json）：LLaMA-Factory 启动时会拒绝（"GaLore and APOLLO are incompatible with DeepSpeed yet\."，hparams\/parser\.py:518-519）。请关闭 use_galore。$/);
});

test('YAML: quantization_bit with full or freeze tuning, which LLaMA-Factory refuses, DeepSpeed or not (parser.py:235-237)', async () => {
  const text = `${base}quantization_bit: 4\ndeepspeed: ds_z2.json\n`;
  const { document, diagnostics } = await check('lf/q.yaml', text);
  const [d] = diagnostics.filter((x) => x.code === 'llamafactory-invalid-value');
  assert.equal(document.getText(d?.range), 'quantization_bit: 4');
  assert.equal(d.codeDescription?.href, link('235-237'));
  assert.match(String(d.message), /^quantization_bit with finetuning_type: full: LLaMA-Factory refuses it at start \("Quantization is only compatible with the LoRA or OFT method\."/);
  assert.equal(fixed(document, diagnostics, 'llamafactory-invalid-value', 'Remove quantization_bit'), `${base}deepspeed: ds_z2.json\n`);
  // lora (also the default) and oft take it.
  for (const tuning of ['lora', 'oft']) assert.deepEqual(codes((await check(`lf/q-${tuning}.yaml`, text.replace('full', tuning))).diagnostics), []);
  assert.deepEqual(codes((await check('lf/q-default.yaml', text.replace('finetuning_type: full\n', ''))).diagnostics), []);
  const zh = (await check('lf/q-zh.yaml', text.replace('full', 'freeze'), 'zh-cn')).diagnostics[0];
  assert.match(String(zh?.message), /^quantization_bit 配合 finetuning_type: freeze：LLaMA-Factory 启动时会拒绝/);
});
