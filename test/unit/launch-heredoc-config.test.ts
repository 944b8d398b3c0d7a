/** DeepSpeed configs a script writes with a here-document: checked inside the script, read by its launch. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings, withDefaults } from '../../server/src/settings';
import type { MarkupContent } from 'vscode-languageserver-types';
import { launchFactsOfText } from '../../server/src/launch/references';
import { memoryHosts, workspaceRoot } from './context-hosts';

const script = [
  'MICRO_BATCH=4',
  'ZERO_STAGE=2',
  'config_json="./ds_config.$SLURM_JOBID.json"',
  'cat <<EOT > $config_json',
  '{',
  '  "train_micro_batch_size_per_gpu": $MICRO_BATCH,',
  '  "train_batch_size": 24,',
  '  "zero_optimization": {',
  '    "stage": $ZERO_STAGE,',
  '    "stage3_param_persitence_threshold": 1e4,',
  '    "reduce_bucket_size": $BUCKET',
  '  }',
  '}',
  'EOT',
  'deepspeed --num_gpus 8 pretrain_gpt.py --deepspeed --deepspeed_config ${config_json}',
  '',
].join('\n');

test('the config a heredoc writes is checked inside the script, at the place each value is written', async () => {
  const service = getLanguageService(memoryHosts({ 'train.sh': script }));
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'train.sh')).toString(), 'shellscript', 1, script);
  const diagnostics = await service.doValidation(document, defaultSettings);
  const text = (d: { range: { start: { line: number; character: number }; end: { line: number; character: number } } }) => document.getText(d.range);
  const unknown = diagnostics.find((d) => d.code === 'unknown-key');
  assert.ok(unknown, JSON.stringify(diagnostics.map((d) => d.code)));
  assert.equal(text(unknown), '"stage3_param_persitence_threshold"');
  assert.match(String(unknown.message), /^In the DeepSpeed config this script writes: /);
  // 24 = 4 × accumulation × 8 GPUs has no whole accumulation: the launch's GPU count is known (a warning: a
  // plain deepspeed script may split the GPUs with model parallelism).
  const batch = diagnostics.find((d) => d.code === 'batch-size-mismatch');
  assert.equal(batch && text(batch), '"train_batch_size"');
  assert.equal(batch?.severity, 2);
  // $BUCKET is not set in the script: nothing is said about its value. The file does not exist yet: no "not found".
  assert.ok(!diagnostics.some((d) => d.code === 'invalid-type' || d.code === 'deepspeed-config-not-found'), JSON.stringify(diagnostics.map((d) => d.code)));
});

test("the launch reads the heredoc's text as its config", () => {
  const facts = launchFactsOfText('/ws/train.sh', script, ['/ws']).find((f) => f.deepspeed);
  assert.equal(facts?.deepspeed?.kind, 'file');
  const written = facts?.deepspeed?.kind === 'file' ? facts.deepspeed.written : undefined;
  assert.ok(written);
  assert.match(written.text, /"train_micro_batch_size_per_gpu": 4,/);
  assert.match(written.text, /"stage": 2,/);
});

test('hover on the config a heredoc writes says where the script writes it, not "not found"', async () => {
  const service = getLanguageService(memoryHosts({ 'train.sh': script }));
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'train.sh')).toString(), 'shellscript', 1, script);
  const position = document.positionAt(script.indexOf('${config_json}') + 2);
  const markdown = (settings: typeof defaultSettings) => service.doHover(document, position, settings).then((h) => (h?.contents as MarkupContent).value);
  const english = await markdown(defaultSettings);
  assert.match(english, /^\*\*DeepSpeed config\*\* `\$\{config_json\}`, written by this script \(here-document, lines 5–13\)/);
  assert.doesNotMatch(english, /not found/);
  assert.match(await markdown(withDefaults({ language: 'zh-cn' })), /由本脚本写入（here-document，第 5–13 行）/);
});

test('zeroLens.warnOnJsonc applies to the config a heredoc writes as to a config file', async () => {
  const written = ['cat <<EOT > ds_config.json', '{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {"stage": 2},', '}', 'EOT', 'deepspeed train.py --deepspeed ds_config.json', ''].join('\n');
  const service = getLanguageService(memoryHosts({ 'train.sh': written }));
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'train.sh')).toString(), 'shellscript', 1, written);
  const codes = async (sent: object) => (await service.doValidation(document, withDefaults(sent))).map((d) => d.code);
  assert.ok((await codes({})).includes('jsonc-trailing-comma'), String(await codes({})));
  // The here-document's checks ran with the default settings: warnOnJsonc: false still warned.
  assert.ok(!(await codes({ warnOnJsonc: false })).includes('jsonc-trailing-comma'));
});
