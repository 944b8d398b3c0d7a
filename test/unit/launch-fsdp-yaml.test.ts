/**
 * accelerate FSDP configs as documents: facts, checks as `accelerate launch` and FullyShardedDataParallelPlugin
 * read them (accelerate 16cb6eb8), their quick fixes, and the Chinese of their messages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { extractLaunchFacts } from '../../server/src/launch';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';

const fsdp2 = `compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_version: 2
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_transformer_layer_cls_to_wrap: Qwen2DecoderLayer
  fsdp_cpu_ram_efficient_loading: true
  fsdp_offload_params: false
  fsdp_reshard_after_forward: true
  fsdp_state_dict_type: SHARDED_STATE_DICT
  fsdp_activation_checkpointing: true
mixed_precision: bf16
num_machines: 1
num_processes: 8
`;

async function check(text: string, name = 'fsdp.yaml') {
  const { ls } = service();
  const document = doc(name, text);
  return { document, diagnostics: await ls.doValidation(document, settings()) };
}

test('FSDP config: a clean FSDP2 config has no diagnostics and its facts say how FSDP runs', async () => {
  const { diagnostics } = await check(fsdp2);
  assert.deepEqual(codes(diagnostics), []);
  const [f] = extractLaunchFacts(doc('fsdp.yaml', fsdp2), [workspaceRoot]);
  assert.equal(f.launcher, 'accelerate-yaml');
  assert.equal(f.gpusPerNode?.value, 8);
  assert.deepEqual(f.fsdp && [f.fsdp.version, f.fsdp.strategy, f.fsdp.offloadParams, f.fsdp.autoWrap, f.fsdp.activationCheckpointing?.value], [2, 'FULL_SHARD', false, 'TRANSFORMER_BASED_WRAP', true]);
  assert.equal(f.deepspeed, undefined);
});

test('FSDP config: a misspelt key is ignored by accelerate; the fix renames it', async () => {
  const text = fsdp2.replace('fsdp_offload_params', 'fsdp_offload_param');
  const { document, diagnostics } = await check(text);
  assert.deepEqual(codes(diagnostics), ['fsdp-unknown-key']);
  assert.equal(fixed(document, diagnostics, 'fsdp-unknown-key'), fsdp2);
});

test('FSDP config: values the plugin refuses link the line that raises', async () => {
  const text = fsdp2.replace('TRANSFORMER_BASED_WRAP', 'TRANSFORMER_WRAP').replace('SHARDED_STATE_DICT', 'LOCAL_STATE_DICT');
  const { document, diagnostics } = await check(text);
  assert.deepEqual(codes(diagnostics), ['fsdp-invalid-value', 'fsdp-invalid-value']);
  const wrap = diagnostics.find((d) => String(d.message).includes('fsdp_auto_wrap_policy'))!;
  assert.equal(wrap.severity, DiagnosticSeverity.Error);
  assert.match(String(wrap.codeDescription?.href), /accelerate\/blob\/16cb6eb8[0-9a-f]*\/src\/accelerate\/utils\/dataclasses\.py#L1901-L1907$/);
  const local = diagnostics.find((d) => String(d.message).includes('LOCAL_STATE_DICT'))!;
  assert.match(String(local.codeDescription?.href), /dataclasses\.py#L2052-L2056$/);
  assert.equal(fixed(document, [local], 'fsdp-invalid-value'), text.replace('LOCAL_STATE_DICT', 'SHARDED_STATE_DICT'));
});

test('FSDP config: FSDP2 reads reshard_after_forward as a boolean; a strategy name raises, the fix maps it', async () => {
  const text = fsdp2.replace('fsdp_reshard_after_forward: true', 'fsdp_reshard_after_forward: SHARD_GRAD_OP');
  const { document, diagnostics } = await check(text);
  assert.deepEqual(codes(diagnostics), ['fsdp-invalid-value']);
  assert.match(String(diagnostics[0].codeDescription?.href), /dataclasses\.py#L1853-L1854$/);
  assert.equal(fixed(document, diagnostics, 'fsdp-invalid-value'), fsdp2.replace('fsdp_reshard_after_forward: true', 'fsdp_reshard_after_forward: false'));
});

test('FSDP config: under FSDP1 the launcher shards by fsdp_sharding_strategy, so what accelerate config wrote is not used', async () => {
  const fsdp1 = `distributed_type: FSDP
fsdp_config:
  fsdp_version: 1
  fsdp_reshard_after_forward: SHARD_GRAD_OP
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
num_processes: 4
`;
  const { document, diagnostics } = await check(fsdp1);
  assert.deepEqual(codes(diagnostics), ['fsdp-ignored-by-version']);
  assert.match(String(diagnostics[0].message), /shards as FULL_SHARD/);
  const after = fixed(document, diagnostics, 'fsdp-ignored-by-version');
  assert.equal(after, fsdp1.replace('fsdp_reshard_after_forward: SHARD_GRAD_OP', 'fsdp_sharding_strategy: SHARD_GRAD_OP'));
  const [f] = extractLaunchFacts(doc('fixed.yaml', after), [workspaceRoot]);
  assert.equal(f.fsdp?.strategy, 'SHARD_GRAD_OP');
  assert.deepEqual(codes((await check(after)).diagnostics), []);
});

test('FSDP config: FSDP2 does not read fsdp_sharding_strategy nor the FSDP1-only options', async () => {
  const text = fsdp2.replace('  fsdp_reshard_after_forward: true\n', '  fsdp_sharding_strategy: SHARD_GRAD_OP\n  fsdp_use_orig_params: false\n');
  const { document, diagnostics } = await check(text);
  assert.deepEqual(codes(diagnostics), ['fsdp-ignored-by-version', 'fsdp-ignored-by-version']);
  const strategy = diagnostics.find((d) => String(d.message).includes('fsdp_sharding_strategy'))!;
  assert.equal(strategy.severity, DiagnosticSeverity.Warning);
  assert.equal(fixed(document, [strategy], 'fsdp-ignored-by-version'), text.replace('fsdp_sharding_strategy: SHARD_GRAD_OP', 'fsdp_reshard_after_forward: false'));
  const orig = diagnostics.find((d) => String(d.message).includes('fsdp_use_orig_params'))!;
  assert.equal(orig.severity, DiagnosticSeverity.Information);
});

test('FSDP config: CPU-RAM-efficient loading without the broadcast stops accelerate launch, also by its default', async () => {
  const text = fsdp2.replace('  fsdp_offload_params: false\n', '  fsdp_sync_module_states: false\n');
  const { document, diagnostics } = await check(text);
  const found = diagnostics.filter((d) => d.code === 'fsdp-ram-efficient-loading-without-sync');
  assert.equal(found.length, 1);
  assert.match(String(found[0].codeDescription?.href), /utils\/launch\.py#L306-L307$/);
  assert.equal(fixed(document, found, 'fsdp-ram-efficient-loading-without-sync'), text.replace('fsdp_sync_module_states: false', 'fsdp_sync_module_states: true'));
  const byDefault = await check(text.replace('  fsdp_cpu_ram_efficient_loading: true\n', ''));
  assert.ok(byDefault.diagnostics.some((d) => d.code === 'fsdp-ram-efficient-loading-without-sync'));
  const off = await check(text.replace('fsdp_cpu_ram_efficient_loading: true', 'fsdp_cpu_ram_efficient_loading: false'));
  assert.ok(!off.diagnostics.some((d) => d.code === 'fsdp-ram-efficient-loading-without-sync'));
});

test('FSDP config: min_num_params written as 1e8 fails int() when size-based wrapping reads it', async () => {
  const text = fsdp2.replace('TRANSFORMER_BASED_WRAP\n  fsdp_transformer_layer_cls_to_wrap: Qwen2DecoderLayer', 'SIZE_BASED_WRAP\n  fsdp_min_num_params: 1e8');
  const { document, diagnostics } = await check(text);
  assert.deepEqual(codes(diagnostics), ['fsdp-invalid-value']);
  assert.equal(fixed(document, diagnostics, 'fsdp-invalid-value'), text.replace('1e8', '100000000'));
});

test('FSDP config: offload with NO_SHARD is a warning; a deepspeed_config beside FSDP is not used', async () => {
  const noShard = 'distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: NO_SHARD\n  fsdp_offload_params: true\nnum_processes: 2\n';
  assert.deepEqual(codes((await check(noShard)).diagnostics), ['fsdp-offload-without-sharding']);
  const both = `${fsdp2}deepspeed_config:\n  zero_stage: 3\n`;
  const { document, diagnostics } = await check(both);
  assert.deepEqual(codes(diagnostics), ['fsdp-section-ignored']);
  assert.equal(fixed(document, diagnostics, 'fsdp-section-ignored', 'Remove `deepspeed_config`'), fsdp2);
  assert.equal(fixed(document, diagnostics, 'fsdp-section-ignored', 'Set `distributed_type` to DEEPSPEED'), both.replace('distributed_type: FSDP', 'distributed_type: DEEPSPEED'));
});

test('FSDP config: parallelism_config sizes must multiply to num_processes', async () => {
  const text = `${fsdp2}parallelism_config:\n  parallelism_config_dp_shard_size: 2\n  parallelism_config_tp_size: 2\n`;
  const { diagnostics } = await check(text);
  assert.deepEqual(codes(diagnostics), ['parallel-sizes-gpu-mismatch']);
  assert.match(String(diagnostics[0].message), /multiply to 4 .* `num_processes` is 8/);
  assert.deepEqual(codes((await check(text.replace('dp_shard_size: 2', 'dp_shard_size: 4'))).diagnostics), []);
});

test('FSDP config: messages in Chinese for a Chinese reader', async () => {
  const { ls } = service();
  const diagnostics = await ls.doValidation(doc('fsdp.yaml', fsdp2.replace('fsdp_offload_params', 'fsdp_offload_param')), settings({ language: 'zh-cn' }));
  assert.match(String(diagnostics[0].message), /忽略/);
});

test('FSDP config: an accelerate config written as JSON is read too', async () => {
  const json = JSON.stringify({ distributed_type: 'FSDP', fsdp_config: { fsdp_version: 2, fsdp_reshard_after_forward: 'FULL_SHARD' }, num_processes: 2 }, null, 2);
  const { ls } = service();
  const document = doc('fsdp2.json', json, 'json');
  assert.equal(ls.classify(document, settings()), 'launch-yaml');
  assert.deepEqual(codes(await ls.doValidation(document, settings())), ['fsdp-invalid-value']);
});

const at = (line: number, character: number) => ({ line, character });
const markdown = (value: unknown) => (value && typeof value === 'object' && 'value' in value ? String((value as { value: string }).value) : String(value));

test('FSDP config: completion of fsdp_config keys (those not written yet) and of their values', async () => {
  const { ls } = service();
  const text = 'distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\n  fsdp_\n';
  const keys = await ls.doComplete(doc('fsdp.yaml', text), at(3, 7), settings());
  const labels = keys.items.map((i) => i.label);
  assert.ok(labels.includes('fsdp_offload_params') && labels.includes('fsdp_reshard_after_forward'));
  assert.ok(!labels.includes('fsdp_version'), 'already written');
  const resolved = await ls.resolveCompletion(doc('fsdp.yaml', text), keys.items.find((i) => i.label === 'fsdp_offload_params')!, settings());
  assert.match(markdown(resolved.documentation), /CPU RAM/);
  const values = await ls.doComplete(doc('fsdp.yaml', 'distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: \n'), at(2, 26), settings());
  assert.deepEqual(values.items.map((i) => i.label), ['FULL_SHARD', 'SHARD_GRAD_OP', 'NO_SHARD', 'HYBRID_SHARD', 'HYBRID_SHARD_ZERO2']);
  const types = await ls.doComplete(doc('fsdp.yaml', 'distributed_type: \nfsdp_config:\n  fsdp_version: 2\n'), at(0, 18), settings());
  assert.deepEqual(types.items.map((i) => i.label), ['DEEPSPEED', 'FSDP']);
});

test('FSDP config: hover on a key gives its documentation, version, default and the line that reads it, in the reader\'s language', async () => {
  const { ls } = service();
  const hover = await ls.doHover(doc('fsdp.yaml', fsdp2), at(8, 5), settings());
  const value = markdown(hover?.contents);
  assert.match(value, /\*\*fsdp_reshard_after_forward\*\*/);
  assert.match(value, /FSDP2/);
  assert.match(value, /huggingface\.co\/docs\/accelerate/);
  assert.match(value, /github\.com\/huggingface\/accelerate\/blob\/16cb6eb8/);
  const zh = await ls.doHover(doc('fsdp.yaml', fsdp2), at(8, 5), settings({ language: 'zh-cn' }));
  assert.match(markdown(zh?.contents), /前向/);
});

test('FSDP config without a model: the hover on distributed_type marks no ZeRO stage as this run and says the run uses FSDP', async () => {
  const { ls } = service();
  const hover = markdown((await ls.doHover(doc('fsdp.yaml', fsdp2), at(1, 20), settings()))?.contents);
  assert.match(hover, /^\*\*ZeRO stages\*\* \(for comparison: this run uses PyTorch FSDP\)/);
  assert.doesNotMatch(hover, /▶/);
  assert.match(hover, /No memory estimate yet/);
  const zh = markdown((await ls.doHover(doc('fsdp.yaml', fsdp2), at(1, 20), settings({ language: 'zh-cn' })))?.contents);
  assert.match(zh, /仅供对比：本次运行使用 PyTorch FSDP/);
  // Under DeepSpeed the stage written is this run's.
  const deepspeed = markdown((await ls.doHover(doc('ds.yaml', 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\nnum_processes: 2\n'), at(2, 14), settings()))?.contents);
  assert.match(deepspeed, /\*\*ZeRO stages\*\*\n/);
  assert.match(deepspeed, /\| ▶ \| ZeRO-2 \|/);
});
