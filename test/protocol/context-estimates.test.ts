import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { CodeAction, Diagnostic, Hover, InlayHint, MarkupContent } from 'vscode-languageserver-types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ApplyOptionRequest, describeSource, EstimateViewRequest, type ApplyOptionResult, type EstimateView } from '../../server/src/protocol';
import { poll } from '../e2e/support/poll';
import { fileUri, startServer, type TestServer } from './lspClient';

const fixtures = path.resolve(__dirname, '../fixtures/context');

// A ds_config.json with a swift script that references it, through the real bundled server over stdio.
test('inlay hint, hover table, fit warning, quick fixes and the sidebar requests for a config used by a workspace script', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-context-'));
  const configPath = path.join(root, 'ds_config_zero2.json');
  const text = await readFile(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
  await writeFile(configPath, text);
  await writeFile(path.join(root, 'train_zero2.sh'), await readFile(path.join(fixtures, 'train_zero2.sh'), 'utf8'));
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 40 }, initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = fileUri(configPath);
    // Listen before opening: validation runs right away.
    const fitWarning = server.diagnostics(uri, (d) => d.some((x) => x.code === 'estimate-exceeds-gpu-memory'));
    await server.open(uri, 'json', text);
    const stageLine = text.split('\n').findIndex((l) => l.includes('"stage"'));

    const hints = await server.connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } },
    });
    assert.ok(hints && hints.length === 1, `one hint, got ${JSON.stringify(hints)}`);
    assert.equal(hints[0].position.line, stageLine);
    assert.match(String(hints[0].label), /^≈ \d+\.\d GiB\/GPU \(> 40\.0 GiB\) · Qwen3-8B · 5 GPUs · \d+\.\d allocated, [a-z +()]+$/);

    const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: stageLine, character: 6 } });
    const markdown = (hover?.contents as MarkupContent).value;
    assert.match(markdown, /\*\*ZeRO options for Qwen3-8B\*\* on 5 GPUs/);
    assert.match(markdown, /\| ▶ \| \*\*ZeRO-2\*\* \|/);
    assert.match(markdown, /3Ψ\u00a0\(1\.5×\)/);
    assert.match(markdown, /model Qwen3-8B \(8\.19B params\) _\(train_zero2\.sh line 6\)_/);

    const published = await fitWarning;
    const warning = published.diagnostics.find((d) => d.code === 'estimate-exceeds-gpu-memory')!;
    assert.equal(warning.source, 'zero-lens');
    assert.match(warning.message as string, /^ZeRO-2 needs ≈ \d+\.\d GiB per GPU, \d+\.\d GiB more than the 40\.0 GiB GPU .* Smallest change that fits: /);

    const actions = await server.connection.sendRequest<CodeAction[] | null>('textDocument/codeAction', {
      textDocument: { uri },
      range: warning.range,
      context: { diagnostics: [warning] },
    });
    const ours = (actions ?? []).filter((a) => /^(Switch to ZeRO|Offload)/.test(a.title));
    assert.ok(ours.length >= 4, `stage fixes offered: ${(actions ?? []).map((a) => a.title).join(' | ')}`);
    const toThree = ours.find((a) => a.title.startsWith('Switch to ZeRO-3'))!;
    const document = TextDocument.create(uri, 'json', 1, text);
    assert.equal(TextDocument.applyEdits(document, toThree.edit!.changes![uri]), text.replace('"stage": 2,', '"stage": 3,'));
    assert.equal(ours.filter((a) => a.isPreferred).length, 1);

    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
    assert.equal(view?.kind, 'ds-config');
    assert.equal(view?.options.length, 8);
    assert.deepEqual(view?.context.gpusPerNode, { value: 5, source: { kind: 'script', file: path.join(root, 'train_zero2.sh'), line: 4 } });
    assert.equal(describeSource(view!.context.gpusPerNode!.source), 'train_zero2.sh line 4');
    assert.deepEqual(view?.current, { stage: 2, offloadOptimizer: 'none', offloadParam: 'none' });

    const applied = await server.connection.sendRequest<ApplyOptionResult>(ApplyOptionRequest.method, { uri, stage: 3, offloadOptimizer: 'cpu', offloadParam: 'none' });
    const after = TextDocument.applyEdits(document, applied.edit!.changes![uri]);
    assert.match(after, /"stage": 3, \/\/ fastest that fits\?/);
    assert.match(after, /"offload_optimizer": \{\n {6}"device": "cpu"\n/);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});

/** The label of the first inlay hint in a document's first 20 lines ('' when there is none). */
async function firstHint(server: TestServer, uri: string): Promise<string> {
  const hints = await server.connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } },
  });
  return String(hints?.[0]?.label ?? '');
}

/** The config's inlay hints, asked for again until one satisfies `accept` (the server refreshes on its own time). */
async function hintUntil(server: TestServer, uri: string, accept: (label: string) => boolean): Promise<string> {
  const label = await poll(() => firstHint(server, uri), accept, { timeoutMs: 5000, pauseMs: 50 });
  assert.ok(accept(label), `no matching hint; last: ${label}`);
  return label;
}

/** The fixture config and the script that launches it, written to a new folder. */
async function scriptAndConfig(prefix: string) {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  const configPath = path.join(root, 'ds_config_zero2.json');
  const scriptPath = path.join(root, 'train_zero2.sh');
  const config = await readFile(path.join(fixtures, 'ds_config_zero2.json'), 'utf8');
  const script = await readFile(path.join(fixtures, 'train_zero2.sh'), 'utf8');
  await writeFile(configPath, config);
  await writeFile(scriptPath, script);
  return { root, configPath, scriptPath, config, script, configUri: fileUri(configPath), scriptUri: fileUri(scriptPath) };
}

test('an unsaved edit to the launch script reaches the config it uses, and closing the script unsaved undoes it', async () => {
  const { root, scriptPath, config, script, configUri, scriptUri } = await scriptAndConfig('zero-lens-unsaved-');
  const server = await startServer({ rootPath: root, initializationOptions: { validationDelayMs: 0 } });
  try {
    await server.open(configUri, 'json', config);
    await hintUntil(server, configUri, (label) => label.includes('Qwen3-8B · 5 GPUs'));

    await server.open(scriptUri, 'shellscript', script);
    await server.change(scriptUri, 2, script.replace('Qwen/Qwen3-8B', 'Qwen/Qwen3-14B').replace('NPROC_PER_NODE=5', 'NPROC_PER_NODE=4'));
    assert.match(await hintUntil(server, configUri, (label) => label.includes('Qwen3-14B')), /· Qwen3-14B · 4 GPUs · /);
    assert.equal(await readFile(scriptPath, 'utf8'), script, 'nothing was written to disk');

    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: scriptUri } });
    await hintUntil(server, configUri, (label) => label.includes('Qwen3-8B · 5 GPUs'));
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});

test('an unsaved edit to a config reaches the warnings and hints of the script that launches it, and closing it unsaved undoes it', async () => {
  const { root, configPath, config, script, configUri, scriptUri } = await scriptAndConfig('zero-lens-unsaved-config-');
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 40 }, initializationOptions: { validationDelayMs: 0 } });
  const warningOf = (d: Diagnostic[]) => d.find((x) => x.code === 'estimate-exceeds-gpu-memory')?.message as string | undefined;
  try {
    const saved = server.diagnostics(scriptUri, (d) => !!warningOf(d));
    await server.open(scriptUri, 'shellscript', script);
    const savedWarning = warningOf((await saved).diagnostics)!;
    assert.match(savedWarning, /^Estimated ≈ \d+\.\d GiB per GPU for Qwen3-8B, more than the 40 GiB GPU/);
    const savedHint = await firstHint(server, scriptUri);
    assert.match(savedHint, /GiB\/GPU/);

    await server.open(configUri, 'json', config);
    // Published without the script being touched: the server checked it again because the config changed.
    const edited = server.diagnostics(scriptUri, (d) => warningOf(d) !== savedWarning);
    const stageThree = config.replace('"stage": 2,', '"stage": 3, "offload_optimizer": { "device": "cpu" }, "offload_param": { "device": "cpu" },');
    await server.change(configUri, 2, stageThree);
    const editedWarning = warningOf((await edited).diagnostics);
    assert.notEqual(editedWarning, savedWarning, 'the warning follows the unsaved config');
    assert.notEqual(await firstHint(server, scriptUri), savedHint, 'so does the hint');
    assert.equal(await readFile(configPath, 'utf8'), config, 'nothing was written to disk');

    // Closed without saving: the script is checked against the config on disk again.
    const reverted = server.diagnostics(scriptUri, (d) => warningOf(d) === savedWarning);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: configUri } });
    await reverted;
    assert.equal(await firstHint(server, scriptUri), savedHint);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});

test('gradient accumulation from the script changes the CPU figure of ZeRO-2 optimizer offload', async () => {
  const { root, configPath, script, configUri, scriptUri } = await scriptAndConfig('zero-lens-grad-accum-');
  const config = (await readFile(configPath, 'utf8')).replace('"stage": 2,', '"stage": 2, "offload_optimizer": { "device": "cpu" },');
  await writeFile(configPath, config);
  const server = await startServer({ rootPath: root, initializationOptions: { validationDelayMs: 0 } });
  const cpuOf = async () => {
    const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri: configUri });
    return view?.options.find((o) => o.stage === 2 && o.offloadOptimizer === 'cpu')?.result.perCpu;
  };
  try {
    await server.open(configUri, 'json', config);
    // "gradient_accumulation_steps": "auto" and swift sft without the flag: ms-swift's ⌈16 ÷ 2 ÷ 5⌉ = 2 steps.
    const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri: configUri }, position: { line: config.split('\n').findIndex((l) => l.includes('"stage"')), character: 6 } });
    assert.match((hover?.contents as MarkupContent).value, /gradient accumulation 2 _\(ms-swift default ⌈16 ÷ 2 ÷ 5 GPUs⌉ \(train_zero2\.sh\)\)_/);
    // Qwen3-8B, P = 8,190,735,360 over 5 ranks of one node (per node: P elements). bf16 params 2P + fp32 gradient
    // copy 4P + bf16 accumulation buffer 2P + master and Adam 12P = 20P = 163,814,707,200 bytes, + each rank's bf16
    // offload temp buffer of the embedding (temp_grad_buffer_for_cpu_offload), 5 · 2 · 622,329,856 = 6,223,298,560:
    // 170,038,005,760, pinned. Saving adds the 16-bit model (2P = 16,381,470,720) in rank 0's pageable memory: the
    // node's peak, 186,419,476,480.
    assert.deepEqual(await cpuOf(), { params: 16_381_470_720, gradients: 55_367_710_720, optimizerStates: 98_288_824_320, total: 186_419_476_480, pinned: 170_038_005_760, peakPhase: 'checkpoint-save' });

    // One step per optimizer step: no accumulation buffer, 18P = 147,433,236,480 + 6,223,298,560 = 153,656,535,040.
    await server.open(scriptUri, 'shellscript', script);
    await server.change(scriptUri, 2, script.replace('--max_length 4096', '--max_length 4096 \\\n    --gradient_accumulation_steps 1'));
    const single = await poll(cpuOf, (c) => c?.total !== 186_419_476_480, { timeoutMs: 5000, pauseMs: 50 });
    assert.deepEqual(single, { params: 16_381_470_720, gradients: 38_986_240_000, optimizerStates: 98_288_824_320, total: 153_656_535_040 + 16_381_470_720, pinned: 153_656_535_040, peakPhase: 'checkpoint-save' });
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});

// A config without zero_optimization that an ms-swift script uses: accelerate's DeepSpeedPlugin refuses it.
// The config gets the error (naming the script) and a fix that keeps its comment; the script, one at its value.
test('a config without zero_optimization used by swift sft: errors on the config and at --deepspeed, the stage 0 fix', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'zero-lens-zero-section-'));
  const configPath = path.join(root, 'ds_config.json');
  const text = '{\n  // no ZeRO section\n  "train_batch_size": "auto"\n}\n';
  await writeFile(configPath, text);
  const script = 'NPROC_PER_NODE=2 swift sft --model Qwen/Qwen3-8B --deepspeed ds_config.json\n';
  await writeFile(path.join(root, 'train.sh'), script);
  const server = await startServer({ rootPath: root, initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = fileUri(configPath);
    const published = server.diagnostics(uri, (d) => d.some((x) => x.code === 'zero-optimization-required'));
    await server.open(uri, 'json', text);
    const error = (await published).diagnostics.find((d) => d.code === 'zero-optimization-required')!;
    assert.equal(error.severity, 1);
    assert.equal(error.range.start.line, 2);
    assert.match(String(error.message), /train\.sh line 1 trains with it: ms-swift hands it to accelerate/);
    const actions = await server.connection.sendRequest<CodeAction[] | null>('textDocument/codeAction', { textDocument: { uri }, range: error.range, context: { diagnostics: [error] } });
    const add = (actions ?? []).find((a) => a.title === 'Add "zero_optimization": { "stage": 0 }');
    assert.ok(add?.isPreferred, (actions ?? []).map((a) => a.title).join(' | '));
    const document = TextDocument.create(uri, 'json', 1, text);
    assert.equal(TextDocument.applyEdits(document, add.edit!.changes![uri]), '{\n  // no ZeRO section\n  "train_batch_size": "auto",\n  "zero_optimization": {\n    "stage": 0\n  }\n}\n');

    const scriptUri = fileUri(path.join(root, 'train.sh'));
    const scriptDiagnostics = server.diagnostics(scriptUri, (d) => d.length > 0);
    await server.open(scriptUri, 'shellscript', script);
    assert.deepEqual((await scriptDiagnostics).diagnostics.map((d: Diagnostic) => [d.code, d.range.start.character]), [['zero-optimization-required', script.indexOf('ds_config.json')]]);
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
});
