/**
 * A TRL or accelerate DeepSpeed run whose precision flag contradicts accelerate's mixed_precision. accelerate launch
 * hands the script its mixed_precision as ACCELERATE_MIXED_PRECISION (accelerate 16cb6eb8 src/accelerate/utils/launch.py:557);
 * TrainingArguments keeps it unless --fp16 or --bf16 is true (transformers 00349ae8 src/transformers/training_args.py,
 * __post_init__ "5. Mixed Precision") and hands it to the DeepSpeedPlugin ("12. DeepSpeed": set_mixed_precision), which
 * writes `"bf16": {"enabled": true}` into the config it builds (accelerate utils/dataclasses.py:1415-1446). The Trainer
 * then compares "bf16.enabled" with --bf16 (integrations/deepspeed.py trainer_config_process, fill_match("bf16.enabled",
 * args.bf16 or args.bf16_full_eval)) and trainer_config_finalize raises "Please correct the following DeepSpeed config
 * values that mismatch TrainingArguments values".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings, withDefaults } from '../../server/src/settings';
import { memoryHosts, scriptDocument } from './context-hosts';
import { zero3 } from './trl-fixtures';

async function check(script: string, files: Record<string, string> = {}, settings = defaultSettings) {
  const ls = getLanguageService(memoryHosts({ ...files, 'train.sh': script }));
  const document = scriptDocument('train.sh', script);
  const diagnostics = await ls.doValidation(document, settings);
  const found = diagnostics.filter((d) => d.code === 'hf-trainer-config-mismatch');
  const fixed = async (diagnostic: Diagnostic) => {
    const actions = await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic], only: ['quickfix'] }, defaultSettings);
    return actions.map((a) => ({ title: a.title, text: TextDocument.applyEdits(document, a.edit?.changes?.[document.uri] ?? []) }));
  };
  return { found, at: found.map((d) => document.getText(d.range)), fixed };
}

const sft = (args: string) => `trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name stanfordnlp/imdb ${args}\n`;

test('`trl sft --bf16 false --accelerate_config zero3`: the profile\'s bf16 goes into the DeepSpeed config, and the Trainer refuses --bf16 false; the fix writes true', async () => {
  const script = sft('--bf16 false --accelerate_config zero3');
  const { found, at, fixed } = await check(script);
  assert.deepEqual(at, ['false']);
  assert.equal(found[0].severity, DiagnosticSeverity.Error);
  assert.match(String(found[0].message), /--bf16 false/);
  assert.match(String(found[0].message), /TRL's zero3 profile/);
  assert.match(String(found[0].message), /"bf16\.enabled": true/);
  assert.match(String(found[0].codeDescription?.href), /integrations\/deepspeed\.py#L277-L282$/);
  const fixes = await fixed(found[0]);
  assert.deepEqual(fixes.map((f) => f.title), ['Change to true']);
  assert.equal(fixes[0].text, script.replace('--bf16 false', '--bf16 true'));
  assert.deepEqual((await check(fixes[0].text)).found, []);
  const zh = (await check(script, {}, withDefaults({ language: 'zh-cn' }))).found[0];
  assert.match(String(zh.message), /--bf16 false 会保留 accelerate 的 mixed_precision bf16（TRL 自带的 zero3 配置）/);
});

test('the runs that agree: --fp16 (it replaces the profile\'s bf16 on both sides), accelerate\'s --mixed_precision no, a profile without DeepSpeed, no flag (TRL\'s bf16 default)', async () => {
  for (const args of [
    '--fp16 --accelerate_config zero3',
    '--bf16 false --fp16 true --accelerate_config zero2',
    '--bf16 false --accelerate_config zero3 --mixed_precision no',
    '--bf16 false --accelerate_config multi_gpu',
    '--accelerate_config zero3',
    '--bf16 true --accelerate_config zero1',
  ]) {
    assert.deepEqual((await check(sft(args))).at, [], args);
  }
});

test('`accelerate launch --config_file ds.yaml train.py --bf16 false` (a YAML with deepspeed_config and mixed_precision bf16): refused the same way', async () => {
  const script = 'accelerate launch --config_file configs/zero3.yaml train.py --model_name_or_path Qwen/Qwen2.5-0.5B --bf16 false --output_dir out\n';
  const { found, at, fixed } = await check(script, { 'configs/zero3.yaml': zero3 });
  assert.deepEqual(at, ['false']);
  assert.match(String(found[0].message), /configs\/zero3\.yaml/);
  assert.equal((await fixed(found[0]))[0].text, script.replace('--bf16 false', '--bf16 true'));
  // accelerate's flags: DeepSpeed and bf16 from the command line.
  assert.deepEqual((await check('accelerate launch --use_deepspeed --zero_stage 2 --mixed_precision bf16 train.py --bf16=false --output_dir out\n')).at, ['false']);
  // The stage from accelerate's flag, bf16 from the file.
  assert.deepEqual((await check(script.replace('configs/zero3.yaml', 'configs/zero3.yaml --zero_stage 2'), { 'configs/zero3.yaml': zero3 })).at, ['false']);
  // fp16 the same way: --fp16 false under mixed_precision fp16.
  const fp16 = zero3.replace('mixed_precision: bf16', 'mixed_precision: fp16');
  const half = await check(script.replace('--bf16 false', '--fp16 false'), { 'configs/zero3.yaml': fp16 });
  assert.deepEqual(half.at, ['false']);
  assert.match(String(half.found[0].message), /"fp16\.enabled": true/);
  // A DeepSpeed config file of its own decides its own "bf16" (not read here).
  const withFile = zero3.replace('deepspeed_config:\n', 'deepspeed_config:\n  deepspeed_config_file: ds.json\n');
  assert.deepEqual((await check(script, { 'configs/zero3.yaml': withFile, 'ds.json': '{"bf16": {"enabled": false}}' })).at, []);
});
