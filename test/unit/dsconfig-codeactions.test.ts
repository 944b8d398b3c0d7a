import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CodeAction } from 'vscode-languageserver-types';
import { codeActions, fixAllKind } from '../../server/src/dsconfig/codeActions/codeActions';
import { validateConfig } from '../../server/src/dsconfig/validation/validate';
import { defaultSettings, withDefaults } from '../../server/src/settings';
import { applyAction, docOf, fixed, quickFixes } from './dsconfig-validation-helpers';
import { ConfigParses } from '../../server/src/dsconfig/parse';
import { getLanguageService } from '../../server/src/languageService';
import { missing } from '../../server/src/host';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

const lines = (...l: string[]) => l.join('\n');

test('rename a deprecated key, keeping its value and the comments around it', async () => {
  const text = lines(
    '{',
    '  "train_micro_batch_size_per_gpu": 1,',
    '  "zero_optimization": {',
    '    "stage": 3,',
    '    // needed for save_16bit_model()',
    '    "stage3_gather_fp16_weights_on_model_save": true /* keep */',
    '  }',
    '}',
  );
  assert.equal(
    await fixed(text, 'Rename to "stage3_gather_16bit_weights_on_model_save"'),
    text.replace('"stage3_gather_fp16_weights_on_model_save"', '"stage3_gather_16bit_weights_on_model_save"'),
  );
});

test('the deprecated cpu_offload becomes an offload_optimizer block', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {', '    "stage": 2,', '    "cpu_offload": true', '  }', '}');
  assert.equal(
    await fixed(text, 'Replace with "offload_optimizer": {"device": "cpu"}'),
    lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {', '    "stage": 2,', '    "offload_optimizer": {', '      "device": "cpu"', '    }', '  }', '}'),
  );
});

test('remove a key the stage ignores; the other comments stay', async () => {
  const text = lines(
    '{',
    '  // ZeRO-2 on 8 GPUs',
    '  "train_micro_batch_size_per_gpu": 4,',
    '  "zero_optimization": {',
    '    "stage": 2, // sharded grads',
    '    "stage3_max_live_parameters": 1e9,',
    '    "overlap_comm": true',
    '  }',
    '}',
  );
  assert.equal(
    await fixed(text, 'Remove "stage3_max_live_parameters"'),
    lines('{', '  // ZeRO-2 on 8 GPUs', '  "train_micro_batch_size_per_gpu": 4,', '  "zero_optimization": {', '    "stage": 2, // sharded grads', '    "overlap_comm": true', '  }', '}'),
  );
});

test('batch triple: compute train_batch_size, or hand all three to the Trainer', async () => {
  const text = lines('{', '  "train_batch_size": 30, // 8 GPUs?', '  "train_micro_batch_size_per_gpu": 4,', '  "gradient_accumulation_steps": 2', '}');
  assert.equal(await fixed(text, 'Set train_batch_size to 32 (4 × 2 × 4 GPUs)'), text.replace('30,', '32,'));
  assert.equal(
    await fixed(text, /Use "auto" for all three/),
    lines('{', '  "train_batch_size": "auto", // 8 GPUs?', '  "train_micro_batch_size_per_gpu": "auto",', '  "gradient_accumulation_steps": "auto"', '}'),
  );
});

test('fp16 + bf16: keep bf16 (preferred) or keep fp16', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "fp16": {"enabled": true, "loss_scale": 0},', '  "bf16": {"enabled": true}', '}');
  const document = docOf(text);
  const actions = (await quickFixes(document)).filter((a) => a.title.startsWith('Keep'));
  assert.deepEqual(actions.map((a) => [a.title, a.isPreferred]), [['Keep bf16 (turn fp16 off)', true], ['Keep fp16 (turn bf16 off)', false]]);
  assert.equal(applyAction(document, actions[0]), text.replace('"fp16": {"enabled": true', '"fp16": {"enabled": false'));
  assert.equal(applyAction(document, actions[1]), text.replace('"bf16": {"enabled": true}', '"bf16": {"enabled": false}'));
});

test('did-you-mean rename for an unknown key', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {"stgae": 2}', '}');
  assert.equal(await fixed(text, 'Rename to "stage"'), text.replace('"stgae"', '"stage"'));
});

test('alias duplicates: keep the long form (preferred) or the short form', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {', '    "stage": 3,', '    "stage3_max_live_parameters": 1e9,', '    "max_live_parameters": 2e9', '  }', '}');
  assert.equal(
    await fixed(text, 'Keep "stage3_max_live_parameters" (remove "max_live_parameters")'),
    lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {', '    "stage": 3,', '    "stage3_max_live_parameters": 1e9', '  }', '}'),
  );
  assert.equal(
    await fixed(text, 'Keep "max_live_parameters" (remove "stage3_max_live_parameters")'),
    lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {', '    "stage": 3,', '    "max_live_parameters": 2e9', '  }', '}'),
  );
});

test('"5e8" in quotes becomes a number', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {"stage": 2, "reduce_bucket_size": "5e8"}', '}');
  assert.equal(await fixed(text, 'Write it as the number 500000000 (no quotes)'), text.replace('"5e8"', '500000000'));
});

test('"stage": "auto" offers the concrete stages, none preferred', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {"stage": "auto"}', '}');
  const document = docOf(text);
  const actions = (await quickFixes(document)).filter((a) => a.title.startsWith('Use ZeRO stage'));
  assert.deepEqual(actions.map((a) => a.title), ['Use ZeRO stage 1', 'Use ZeRO stage 2', 'Use ZeRO stage 3']);
  assert.ok(actions.every((a) => !a.isPreferred));
  assert.equal(applyAction(document, actions[2]), text.replace('"auto"', '3'));
});

test('a value outside its enum: each allowed value is a fix, and the one it resembles is preferred', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {', '    "stage": 3,', '    "offload_param": { "device": "CPU" } // on the login node', '  }', '}');
  const titles = (await quickFixes(docOf(text))).map((a) => [a.title, a.isPreferred]);
  assert.deepEqual(titles, [['Use "cpu"', true], ['Use "none"', false], ['Use "nvme"', false]]);
  assert.equal(await fixed(text, 'Use "cpu"'), text.replace('"CPU"', '"cpu"'));
});

test('a bool written as a word or a number is rewritten as the bool it reads as', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "wall_clock_breakdown": "yes",', '  "zero_optimization": { "stage": 2, "overlap_comm": 0 }', '}');
  assert.equal(await fixed(text, 'Write it as true'), text.replace('"yes"', 'true'));
  assert.equal(await fixed(text, 'Write it as false'), text.replace('"overlap_comm": 0', '"overlap_comm": false'));
});

test('max_grad_norm moves to gradient_clipping', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "optimizer": {"type": "AdamW", "params": {"lr": 1e-5, "max_grad_norm": 0.5}}', '}');
  assert.equal(
    await fixed(text, 'Move it to "gradient_clipping": 0.5'),
    lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}},', '  "gradient_clipping": 0.5', '}'),
  );
});

test('inserted keys follow the file: CRLF line ends, tab indentation, one-line objects stay on one line', async () => {
  const text = '{\r\n\t"train_batch_size": 8,\r\n\t"gradient_accumulation_steps": 1,\r\n\t"zero_optimization": {\r\n\t\t"stage": 1,\r\n\t\t"cpu_offload": true\r\n\t}\r\n}';
  const after = await fixed(text, 'Replace with "offload_optimizer": {"device": "cpu"}');
  assert.equal(after, '{\r\n\t"train_batch_size": 8,\r\n\t"gradient_accumulation_steps": 1,\r\n\t"zero_optimization": {\r\n\t\t"stage": 1,\r\n\t\t"offload_optimizer": {\r\n\t\t\t"device": "cpu"\r\n\t\t}\r\n\t}\r\n}');
  const inline = '{"train_batch_size": 8, "zero_optimization": {"stage": 1, "cpu_offload": true}}';
  assert.equal(await fixed(inline, 'Replace with "offload_optimizer": {"device": "cpu"}'), '{"train_batch_size": 8, "zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}}');
});

test('actions only come from our own diagnostics, and a stale diagnostic gives no action', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {"stgae": 2}', '}');
  const stale = validateConfig(parses, docOf(text), defaultSettings);
  const now = docOf(lines('{', '  "train_micro_batch_size_per_gpu": 1', '}'));
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  assert.deepEqual(await codeActions(now, range, { diagnostics: stale, only: ['quickfix'] }, defaultSettings), []);
  const foreign = stale.map((d) => ({ ...d, source: 'json' }));
  assert.deepEqual(await codeActions(docOf(text), range, { diagnostics: foreign }, defaultSettings), []);
});

test('source.fixAll.zeroLens applies every preferred fix in one edit and keeps comments', async () => {
  const text = readFileSync(path.resolve(__dirname, '../fixtures/dsconfig/ds_config_broken.json'), 'utf8');
  const document = docOf(text);
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const actions: CodeAction[] = await codeActions(document, range, { diagnostics: [], only: ['source.fixAll'] }, defaultSettings);
  assert.equal(actions.length, 1);
  assert.equal(actions[0].kind, fixAllKind);
  assert.equal(actions[0].edit?.changes?.[document.uri]?.length, 1);
  const after = applyAction(document, actions[0]);
  assert.equal(
    after,
    lines(
      '{',
      '  // ZeRO-2 config copied from an old run',
      '  "train_batch_size": 32,',
      '  "train_micro_batch_size_per_gpu": 4,',
      '  "gradient_accumulation_steps": 2,',
      '  "gradient_clipping": 1.0,',
      '  "steps_per_print": 10,',
      '  "fp16": {',
      '    "enabled": false,',
      '    "loss_scale": 0,',
      '    "opt_level": "O2"',
      '  },',
      '  "bf16": {',
      '    "enabled": true',
      '  },',
      '  "optimizer": {',
      '    "type": "AdamW",',
      '    "params": {',
      '      "lr": 3e-5',
      '    }',
      '  },',
      '  "zero_optimization": {',
      '    "stage": 2,',
      '    "offload_optimizer": {',
      '      "device": "cpu"',
      '    },',
      '    "offload_param": { "device": "cpu" },',
      '    "stage3_prefetch_bucket_size": 5e8,',
      '    "reduce_bucket_size": 500000000,',
      '    "allgather_bucket_size": 2e8,',
      '    "overlap_comm": true',
      '  }',
      '}',
      '',
    ),
  );
  // Not asked for: no fix-all action among the quick fixes.
  assert.ok((await codeActions(document, range, { diagnostics: [], only: ['quickfix'] }, defaultSettings)).every((a) => a.kind !== fixAllKind));
});

test('warmup_num_steps written 1e3: a warning for the json.load path, fixed by writing the integer', async () => {
  const text = lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 1e3}}', '}');
  const [warning] = validateConfig(parses, docOf(text), defaultSettings).filter((d) => d.code === 'integer-written-as-float');
  assert.match(String(warning?.message), /json\.load, which gives the float 1000\.0/);
  assert.equal(await fixed(text, 'Write it as 1000'), text.replace('1e3', '1000'));
  // Written as an integer, or in a field DeepSpeed does not type-check, it is fine.
  assert.deepEqual(validateConfig(parses, docOf(text.replace('1e3', '1000')), defaultSettings).filter((d) => d.code === 'integer-written-as-float'), []);
  assert.deepEqual(validateConfig(parses, docOf(lines('{', '  "train_micro_batch_size_per_gpu": 1,', '  "zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}', '}')), defaultSettings).filter((d) => d.code === 'integer-written-as-float'), []);
});

test('the cpu_offload fix puts offload_optimizer where cpu_offload stood, so the comment above it stays with it', async () => {
  const text = '{\n  "zero_optimization": {\n    "stage": 2,\n    // keep states in CPU RAM\n    "cpu_offload": true, // old key\n    "overlap_comm": true\n  }\n}\n';
  const document = docOf(text);
  const fixes = await quickFixes(document);
  const replace = fixes.find((a) => a.title === 'Replace with "offload_optimizer": {"device": "cpu"}');
  assert.ok(replace, fixes.map((a) => a.title).join(' | '));
  assert.equal(
    applyAction(document, replace),
    '{\n  "zero_optimization": {\n    "stage": 2,\n    // keep states in CPU RAM\n    "offload_optimizer": {\n      "device": "cpu"\n    }, // old key\n    "overlap_comm": true\n  }\n}\n',
  );
});

test('a value the user must fill in (nvme_path) is a snippet tab stop, offered only to editors that apply snippet edits', async () => {
  const text = '{\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": {"device": "nvme"}\n  }\n}\n';
  const fs = { readFile: async () => missing, readBytes: async () => missing, exists: async () => false, listDir: async () => undefined };
  const document = docOf(text);
  const titles = async (snippetEdits: boolean) => {
    const service = getLanguageService({ fs, snippetEdits });
    const diagnostics = (await service.doValidation(document, defaultSettings)).filter((d) => d.code === 'nvme-without-path');
    assert.equal(diagnostics.length, 1);
    return service.getCodeActions(document, diagnostics[0].range, { diagnostics, only: ['quickfix'] }, defaultSettings);
  };
  assert.deepEqual((await titles(false)).map((a) => a.title).filter((t) => t.includes('nvme_path')), [], 'no placeholder written as if it were the user\'s');
  const [fill] = (await titles(true)).filter((a) => a.title.includes('nvme_path'));
  assert.equal(fill.title, 'Add "nvme_path" (fill in your NVMe mount)');
  assert.equal(fill.edit?.changes, undefined);
  const [change] = fill.edit!.documentChanges as { edits: { snippet: { kind: string; value: string } }[] }[];
  assert.deepEqual(change.edits.map((e) => e.snippet), [{ kind: 'snippet', value: ', "nvme_path": "${1:/local_nvme}"' }]);
});

test('batch triple with zeroLens.gpusPerNode set: the fix gives the batch of that many GPUs, not the nearest multiple, and says where the count comes from', async () => {
  const text = lines('{', '  "train_batch_size": 30,', '  "train_micro_batch_size_per_gpu": 2,', '  "gradient_accumulation_steps": 2', '}');
  const document = docOf(text);
  const titles = (await quickFixes(document, withDefaults({ gpusPerNode: 8 }))).map((a) => a.title);
  assert.ok(titles.includes('Set train_batch_size to 32 (2 × 2 × 8 GPUs (settings (zeroLens.gpusPerNode)))'), titles.join(' | '));
  const twoNodes = (await quickFixes(document, withDefaults({ gpusPerNode: 8, nodes: 2 }))).map((a) => a.title);
  assert.ok(twoNodes.some((title) => title.startsWith('Set train_batch_size to 64 (2 × 2 × 16 GPUs (2 nodes × 8) (') && title.includes('zeroLens.nodes')), twoNodes.join(' | '));
});
