/**
 * Reproductions of the problems users met that ZeRO Lens used to miss (issue 25), one folder each under
 * test/fixtures/issue25: each gets the diagnostic that says what fails, at the file that should change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings, type ZeroLensSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

const root = path.resolve(__dirname, '../fixtures/issue25');

interface Expectation {
  file: string;
  code: string;
  severity: 1 | 2;
  /** The text the diagnostic points at. */
  at?: string;
  settings?: Partial<ZeroLensSettings>;
}

const expected: Record<string, Expectation> = {
  // The HF Trainer refuses a config whose fp16.enabled disagrees with --fp16 (transformers trainer_config_process).
  'fp16-vs-bf16': { file: 'train.sh', code: 'hf-trainer-config-mismatch', severity: 1, at: 'ds_config.json' },
  // accelerate's YAML and the script disagree on gradient accumulation: the Trainer refuses the mismatch.
  'accelerate-yaml-accumulation': { file: 'train.sh', code: 'hf-trainer-config-mismatch', severity: 1, at: '8' },
  // NVMe offload without a path in accelerate's YAML: the swap goes to a folder named "none".
  'accelerate-nvme-path': { file: 'accelerate.yaml', code: 'accelerate-nvme-without-path', severity: 2, at: 'nvme' },
  // An MoE model whose block is not a default ZeRO-3 leaf module, under the HF Trainer: it hangs.
  'moe-leaf': { file: 'ds_config.json', code: 'moe-without-leaf-module', severity: 2, at: '3' },
  // "auto" handed to plain deepspeed.initialize: nothing fills it.
  'auto-plain-deepspeed': { file: 'ds_config.json', code: 'auto-not-filled', severity: 1, at: '"auto"' },
  // ZeRO-3 through the Trainer without gathering the 16-bit weights: no usable model file is saved.
  'zero3-save': { file: 'ds_config.json', code: 'zero3-save-without-gather', severity: 2 },
  // LLaMA-Factory refuses use_unsloth with ZeRO-3 (hparams/parser.py:532-533).
  'llamafactory-zero3': { file: 'train.yaml', code: 'llamafactory-zero3-incompatible', severity: 1, at: 'use_unsloth: true' },
  // A plain script's own optimizer with ZeRO-Offload (engine.py:2040-2044).
  'client-optimizer-offload': { file: 'ds_config.json', code: 'client-optimizer-with-offload', severity: 2, at: '"offload_optimizer"' },
  // A 72B model with everything offloaded needs more host memory than a 256 GiB node has.
  'host-ram': { file: 'train.sh', code: 'estimate-exceeds-cpu-memory', severity: 2, at: 'ds_config.json', settings: { cpuMemoryGiB: 256 } },
  // Elasticity incompatible with the 128 GPUs the script starts (elasticity.py:352).
  'elasticity-world': { file: 'ds_config.json', code: 'elasticity-invalid', severity: 1, at: '"enabled"' },
  // Apex AMP with a 16-bit grad_accum_dtype (engine.py:2000).
  'amp-grad-accum': { file: 'ds_config.json', code: 'amp-grad-accum-dtype', severity: 1, at: '"bf16"' },
  // loss_scale_window as a bool, fp16 off (precision_config.py:173).
  'loss-scale-bool': { file: 'ds_config.json', code: 'boolean-as-integer', severity: 1, at: 'true' },
  // An odd allgather_bucket_size at ZeRO-2 (stage_1_and_2.py:349).
  'allgather-odd': { file: 'ds_config.json', code: 'allgather-bucket-size-odd', severity: 1, at: '1001' },
  // NaN is a value Python reads, which DeepSpeed refuses for min_loss_scale (precision_config.py:175).
  'infinity-nan': { file: 'ds_config.json', code: 'non-finite-number', severity: 1, at: 'NaN' },
  // train_batch_size 32 = 4 × 4 × 4 GPUs is false: 64.
  'batch-gpus': { file: 'ds_config.json', code: 'batch-size-mismatch', severity: 1, at: '"train_batch_size"' },
};

function languageOf(file: string): string {
  return file.endsWith('.sh') ? 'shellscript' : file.endsWith('.yaml') ? 'yaml' : 'ds-config';
}

for (const folder of readdirSync(root).filter((f) => expected[f])) {
  test(`issue 25 reproduction ${folder}: ${expected[folder].code}`, async () => {
    const files = Object.fromEntries(readdirSync(path.join(root, folder)).map((f) => [f, readFileSync(path.join(root, folder, f), 'utf8')]));
    const want = expected[folder];
    const service = getLanguageService(memoryHosts(files));
    const document = TextDocument.create(URI.file(path.join(workspaceRoot, want.file)).toString(), languageOf(want.file), 1, files[want.file]);
    const diagnostics = await service.doValidation(document, { ...defaultSettings, ...want.settings });
    const found = diagnostics.find((d) => d.code === want.code);
    assert.ok(found, `${want.code} not among ${JSON.stringify(diagnostics.map((d) => d.code))}`);
    assert.equal(found.severity, want.severity, String(found.message));
    if (want.at) assert.equal(document.getText(found.range), want.at);
  });
}

test('issue 25 reproduction invalid-stage-estimate: no estimate beside accelerate zero_stage: 4', async () => {
  const folder = path.join(root, 'invalid-stage-estimate');
  const files = Object.fromEntries(readdirSync(folder).map((f) => [f, readFileSync(path.join(folder, f), 'utf8')]));
  const service = getLanguageService(memoryHosts(files));
  const script = TextDocument.create(URI.file(path.join(workspaceRoot, 'train.sh')).toString(), 'shellscript', 1, files['train.sh']);
  assert.deepEqual(await service.getInlayHints(script, { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } }, { ...defaultSettings, gpuMemoryGiB: 10 }), []);
});
