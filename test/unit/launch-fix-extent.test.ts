import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, doc, service, settings } from './launch-helpers';

test('"Remove --teacher_deepspeed" stops at the end of its value, not at an open quote that runs to the end of the file', async () => {
  const text = 'swift sft --model m --teacher_deepspeed zero3 "oops --lora_rank 8\nswift sft --model m2\n';
  const { ls } = service();
  const document = doc('train.sh', text);
  const diagnostics = await ls.doValidation(document, settings());
  const diagnostic = diagnostics.find((d) => d.code === 'deepspeed-unsupported-subcommand');
  assert.ok(diagnostic, diagnostics.map((d) => d.code).join(', '));
  const [remove] = (await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic] }, settings())).filter((a) => a.title === 'Remove --teacher_deepspeed');
  assert.equal(applyEdits(document, remove.edit!.changes![document.uri]), 'swift sft --model m "oops --lora_rank 8\nswift sft --model m2\n');
});

test('removing a key of a YAML flow mapping removes that pair only, not the whole line holding the mapping', async () => {
  const { ls } = service({ 'ds_z3.json': '{ "zero_optimization": { "stage": 3 } }' });
  const fixedText = async (text: string, code: string) => {
    const document = doc('accel.yaml', text);
    const diagnostics = await ls.doValidation(document, settings());
    const diagnostic = diagnostics.find((d) => d.code === code);
    assert.ok(diagnostic, diagnostics.map((d) => d.code).join(', '));
    const [action] = await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic] }, settings());
    return applyEdits(document, action.edit!.changes![document.uri]);
  };
  const head = 'distributed_type: DEEPSPEED\n';
  const tail = 'num_processes: 8\n';
  // In the middle: the pair and its comma.
  assert.equal(
    await fixedText(`${head}deepspeed_config: {deepspeed_config_file: ds_z3.json, zero_stage: 3, zero3_init_flag: true}\n${tail}`, 'accelerate-config-file-excludes'),
    `${head}deepspeed_config: {deepspeed_config_file: ds_z3.json, zero3_init_flag: true}\n${tail}`,
  );
  // Last: the comma before it.
  assert.equal(
    await fixedText(`${head}deepspeed_config: {deepspeed_config_file: ds_z3.json, zero_stage: 3}\n${tail}`, 'accelerate-config-file-excludes'),
    `${head}deepspeed_config: {deepspeed_config_file: ds_z3.json}\n${tail}`,
  );
  // First: the comma after it.
  assert.equal(
    await fixedText(`${head}deepspeed_config: {zero_stage: 3, deepspeed_config_file: ds_z3.json}\n${tail}`, 'accelerate-config-file-excludes'),
    `${head}deepspeed_config: {deepspeed_config_file: ds_z3.json}\n${tail}`,
  );
  // A flow mapping over several lines: the pair's own line.
  assert.equal(
    await fixedText('distributed_type: FSDP\nfsdp_config: {\n  fsdp_version: 2,\n  fsdp_forward_prefetch: false,\n  fsdp_offload_params: false\n}\nnum_processes: 2\n', 'fsdp-ignored-by-version'),
    'distributed_type: FSDP\nfsdp_config: {\n  fsdp_version: 2,\n  fsdp_offload_params: false\n}\nnum_processes: 2\n',
  );
});
