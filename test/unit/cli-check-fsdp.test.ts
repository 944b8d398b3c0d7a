/** `zero-lens check` over FSDP and model-parallel launch files: an accelerate FSDP YAML and a `megatron sft` script. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from './cli-helpers';

test('check reads an accelerate FSDP YAML and a megatron sft script in a folder, found by content', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-check-fsdp-'));
  writeFileSync(path.join(dir, 'fsdp.yaml'), 'distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\n  fsdp_reshard_after_forward: FULL_SHARD\nnum_processes: 2\n');
  writeFileSync(path.join(dir, 'megatron.sh'), 'NPROC_PER_NODE=8 megatron sft --model Qwen/Qwen2.5-7B-Instruct --tensor_model_parallel_size 3\n');
  const r = await runCli(['check', '.', '--format', 'json'], dir);
  assert.equal(r.code, 1, r.err);
  const report = JSON.parse(r.out) as { file: string; diagnostics: { code: string; severity: string; range: { start: { line: number } } }[] }[];
  const byFile = Object.fromEntries(report.map((f) => [f.file, f.diagnostics.map((d) => `${d.severity} ${d.code} ${d.range.start.line}`).sort()]));
  assert.deepEqual(byFile['fsdp.yaml'], ['error fsdp-invalid-value 3']);
  assert.deepEqual(byFile['megatron.sh'], ['error parallel-size-model-mismatch 0', 'error parallel-sizes-gpu-mismatch 0']);
});
