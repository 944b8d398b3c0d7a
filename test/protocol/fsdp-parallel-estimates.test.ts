import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Hover, InlayHint, MarkupContent } from 'vscode-languageserver-types';
import { EstimateViewRequest, type EstimateView } from '../../server/src/protocol';
import { fileUri, startServer, type TestServer } from './lspClient';

/** A server over an empty temporary workspace with the given settings, stopped and the folder removed after `run`. */
async function inWorkspace(settings: Record<string, unknown>, run: (server: TestServer, root: string) => Promise<void>): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-fsdp-')));
  const server = await startServer({ rootPath: root, settings });
  try {
    await run(server, root);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

const fsdpYaml = [
  'compute_environment: LOCAL_MACHINE',
  'distributed_type: FSDP',
  'fsdp_config:',
  '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP',
  '  fsdp_sharding_strategy: FULL_SHARD',
  '  fsdp_offload_params: false',
  'mixed_precision: bf16',
  'num_machines: 1',
  'num_processes: 8',
  '',
].join('\n');

test('an accelerate FSDP YAML: the hover on distributed_type shows the FSDP rows (this run current) beside the ZeRO rows', async () => {
  await inWorkspace({ gpuMemoryGiB: 80, model: 'Qwen/Qwen3-8B' }, async (server, root) => {
    const uri = fileUri(path.join(root, 'fsdp_config.yaml'));
    await server.open(uri, 'yaml', fsdpYaml);
    const line = fsdpYaml.split('\n').findIndex((l) => l.startsWith('distributed_type'));
    const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line, character: 20 } });
    const markdown = (hover!.contents as MarkupContent).value;
    assert.match(markdown, /\*\*ZeRO options for Qwen3-8B\*\* on 8 GPUs/);
    assert.match(markdown, /\*\*This run and FSDP for the same job\*\*/);
    const rows = markdown.split('\n').filter((l) => l.startsWith('| '));
    const fullShard = rows.find((r) => r.includes('FSDP FULL_SHARD') && !r.includes('offload'));
    assert.ok(fullShard?.startsWith('| ▶ |'), `the run's own row is current: ${fullShard}`);
    assert.ok(rows.some((r) => /^\|\s+\| ZeRO-3 \|/.test(r)), 'ZeRO-3 is a comparison row, not current');
    assert.ok(!rows.some((r) => r.startsWith('| ▶ | **ZeRO')), 'no ZeRO row is current');
    assert.match(markdown, /ZeRO-3 ≈ [\d.]+ GiB\/GPU, FSDP FULL_SHARD ≈ [\d.]+ GiB\/GPU\./);

    const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 10, character: 0 } } });
    // After `distributed_type: FSDP` the hint does not say FSDP again.
    assert.ok(hints.some((h) => String(h.label).startsWith('FULL_SHARD ≈ ')), JSON.stringify(hints.map((h) => h.label)));

    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
    assert.equal(view!.current, null);
    assert.equal(view!.options.length, 8);
    const current = view!.alternatives!.filter((a) => a.current);
    assert.deepEqual(current.map((a) => a.label), ['FSDP FULL_SHARD']);
    assert.ok(view!.alternatives!.some((a) => a.label === 'FSDP FULL_SHARD + CPU offload' && a.result.perCpu.total > 0));
  });
});

test('an ms-swift `megatron sft` script gets a per-GPU estimate for its TP/PP layout', async () => {
  await inWorkspace({ gpuMemoryGiB: 80 }, async (server, root) => {
    const uri = fileUri(path.join(root, 'megatron.sh'));
    const text = [
      'NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 \\',
      'megatron sft \\',
      '    --model Qwen/Qwen2.5-7B-Instruct \\',
      '    --tensor_model_parallel_size 2 \\',
      '    --sequence_parallel true \\',
      '    --micro_batch_size 1 \\',
      '    --max_length 2048',
      '',
    ].join('\n');
    await server.open(uri, 'shellscript', text);
    const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } } });
    const label = hints.map((h) => String(h.label)).find((l) => l.startsWith('Megatron TP 2 · PP 1 ≈ '));
    assert.ok(label, JSON.stringify(hints.map((h) => h.label)));
    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
    const megatron = view!.alternatives!.find((a) => a.family === 'megatron');
    assert.ok(megatron?.current);
    // Half of the model's bf16 weights per GPU, not all of them.
    assert.ok(megatron!.result.perGpu.params > 6.5e9 && megatron!.result.perGpu.params < 8.5e9, String(megatron!.result.perGpu.params));
    const zero0 = view!.options.find((o) => o.stage === 0)!;
    assert.ok(megatron!.result.perGpu.total < zero0.result.perGpu.total);
  });
});
