/**
 * Diagnostics whose truth changed between DeepSpeed releases follow the release the workspace runs
 * (zeroLens.deepspeedVersion or a pin): each checked under the release before the change and the one that made it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

async function validate(name: string, text: string, deepspeedVersion?: string, files: Record<string, string> = {}): Promise<Diagnostic[]> {
  const service = getLanguageService(memoryHosts({ [name]: text, ...files }));
  const languageId = name.endsWith('.sh') ? 'shellscript' : 'ds-config';
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, name)).toString(), languageId, 1, text);
  return service.doValidation(document, { ...defaultSettings, deepspeedVersion });
}

const config = (value: Record<string, unknown>) => JSON.stringify({ train_micro_batch_size_per_gpu: 1, ...value }, null, 2);
const severityOf = async (code: string, text: string, deepspeedVersion?: string, files?: Record<string, string>) =>
  (await validate('ds_config.json', text, deepspeedVersion, files)).find((d) => d.code === code)?.severity;

test('steps_per_print defaults to None from DeepSpeed 0.15.2 on (#6602): before, pipeline timers had 10', async () => {
  const text = config({ pipeline: { activation_checkpoint_interval: 1 }, wall_clock_breakdown: true });
  assert.equal(await severityOf('pipeline-timers-without-steps-per-print', text, '0.15.1'), undefined);
  assert.equal(await severityOf('pipeline-timers-without-steps-per-print', text, '0.15.2'), DiagnosticSeverity.Warning);
  // The workspace's pin decides as the setting does.
  assert.equal(await severityOf('pipeline-timers-without-steps-per-print', text, undefined, { 'requirements.txt': 'deepspeed==0.14.4\n' }), undefined);
  assert.equal(await severityOf('pipeline-timers-without-steps-per-print', text, undefined, { 'requirements.txt': 'deepspeed==0.16.0\n' }), DiagnosticSeverity.Warning);
  // Written as null it fails under any release; unknown, the schema's release holds.
  assert.equal(await severityOf('pipeline-timers-without-steps-per-print', config({ pipeline: {}, wall_clock_breakdown: true, steps_per_print: null }), '0.15.1'), DiagnosticSeverity.Warning);
  assert.equal(await severityOf('pipeline-timers-without-steps-per-print', text), DiagnosticSeverity.Warning);
});

test('a bool loss_scale_window is refused from 0.19.3 on (#8050); before, pydantic read it as 1', async () => {
  const text = config({ fp16: { enabled: true, loss_scale_window: true } });
  const under = async (version: string) => (await validate('ds_config.json', text, version)).find((d) => d.code === 'boolean-as-integer');
  assert.equal((await under('0.19.3'))?.severity, DiagnosticSeverity.Error);
  const before = await under('0.19.2');
  assert.equal(before?.severity, DiagnosticSeverity.Warning);
  assert.match(String(before?.message), /reads it as 1/);
});

test("a fractional warmup_num_steps is refused from 0.19.3 on (#8126); before, WarmupLR took the float", async () => {
  const text = config({ scheduler: { type: 'WarmupLR', params: { warmup_num_steps: 100.5 } } });
  assert.equal(await severityOf('integer-fraction', text, '0.19.3'), DiagnosticSeverity.Error);
  assert.equal(await severityOf('integer-fraction', text, '0.19.2'), DiagnosticSeverity.Warning);
});

test('a fractional lr_range_test_step_size is refused from 0.19.4 on (#8166); before, LRRangeTest took the float', async () => {
  const text = config({ scheduler: { type: 'LRRangeTest', params: { lr_range_test_step_size: 10.5 } } });
  assert.equal(await severityOf('integer-fraction', text, '0.19.4'), DiagnosticSeverity.Error);
  assert.equal(await severityOf('integer-fraction', text, '0.19.3'), DiagnosticSeverity.Warning);
  assert.equal(await severityOf('integer-fraction', text), DiagnosticSeverity.Error);
});

test('keys a release does not have are ignored by it: param_dtype (0.19.2), managed_gradient_accumulation (0.19.4), gradient_allreduce_op (0.19.6)', async () => {
  const dtype = config({ bf16: { enabled: true }, data_types: { param_dtype: 'fp16' } });
  assert.equal(await severityOf('param-dtype-mismatch', dtype, '0.19.1'), undefined);
  assert.equal(await severityOf('param-dtype-mismatch', dtype, '0.19.2'), DiagnosticSeverity.Error);
  const managed = config({ managed_gradient_accumulation: false, amp: { enabled: true } });
  assert.equal(await severityOf('unmanaged-grad-accumulation-conflict', managed, '0.19.3'), undefined);
  assert.equal(await severityOf('unmanaged-grad-accumulation-conflict', managed, '0.19.4'), DiagnosticSeverity.Error);
  const op = config({ gradient_allreduce_op: 'avg' });
  assert.equal(await severityOf('allreduce-op-invalid', op, '0.19.5'), undefined);
  assert.equal(await severityOf('allreduce-op-invalid', op, '0.19.6'), DiagnosticSeverity.Error);
});

test("gradient_clipping's default decides the Trainer's clipping where the config leaves it out: 0 before 0.19.3, 1.0 from then on (#8068)", async () => {
  const files = { 'ds_config.json': config({ train_micro_batch_size_per_gpu: 'auto', zero_optimization: { stage: 2 } }) };
  const script = (norm: string) => `torchrun --nproc_per_node 2 train.py --max_grad_norm ${norm} --deepspeed ds_config.json\n`;
  const warning = async (norm: string, version?: string) => {
    const found = (await validate('train.sh', script(norm), version, files)).filter((d) => d.code === 'max-grad-norm-not-applied');
    assert.ok(found.length <= 1);
    return found[0];
  };
  const old = await warning('1.0', '0.19.2');
  assert.equal(old?.severity, DiagnosticSeverity.Warning);
  assert.match(String(old?.message), /--max_grad_norm is 1, but the DeepSpeed config has no "gradient_clipping": .* no clipping in DeepSpeed 0\.19\.2 \(zeroLens\.deepspeedVersion\)/);
  assert.equal(await warning('1.0', '0.19.3'), undefined);
  assert.match(String((await warning('0', '0.19.3'))?.message), /clipping at 1 in DeepSpeed 0\.19\.3/);
  assert.equal(await warning('0', '0.19.2'), undefined);
  // The release unknown: only a value neither default is.
  assert.equal(await warning('1.0'), undefined);
  assert.match(String((await warning('0.5'))?.message), /clipping at 1 from DeepSpeed 0\.19\.3 on \(#8068\), no clipping before/);
  // A config that sets it (or "auto") clips as it says.
  const set = { 'ds_config.json': config({ gradient_clipping: 'auto', zero_optimization: { stage: 2 } }) };
  assert.deepEqual((await validate('train.sh', script('1.0'), '0.19.2', set)).filter((d) => d.code === 'max-grad-norm-not-applied'), []);
});
