import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { openedDiagnostics, quickFixes, startServer } from './lspClient';

const broken = [
  '{',
  '  // ZeRO-3 on 8 GPUs',
  '  "train_batch_size": 30,',
  '  "train_micro_batch_size_per_gpu": 4,',
  '  "gradient_accumulation_steps": 2,',
  '  "fp16": {"enabled": true},',
  '  "bf16": {"enabled": true},',
  '  "zero_optimization": {',
  '    "stage": 3, // shard everything',
  '    "stage3_gather_fp16_weights_on_model_save": true',
  '  }',
  '}',
  '',
].join('\n');

// Diagnostics, a quick fix and fix-all for a broken ds_config.json through the real bundled server over stdio.
test('ds_config diagnostics arrive over stdio and a quick fix round-trips', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_zero3.json';
    const published = server.diagnostics(uri, (d) => d.some((x) => x.code === 'fp16-and-bf16'));
    await server.open(uri, 'ds-config', broken);
    const { diagnostics, version } = await published;
    assert.equal(version, 1);
    const byCode = new Map(diagnostics.map((d) => [String(d.code), d]));
    for (const code of ['jsonc-comment', 'batch-size-mismatch', 'fp16-and-bf16', 'deprecated-key']) assert.ok(byCode.has(code), `${code} in ${[...byCode.keys()].join(', ')}`);
    const mismatch = byCode.get('batch-size-mismatch')!;
    assert.deepEqual(mismatch.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 20 } });
    assert.equal(mismatch.source, 'zero-lens');
    // An error links to the DeepSpeed line that raises it (registry `raises`).
    assert.match(String(mismatch.codeDescription?.href), /github\.com\/deepspeedai\/DeepSpeed\/blob\/edaa7221[0-9a-f]*\/deepspeed\/runtime\/config\.py#L936-L940/);

    // The diagnostic goes back with its data, as a client would send it; the server answers statelessly.
    const precision = byCode.get('fp16-and-bf16') as Diagnostic;
    const actions = await quickFixes(server, uri, precision);
    const keepBf16 = actions.find((a) => a.title === 'Keep bf16 (turn fp16 off)');
    assert.ok(keepBf16?.isPreferred, JSON.stringify(actions.map((a) => a.title)));
    const document = TextDocument.create(uri, 'ds-config', 1, broken);
    const fixed = TextDocument.applyEdits(document, keepBf16.edit!.changes![uri]);
    assert.equal(fixed, broken.replace('"fp16": {"enabled": true}', '"fp16": {"enabled": false}'));

    // After the edit the server re-validates the new version: the conflict is gone, the comments are still there.
    const republished = server.diagnostics(uri, (d) => !d.some((x) => x.code === 'fp16-and-bf16'));
    await server.change(uri, 2, fixed);
    const after = await republished;
    assert.equal(after.version, 2);
    assert.ok(after.diagnostics.some((d) => d.code === 'batch-size-mismatch'));

    // source.fixAll.zeroLens: every preferred fix in one edit.
    const [fixAll] = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.zeroLens'] },
    });
    assert.equal(fixAll?.kind, 'source.fixAll.zeroLens');
    const all = TextDocument.applyEdits(TextDocument.create(uri, 'ds-config', 2, fixed), fixAll.edit!.changes![uri]);
    assert.match(all, /"train_batch_size": 32,/);
    assert.match(all, /"stage3_gather_16bit_weights_on_model_save": true/);
    assert.match(all, /\/\/ ZeRO-3 on 8 GPUs/);
    assert.match(all, /"stage": 3, \/\/ shard everything/);
  } finally {
    await server.stop();
  }
});

test('json documents: syntax errors are left to VS Code\'s JSON server, DeepSpeed rules still apply', async () => {
  // VS Code's client says its JSON server checks json documents (other editors: test/protocol/json-language.test.ts).
  const server = await startServer({ initializationOptions: { validationDelayMs: 0, editorChecksJson: true } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config.json';
    const published = server.diagnostics(uri, (d) => d.length > 0);
    await server.open(uri, 'json', '{\n  "train_micro_batch_size_per_gpu": 4\n  "zero_optimization": {"stage": "auto"}\n}');
    const { diagnostics } = await published;
    const codes = diagnostics.map((d) => d.code);
    assert.ok(codes.includes('stage-auto'), codes.join(', '));
    assert.ok(!codes.includes('json-syntax'), 'VS Code reports the missing comma for json documents');
  } finally {
    await server.stop();
  }
});

test('a misspelt scheduler param arrives as the TypeError DeepSpeed would raise, with the rename that fixes it', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_scheduler.json';
    const text = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "scheduler": {"type": "WarmupLR", "params": {"warmup_num_step": 100}}\n}\n';
    const published = server.diagnostics(uri, (d) => d.some((x) => x.code === 'unknown-key'));
    await server.open(uri, 'ds-config', text);
    const typo = (await published).diagnostics.find((d) => d.code === 'unknown-key')!;
    assert.match(String(typo.message), /WarmupLR\(optimizer, \*\*params\) as keyword arguments, and one it does not take stops the run with a TypeError\. Did you mean "warmup_num_steps"\?/);
    assert.doesNotMatch(String(typo.message), /pydantic/);
    const actions = await quickFixes(server, uri, typo);
    const rename = actions.find((a) => a.title === 'Rename to "warmup_num_steps"')!;
    const document = TextDocument.create(uri, 'ds-config', 1, text);
    assert.equal(TextDocument.applyEdits(document, rename.edit!.changes![uri]), text.replace('warmup_num_step"', 'warmup_num_steps"'));
  } finally {
    await server.stop();
  }
});

test('a bool written as text and an offload device in capitals: what DeepSpeed reads, and the fixes, over stdio', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_values.json';
    const text = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "bf16": {"enabled": "false"},\n  "zero_optimization": {"stage": 3, "offload_param": {"device": "CPU"}}\n}\n';
    const diagnostics = await openedDiagnostics(server, uri, 'ds-config', text, (d) => d.some((x) => x.code === 'invalid-value'));
    const word = diagnostics.find((d) => d.code === 'boolean-as-string')!;
    assert.equal(word.severity, 2);
    assert.match(String(word.message), /pydantic config reads it as false/);
    const device = diagnostics.find((d) => d.code === 'invalid-value')!;
    const document = TextDocument.create(uri, 'ds-config', 1, text);
    for (const [diagnostic, title, after] of [
      [word, 'Write it as false', text.replace('"false"', 'false')],
      [device, 'Use "cpu"', text.replace('"CPU"', '"cpu"')],
    ] as const) {
      const actions = await quickFixes(server, uri, diagnostic);
      const action = actions.find((a) => a.title === title)!;
      assert.equal(action.isPreferred, true);
      assert.equal(TextDocument.applyEdits(document, action.edit!.changes![uri]), after);
    }
  } finally {
    await server.stop();
  }
});

test('data_efficiency curriculum metrics: missing difficulty_type is the KeyError, an unknown clustering_type a warning, over stdio', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_curriculum_metrics.json';
    const metric = { clustering_type: 'Single_Cluster', min_difficulty: 1, max_difficulty: 10, schedule_type: 'custom' };
    const config = { train_micro_batch_size_per_gpu: 1, data_efficiency: { data_sampling: { curriculum_learning: { enabled: true, curriculum_metrics: { seqlen: metric } } } } };
    const diagnostics = await openedDiagnostics(server, uri, 'ds-config', JSON.stringify(config, null, 2), (d) => d.some((x) => x.code === 'missing-key'));
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [
      ['invalid-value', 2],
      ['missing-key', 1],
    ]);
    assert.match(String(diagnostics[0].message), /uses "schedule_based" instead/);
    // "Single_Cluster" clusters by schedule, so rank 0 also opens index_to_sample_path.
    assert.match(String(diagnostics[1].message), /needs "difficulty_type" and "index_to_sample_path".*KeyError: 'difficulty_type'/);
  } finally {
    await server.stop();
  }
});

test('ZenFlow "Step": the one error is the strategy DeepSpeed refuses, with the lower-case fix, over stdio', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_zenflow_case.json';
    const zero = { stage: 2, overlap_comm: true, offload_optimizer: { device: 'cpu' }, zenflow: { select_strategy: 'Step', select_interval: 1, update_interval: 4 } };
    const text = JSON.stringify({ train_micro_batch_size_per_gpu: 1, zero_optimization: zero }, null, 2);
    const diagnostics = await openedDiagnostics(server, uri, 'ds-config', text, (d) => d.some((x) => x.code === 'invalid-value'));
    assert.deepEqual(diagnostics.map((d) => d.code), ['invalid-value']);
    const action = (await quickFixes(server, uri, diagnostics[0])).find((a) => a.title === 'Use "step"')!;
    assert.equal(TextDocument.applyEdits(TextDocument.create(uri, 'ds-config', 1, text), action.edit!.changes![uri]), text.replace('"Step"', '"step"'));
  } finally {
    await server.stop();
  }
});

test('ZenFlow "AUTO": the preferred quick fix is "auto", a real select_strategy value, over stdio', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_zenflow_auto.json';
    const zero = { stage: 2, overlap_comm: true, offload_optimizer: { device: 'cpu' }, zenflow: { select_strategy: 'AUTO' } };
    const text = JSON.stringify({ train_micro_batch_size_per_gpu: 1, zero_optimization: zero }, null, 2);
    const diagnostics = await openedDiagnostics(server, uri, 'ds-config', text, (d) => d.some((x) => x.code === 'invalid-value'));
    assert.deepEqual(diagnostics.map((d) => d.code), ['invalid-value']);
    const actions = await quickFixes(server, uri, diagnostics[0]);
    assert.deepEqual(actions.map((a) => [a.title, !!a.isPreferred]), [['Use "auto"', true], ['Use "step"', false], ['Use "epoch"', false]]);
    assert.equal(TextDocument.applyEdits(TextDocument.create(uri, 'ds-config', 1, text), actions[0].edit!.changes![uri]), text.replace('"AUTO"', '"auto"'));
  } finally {
    await server.stop();
  }
});

test('weight_quantization.quantized_initialization at ZeRO stage 2 warns that zero.Init never quantizes, over stdio', async () => {
  const server = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const uri = 'file:///tmp/zero-lens-protocol/ds_config_quantized_init.json';
    const settings = { num_bits: 4, group_size: 32, group_dim: 1, symmetric: false };
    const text = JSON.stringify({ train_micro_batch_size_per_gpu: 1, fp16: { enabled: true }, zero_optimization: { stage: 2 }, weight_quantization: { quantized_initialization: settings } }, null, 2);
    const diagnostics = await openedDiagnostics(server, uri, 'ds-config', text, (d) => d.some((x) => x.code === 'ignored-at-stage'));
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [['ignored-at-stage', 2]]);
    assert.match(String(diagnostics[0].codeDescription?.href), /zero-inference/);
    const titles = (await quickFixes(server, uri, diagnostics[0])).map((a) => a.title);
    assert.deepEqual(titles, ['Switch to ZeRO stage 3', 'Remove "quantized_initialization"']);
  } finally {
    await server.stop();
  }
});

test('AutoEP: autoep_size that does not divide the zeroLens.gpusPerNode world size is the ValueError, over stdio; without a GPU count nothing', async () => {
  const text = JSON.stringify({ train_micro_batch_size_per_gpu: 1, bf16: { enabled: true }, zero_optimization: { stage: 2 }, expert_parallel: { enabled: true, autoep_size: 4 } }, null, 2);
  const uri = 'file:///tmp/zero-lens-protocol/ds_config_autoep_world.json';
  const server = await startServer({ settings: { gpusPerNode: 6 }, initializationOptions: { validationDelayMs: 0 } });
  try {
    const diagnostics = await openedDiagnostics(server, uri, 'ds-config', text, (d) => d.some((x) => x.code === 'autoep-conflict'));
    const errors = diagnostics.filter((d) => d.code === 'autoep-conflict');
    assert.equal(errors.length, 1);
    assert.match(String(errors[0].message), /^"autoep_size" 4 does not divide the world size of 6 GPUs \(settings \(zeroLens\.gpusPerNode\)\)\. DeepSpeed raises ValueError/);
    assert.equal(TextDocument.create(uri, 'ds-config', 1, text).getText(errors[0].range), '"autoep_size"');
  } finally {
    await server.stop();
  }
  const unknown = await startServer({ initializationOptions: { validationDelayMs: 0 } });
  try {
    const diagnostics = await openedDiagnostics(unknown, uri, 'ds-config', text, () => true);
    assert.deepEqual(diagnostics.filter((d) => d.code === 'autoep-conflict'), []);
  } finally {
    await unknown.stop();
  }
});
