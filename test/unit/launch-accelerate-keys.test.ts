/**
 * Top-level keys of an accelerate config file: from_yaml_file refuses any ClusterConfig lacks
 * (commands/config/config_args.py:154-159 at accelerate 16cb6eb8; its own tests/test_configs/invalid_keys.yaml).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { extractLaunchFacts } from '../../server/src/launch';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

const base = 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\nmixed_precision: bf16\n';

async function check(text: string, language?: 'zh-cn') {
  const document = doc('accelerate.yaml', text);
  const diagnostics = await service().ls.doValidation(document, settings(language ? { language } : {}));
  return { document, diagnostics: diagnostics.filter((d) => d.code === 'accelerate-unknown-key') };
}

test('an unknown top-level key is an error that cites the line that raises; a misspelt one gets a rename', async () => {
  const unknown = await check(`${base}invalid_key: "invalid_value"\n`);
  assert.equal(unknown.diagnostics.length, 1);
  assert.equal(unknown.diagnostics[0].severity, DiagnosticSeverity.Error);
  assert.match(String(unknown.diagnostics[0].message), /refuses a config with the key invalid_key: ValueError "had unknown keys"\.$/);
  assert.match(String(unknown.diagnostics[0].codeDescription?.href), /accelerate\/blob\/16cb6eb8[0-9a-f]*\/src\/accelerate\/commands\/config\/config_args\.py#L154-L159$/);
  assert.equal(fixed(unknown.document, unknown.diagnostics, 'accelerate-unknown-key', 'Remove invalid_key'), base);

  const typo = await check(`${base}num_process: 2\n`);
  assert.match(String(typo.diagnostics[0].message), /Did you mean num_processes\?$/);
  assert.equal(fixed(typo.document, typo.diagnostics, 'accelerate-unknown-key', 'Rename to num_processes'), `${base}num_processes: 2\n`);
  const zh = await check(`${base}num_process: 2\n`, 'zh-cn');
  assert.match(String(zh.diagnostics[0].message), /拒绝含有键 num_process 的配置.*是不是想写 num_processes？/);
});

test('keys accelerate converts or used to read: fp16 and dynamo_backend pass, ipex_config is a warning; SageMaker configs and LLaMA-Factory YAML are left alone', async () => {
  assert.deepEqual(codes((await check(`${base}fp16: true\ndynamo_backend: 'NO'\nnum_processes: 8\nmain_training_function: main\n`)).diagnostics), []);
  const ipex = await check(`${base}ipex_config:\n  ipex: false\nnum_processes: 8\n`);
  assert.equal(ipex.diagnostics.length, 1);
  assert.equal(ipex.diagnostics[0].severity, DiagnosticSeverity.Warning);
  assert.equal(fixed(ipex.document, ipex.diagnostics, 'accelerate-unknown-key', 'Remove ipex_config'), `${base}num_processes: 8\n`);
  const sagemaker = base.replace('LOCAL_MACHINE', 'AMAZON_SAGEMAKER') + 'ec2_instance_type: ml.p3.2xlarge\niam_role_name: role\n';
  assert.deepEqual((await check(sagemaker)).diagnostics, []);
  // A LLaMA-Factory YAML with the Trainer's fsdp_config is no accelerate config: it has no distributed_type.
  const llamaFactory = 'model_name_or_path: Qwen/Qwen3-8B\nstage: sft\nfsdp: full_shard auto_wrap\nfsdp_config:\n  min_num_params: 0\n';
  assert.deepEqual((await check(llamaFactory)).diagnostics, []);
  const [facts] = extractLaunchFacts(doc('lf.yaml', llamaFactory), [workspaceRoot]);
  assert.deepEqual([facts.launcher, facts.model?.value], ['llamafactory-yaml', 'Qwen/Qwen3-8B'], 'read as LLaMA-Factory');
});
