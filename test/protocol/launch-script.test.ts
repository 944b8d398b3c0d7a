import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodeAction, CompletionItem, CompletionList, Diagnostic, DocumentLink, Hover, InlayHint, MarkupContent } from 'vscode-languageserver-types';
import { fileUri, inEmptyWorkspace, openedDiagnostics, quickFixes, startServer, type TestServer } from './lspClient';

/** The label of the first inlay hint on a one-line script (the estimate after its DeepSpeed value). */
async function firstLineHint(server: TestServer, uri: string): Promise<InlayHint['label'] | undefined> {
  const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
  });
  return hints[0]?.label;
}

// An ms-swift launch script through the real bundled server over stdio: diagnostics with fixes,
// preset completion with estimates, hover, inlay hint and a link to the JSON config.
test('launch script over stdio: diagnostics, quick fix, completion, hover, inlay hint, document link', async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-launch-')));
  mkdirSync(path.join(root, 'configs'));
  mkdirSync(path.join(root, 'scripts'));
  writeFileSync(path.join(root, 'configs/ds_config_zero2.json'), '{ "zero_optimization": { "stage": 2 } }\n');
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 80 } });
  try {
    const uri = fileUri(path.join(root, 'scripts/train.sh'));
    const text = [
      'NPROC_PER_NODE=4 \\',
      'CUDA_VISIBLE_DEVICES=0,1,2,3 \\',
      'swift sft \\',
      '    --model Qwen/Qwen3-8B \\',
      '    --train_type full \\',
      '    --torch_dtype bfloat16 \\',
      '    --deepspeed zero2',
      'swift sft --model Qwen/Qwen3-8B --deepspeed ../configs/ds_config_zero2.json',
      '',
    ].join('\n');
    const published = server.diagnostics(uri, (d) => d.length > 0);
    await server.open(uri, 'shellscript', text);
    const { diagnostics } = await published;
    assert.deepEqual(diagnostics.map((d: Diagnostic) => d.code), ['train-type-renamed']);
    assert.equal(diagnostics[0].source, 'zero-lens');

    const actions = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0].range,
      context: { diagnostics },
    });
    const rename = actions.find((a) => a.title === 'Rename to --tuner_type');
    assert.deepEqual(rename?.edit?.changes?.[uri], [{ range: { start: { line: 4, character: 4 }, end: { line: 4, character: 16 } }, newText: '--tuner_type' }]);

    const completion = await server.connection.sendRequest<CompletionList | CompletionItem[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 6, character: 18 },
    });
    const items = Array.isArray(completion) ? completion : completion.items;
    assert.deepEqual(items.slice(0, 6).map((i) => i.label), ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload']);
    assert.match(String(items[4].detail), /^≈ \d+\.\d GiB\/GPU · /);
    // A path typed without ./ or ../ ("ze") is completed from the workspace root, as ms-swift's examples write them.
    assert.ok(items.some((i) => i.label === 'configs/ds_config_zero2.json'), items.map((i) => i.label).join());

    const hover = await server.connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 6, character: 18 } });
    assert.match((hover.contents as MarkupContent).value, /ms-swift preset `zero2`/);
    assert.match((hover.contents as MarkupContent).value, /ZeRO options for Qwen3-8B/);

    const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } },
    });
    assert.match(String(hints[0]?.label), /^≈ \d+\.\d GiB\/GPU · Qwen3-8B · 4 GPUs · \d+\.\d allocated, [a-z +()]+$/);
    assert.deepEqual(hints[0].position, { line: 6, character: 21 });

    const links = await server.connection.sendRequest<DocumentLink[]>('textDocument/documentLink', { textDocument: { uri } });
    assert.deepEqual(links.map((l) => l.target), [fileUri(path.join(root, 'configs/ds_config_zero2.json'))]);
    // Links come with their target, so the server offers no documentLink/resolve (it has no handler for it).
    assert.equal(server.capabilities.documentLinkProvider?.resolveProvider, false);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

// `swift sft config.yaml`: the server reads the YAML from disk for the device check and the estimate.
test('launch script naming a ms-swift config file over stdio: its deepspeed: and ENV: count', async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-launch-yaml-')));
  const yaml = 'model: Qwen/Qwen3-8B\ntorch_dtype: bfloat16\nmax_length: 2048\ndeepspeed: zero2\nENV:\n  NPROC_PER_NODE: 4\n';
  writeFileSync(path.join(root, 'sft.yaml'), yaml);
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 80 } });
  try {
    const uri = fileUri(path.join(root, 'train.sh'));
    const text = 'CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 swift sft sft.yaml\n';
    const published = server.diagnostics(uri, (d) => d.length > 0);
    await server.open(uri, 'shellscript', text);
    const { diagnostics } = await published;
    assert.deepEqual(diagnostics.map((d: Diagnostic) => d.code), ['nproc-visible-devices-mismatch']);
    assert.match(String(diagnostics[0].message), /^CUDA_VISIBLE_DEVICES lists 8 GPUs for 4 processes per node \(ENV\.NPROC_PER_NODE in sft\.yaml\)/);
    assert.match(String(await firstLineHint(server, uri)), /^≈ \d+\.\d GiB\/GPU · Qwen3-8B · 4 GPUs · \d+\.\d allocated, [a-z +()]+$/);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

// ms-swift repairs single-quoted inline JSON: a warning whose fix (carried in the diagnostic's data)
// survives the round trip through the client, and the repaired config still gives the estimate.
test('ms-swift inline JSON with single quotes over stdio: warning, quick fix, estimate', async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-launch-')));
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 80 } });
  try {
    const uri = fileUri(path.join(root, 'train.sh'));
    const text = `NPROC_PER_NODE=4 swift sft --model Qwen/Qwen3-8B --tuner_type full --deepspeed "{'zero_optimization': {'stage': 3}}"\n`;
    const published = server.diagnostics(uri, (d) => d.length > 0);
    await server.open(uri, 'shellscript', text);
    const { diagnostics } = await published;
    assert.deepEqual(diagnostics.map((d: Diagnostic) => [d.code, d.severity]), [['inline-deepspeed-json-repaired', 2]]);

    const rewrite = (await quickFixes(server, uri, diagnostics[0])).find((a) => a.title === 'Rewrite as valid JSON');
    assert.equal(rewrite?.isPreferred, true);
    assert.deepEqual(rewrite?.edit?.changes?.[uri]?.map((e) => e.newText), [`'{"zero_optimization": {"stage": 3}}'`]);

    assert.match(String(await firstLineHint(server, uri)), /^≈ \d+\.\d GiB\/GPU · Qwen3-8B · 4 GPUs · \d+\.\d allocated, [a-z +()]+$/);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

// ms-swift rlhf --teacher_deepspeed (GKD): checked, completed, hovered and linked like --deepspeed over stdio,
// a teacher below ZeRO-3 noted, while the inlay hints stay on --deepspeed (the teacher is not the trained model).
test('GKD --teacher_deepspeed over stdio: did-you-mean fix, stage note, preset completion, hover, link; estimates stay on --deepspeed', async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-launch-teacher-')));
  mkdirSync(path.join(root, 'configs'));
  mkdirSync(path.join(root, 'scripts'));
  writeFileSync(path.join(root, 'configs/teacher_zero3.json'), '{ "zero_optimization": { "stage": 3 } }\n');
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 80 } });
  try {
    const uri = fileUri(path.join(root, 'scripts/gkd.sh'));
    const gkd = 'NPROC_PER_NODE=4 swift rlhf --rlhf_type gkd --model Qwen/Qwen3-8B --teacher_model Qwen/Qwen3-32B --tuner_type full --deepspeed zero3';
    const text = [`${gkd} --teacher_deepspeed zero3-offload`, `${gkd} --teacher_deepspeed ../configs/teacher_zero3.json`, `${gkd} --teacher_deepspeed zero2`, ''].join('\n');
    const value = gkd.length + ' --teacher_deepspeed '.length;
    const published = server.diagnostics(uri, (d) => d.length > 0);
    await server.open(uri, 'shellscript', text);
    const { diagnostics } = await published;
    // Below ZeRO-3 the teacher is a whole 16-bit Qwen3-32B on every GPU: with the trained 8B that exceeds 80 GiB.
    assert.deepEqual(diagnostics.map((d: Diagnostic) => [d.code, d.severity, d.range.start.line, d.range.start.character]), [
      ['unknown-deepspeed-preset', 1, 0, value],
      ['teacher-deepspeed-not-zero3', 3, 2, value],
      ['estimate-exceeds-gpu-memory', 2, 2, gkd.length - 'zero3'.length],
    ]);
    const change = (await quickFixes(server, uri, diagnostics[0])).find((a) => a.title === "Change to 'zero3_offload'");
    assert.deepEqual(change?.edit?.changes?.[uri]?.map((e) => e.newText), ['zero3_offload']);

    const completion = await server.connection.sendRequest<CompletionList | CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: { line: 0, character: value } });
    const items = Array.isArray(completion) ? completion : completion.items;
    assert.deepEqual(items.slice(0, 6).map((i) => i.label), ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload']);

    const hover = await server.connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: value + 3 } });
    assert.match((hover.contents as MarkupContent).value, /^\*\*Teacher model's DeepSpeed config\*\*[^]*teacher_zero3\.json/);

    const links = await server.connection.sendRequest<DocumentLink[]>('textDocument/documentLink', { textDocument: { uri } });
    assert.deepEqual(links.map((l) => [l.target, l.range.start.line, l.range.start.character]), [[fileUri(path.join(root, 'configs/teacher_zero3.json')), 1, value]]);

    const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } } });
    assert.deepEqual(hints.map((h) => h.position), [0, 1, 2].map((line) => ({ line, character: gkd.length })));
    // The estimate stays on --deepspeed; the teacher's config decides only its share: sharded like the run (an unknown
    // preset, a config file not read) or whole below ZeRO-3.
    assert.equal(hints[0].label, hints[1].label);
    assert.notEqual(hints[2].label, hints[0].label);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

// A launch YAML that does not parse: one warning from the server, where the parser stopped, and not the
// wrong preset the unclosed quote makes of the next line.
test('launch YAML with a syntax error over stdio: one yaml-syntax-error warning', () =>
  inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'sft.yaml'));
    const diagnostics = await openedDiagnostics(server, uri, 'yaml', 'model: Qwen/Qwen3-8B\ndeepspeed: "zero3\ntorch_dtype: bfloat16\n');
    assert.deepEqual(diagnostics.map((d: Diagnostic) => [d.code, d.severity]), [['yaml-syntax-error', 2]]);
    assert.match(String(diagnostics[0].message), /^ZeRO Lens could not read this file from here on, so its DeepSpeed settings after this point are not checked: Missing closing "quote \(line 4, column 1\)\.$/);
  }));

// `python swift/cli/sft.py` is one process: two visible GPUs and --deepspeed fail in ms-swift, and the fix
// (torchrun on the same script) survives the round trip through the client.
test('python swift/cli/sft.py with two GPUs and --deepspeed over stdio: error and the torchrun fix', () =>
  inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'train.sh'));
    const diagnostics = await openedDiagnostics(server, uri, 'shellscript', 'CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 python swift/cli/sft.py --model Qwen/Qwen3-8B --deepspeed zero3\n');
    assert.deepEqual(diagnostics.map((d: Diagnostic) => [d.code, d.severity]), [['swift-script-single-process', 1]]);
    assert.match(String(diagnostics[0].message), /Use swift sft with NPROC_PER_NODE=2, or start swift\/cli\/sft\.py with torchrun --nproc_per_node 2\.$/);
    const fix = (await quickFixes(server, uri, diagnostics[0])).find((a) => a.title === 'Start with torchrun --nproc_per_node 2');
    assert.equal(fix?.isPreferred, true);
    assert.deepEqual(fix?.edit?.changes?.[uri], [{ range: { start: { line: 0, character: 42 }, end: { line: 0, character: 49 } }, newText: 'torchrun --nproc_per_node 2 ' }]);
  }));

// `python swift/cli/main.py sft` is the swift command itself: no false "unsupported subcommand", and its
// NPROC_PER_NODE gives the estimate its GPU count.
test('python swift/cli/main.py sft over stdio: read as swift sft, estimate for NPROC_PER_NODE GPUs', () =>
  inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'train.sh'));
    // One diagnostic on purpose (CUDA_VISIBLE_DEVICES without NPROC_PER_NODE) to know validation ran.
    const text = 'CUDA_VISIBLE_DEVICES=0,1 python swift/cli/main.py sft --model Qwen/Qwen3-8B --deepspeed zero3\n';
    const diagnostics = await openedDiagnostics(server, uri, 'shellscript', text);
    assert.deepEqual(diagnostics.map((d: Diagnostic) => d.code), ['cuda-devices-without-nproc']);
    await server.change(uri, 2, `NPROC_PER_NODE=2 ${text}`);
    assert.match(String(await firstLineHint(server, uri)), /2 GPUs/);
  }));

// `python swift/cli/sft.py` is one process: the estimate is for one GPU, not zeroLens.gpusPerNode; a YAML
// argument is not read there (only swift/cli/main.py converts it), and the fix runs swift sft instead.
test('python swift/cli/sft.py over stdio: estimate for one GPU whatever the setting; a YAML argument is an error', async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-launch-one-')));
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 80, gpusPerNode: 8 } });
  try {
    const uri = fileUri(path.join(root, 'train.sh'));
    const text = 'python swift/cli/sft.py sft.yaml --model Qwen/Qwen3-8B --deepspeed zero3\n';
    const diagnostics = await openedDiagnostics(server, uri, 'shellscript', text);
    assert.deepEqual(diagnostics.map((d: Diagnostic) => [d.code, d.severity]), [['swift-script-config-file', 1]]);
    const fix = (await quickFixes(server, uri, diagnostics[0])).find((a) => a.title === 'Run with swift sft');
    assert.deepEqual(fix?.edit?.changes?.[uri], [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 23 } }, newText: 'swift sft' }]);
    assert.match(String(await firstLineHint(server, uri)), /· 1 GPU · /);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

// `python train.py --deepspeed ds.json` (no launcher) is one process: the estimate is for one GPU, not
// zeroLens.gpusPerNode; `python -m torch.distributed.run` is a launcher and keeps its --nproc_per_node.
test('python train.py --deepspeed over stdio: estimate for one GPU whatever the setting; python -m torch.distributed.run decides', async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-launch-hf-')));
  writeFileSync(path.join(root, 'ds.json'), '{ "zero_optimization": { "stage": 2 } }\n');
  const server = await startServer({ rootPath: root, settings: { gpuMemoryGiB: 80, gpusPerNode: 8 } });
  try {
    const uri = fileUri(path.join(root, 'train.sh'));
    const args = 'train.py --model_name_or_path Qwen/Qwen3-8B --bf16 --deepspeed ds.json\n';
    await server.open(uri, 'shellscript', `python ${args}`);
    assert.match(String(await firstLineHint(server, uri)), /· Qwen3-8B · 1 GPU · /);
    await server.change(uri, 2, `python -m pkg.train ${args.slice('train.py '.length)}`);
    assert.match(String(await firstLineHint(server, uri)), /· Qwen3-8B · 1 GPU · /);
    await server.change(uri, 3, `python -m torch.distributed.run --nproc_per_node 4 ${args}`);
    assert.match(String(await firstLineHint(server, uri)), /· Qwen3-8B · 4 GPUs · /);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

// `python train.py --deepspeed ds.json` with two GPUs visible: one process, so a warning at the
// python word, and the torchrun fix through the client.
test('python train.py --deepspeed with two GPUs visible over stdio: a warning and the torchrun fix', () =>
  inEmptyWorkspace(async (server, root) => {
    writeFileSync(path.join(root, 'ds.json'), '{ "zero_optimization": { "stage": 2 } }\n');
    const uri = fileUri(path.join(root, 'train.sh'));
    const diagnostics = await openedDiagnostics(server, uri, 'shellscript', 'CUDA_VISIBLE_DEVICES=0,1 python train.py --deepspeed ds.json\n');
    assert.deepEqual(diagnostics.map((d: Diagnostic) => [d.code, d.severity]), [['hf-script-single-process', 2]]);
    assert.deepEqual(diagnostics[0].range, { start: { line: 0, character: 25 }, end: { line: 0, character: 31 } });
    const fix = (await quickFixes(server, uri, diagnostics[0])).find((a) => a.title === 'Start with torchrun --nproc_per_node 2');
    assert.equal(fix?.isPreferred, true);
    assert.deepEqual(fix?.edit?.changes?.[uri], [{ range: { start: { line: 0, character: 25 }, end: { line: 0, character: 32 } }, newText: 'torchrun --nproc_per_node 2 ' }]);
  }));

// A JSON string written as an ms-swift YAML value: the hover says it is JSON in the value of `deepspeed:`.
test('ms-swift YAML with a JSON string as deepspeed: over stdio: hover says JSON in the value', () =>
  inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'sft.yaml'));
    await server.open(uri, 'yaml', `model: Qwen/Qwen3-8B\ndeepspeed: '{"zero_optimization": {"stage": 3}}'\n`);
    const hover = await server.connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 20 } });
    assert.match((hover.contents as MarkupContent).value, /^\*\*Inline DeepSpeed config\*\* \(JSON in the value of `deepspeed:`\)/);
  }));

// Windows line endings arrive as the editor holds them; the estimate is still read from the CRLF script.
test('a CRLF launch script over stdio: one warning with its docs link, and the estimate still shown', () =>
  inEmptyWorkspace(async (server, root) => {
    const uri = fileUri(path.join(root, 'train.sh'));
    const text = 'NPROC_PER_NODE=2 \\\r\nCUDA_VISIBLE_DEVICES=0,1 \\\r\nswift sft --model Qwen/Qwen3-8B --deepspeed zero3\r\n';
    const diagnostics = await openedDiagnostics(server, uri, 'shellscript', text);
    assert.deepEqual(diagnostics.map((d: Diagnostic) => [d.code, d.severity, d.codeDescription?.href]), [['crlf-line-endings', 2, 'https://www.shellcheck.net/wiki/SC1017']]);
    assert.deepEqual(diagnostics[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 18 } });
    const hints = await server.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    });
    assert.match(String(hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''))).join(' ')), /GiB/);
  }));
