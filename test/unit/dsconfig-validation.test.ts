import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { ConfigView } from '../../server/src/dsconfig/validation/configView';
import { didYouMean } from '../../server/src/dsconfig/validation/didYouMean';
import { schemaCompileError } from '../../server/src/dsconfig/validation/schemaValidation';
import { validateConfig } from '../../server/src/dsconfig/validation/validate';
import { defaultSettings } from '../../server/src/settings';
import { editDistance } from '../../server/src/util/editDistance';
import { codesOf, configWith, diagnose, docOf, errorsOf, textAt, withCode } from './dsconfig-validation-helpers';
import { ConfigParses } from '../../server/src/dsconfig/parse';
import { readDiagnosticData } from '../../server/src/diagnostics/readDiagnosticData';
import { applyFix } from '../../server/src/diagnostics/applyFix';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

const fixtures = path.resolve(__dirname, '../fixtures');

test('the bundled schema compiles with ajv', () => {
  assert.equal(schemaCompileError(), undefined);
});

test('every diagnostic carries source, a stable code, a docs link and data with a path', () => {
  const text = readFileSync(path.join(fixtures, 'dsconfig/ds_config_broken.json'), 'utf8');
  const diagnostics = diagnose(text);
  assert.ok(diagnostics.length >= 10);
  for (const d of diagnostics) {
    assert.equal(d.source, 'zero-lens');
    assert.match(String(d.code), /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.match(String(d.codeDescription?.href), /^https:\/\/(www\.deepspeed\.ai|huggingface\.co|github\.com)\//);
    assert.ok(Array.isArray((d.data as { path?: unknown }).path));
  }
  assert.deepEqual(codesOf(errorsOf(diagnostics)).sort(), ['batch-size-mismatch', 'fp16-and-bf16', 'integer-exponent-string', 'unknown-key']);
});

for (const file of readdirSync(path.join(fixtures, 'presets')).filter((f) => f.endsWith('.json'))) {
  test(`preset ${file} produces no error`, () => {
    const diagnostics = diagnose(readFileSync(path.join(fixtures, 'presets', file), 'utf8'));
    assert.deepEqual(errorsOf(diagnostics).map((d) => [d.code, d.message]), []);
  });
}

for (const file of readdirSync(path.join(fixtures, 'dsconfig')).filter((f) => f.endsWith('.json') && !f.includes('broken'))) {
  test(`real-shaped config ${file} produces no error or warning`, () => {
    const diagnostics = diagnose(readFileSync(path.join(fixtures, 'dsconfig', file), 'utf8'));
    assert.deepEqual(diagnostics.filter((d) => d.severity !== DiagnosticSeverity.Hint).map((d) => [d.code, d.message]), []);
  });
}

test('syntax errors have exact ranges in ds-config documents and are left to VS Code for json/jsonc', () => {
  const text = '{\n  "train_batch_size": 8\n  "gradient_accumulation_steps": 1\n}';
  const document = docOf(text);
  const syntax = withCode(validateConfig(parses, document, defaultSettings), 'json-syntax');
  assert.equal(syntax.length, 1);
  assert.equal(textAt(document, syntax[0]), '"gradient_accumulation_steps"');
  assert.match(String(syntax[0].message), /Expected ','/);
  assert.deepEqual(withCode(diagnose(text, { languageId: 'json' }), 'json-syntax'), []);
  assert.deepEqual(withCode(diagnose(text, { languageId: 'jsonc' }), 'json-syntax'), []);
});

test('comments and trailing commas: warnings explaining json.load, unless the built-in JSON server already says it', () => {
  const text = '{\n  // tuned for 8 GPUs\n  "train_micro_batch_size_per_gpu": 4,\n}';
  const own = diagnose(text);
  const comment = withCode(own, 'jsonc-comment')[0];
  assert.equal(comment.severity, DiagnosticSeverity.Warning);
  assert.match(String(comment.message), /hjson.*json\.load/);
  assert.equal(textAt(docOf(text), comment), '// tuned for 8 GPUs');
  assert.equal(withCode(own, 'jsonc-trailing-comma').length, 1);
  // json: VS Code reports both; jsonc: VS Code accepts comments (we warn) and warns on trailing commas.
  assert.deepEqual(codesOf(diagnose(text, { languageId: 'json' })).filter((c) => c.startsWith('jsonc')), []);
  assert.deepEqual(codesOf(diagnose(text, { languageId: 'jsonc' })).filter((c) => c.startsWith('jsonc')), ['jsonc-comment']);
  assert.deepEqual(codesOf(diagnose(text, { settings: { warnOnJsonc: false } })).filter((c) => c.startsWith('jsonc')), []);
});

test('duplicate keys are errors (DeepSpeed raises) on the repeated key; in json/jsonc VS Code already flags them', () => {
  const text = '{"train_micro_batch_size_per_gpu": 4, "bf16": {"enabled": true}, "train_micro_batch_size_per_gpu": 8}';
  const document = docOf(text);
  const [duplicate] = withCode(validateConfig(parses, document, defaultSettings), 'duplicate-key');
  assert.equal(duplicate.severity, DiagnosticSeverity.Error);
  assert.equal(duplicate.range.start.character, text.lastIndexOf('"train_micro'));
  assert.match(String(duplicate.message), /ValueError/);
  assert.deepEqual(withCode(diagnose(text, { languageId: 'json' }), 'duplicate-key'), []);
  assert.deepEqual(withCode(diagnose(text, { languageId: 'jsonc' }), 'duplicate-key'), []);
});

test('a key repeated inside an object that is itself a repeated key: no fix that would edit the other, kept object', () => {
  // The path of the inner duplicate reaches the LAST "zero_optimization" (as DeepSpeed reads it), not the first one
  // that holds the repeated "stage": removing "stage" there would take the kept value away.
  const text = '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "stage": 3}, "zero_optimization": {"stage": 1}}';
  const document = docOf(text);
  const duplicates = withCode(validateConfig(parses, document, defaultSettings), 'duplicate-key');
  assert.deepEqual(duplicates.map((d) => textAt(document, d)), ['"stage"', '"zero_optimization"']);
  const [inner, outer] = duplicates.map((d) => readDiagnosticData(d.data)!.fixes);
  assert.deepEqual(inner, []);
  assert.equal(applyFix(text, outer[0], undefined), '{"train_batch_size": 8, "zero_optimization": {"stage": 1}}');
  // Also through an array (the same object under a repeated key further up).
  const nested = '{"train_batch_size": 8, "a": [{"b": 1, "b": 2}], "a": []}';
  const [inArray] = withCode(validateConfig(parses, docOf(nested), defaultSettings), 'duplicate-key');
  assert.deepEqual(readDiagnosticData(inArray.data)!.fixes, []);
  // In the kept object the fix stays.
  const kept = '{"train_batch_size": 8, "zero_optimization": {"stage": 2}, "zero_optimization": {"stage": 3, "stage": 1}}';
  const [, keptInner] = withCode(validateConfig(parses, docOf(kept), defaultSettings), 'duplicate-key');
  assert.equal(applyFix(kept, readDiagnosticData(keptInner.data)!.fixes[0], undefined), '{"train_batch_size": 8, "zero_optimization": {"stage": 2}, "zero_optimization": {"stage": 1}}');
});

test('a BOM gets a warning (json.load rejects it) and a CRLF file keeps exact ranges', () => {
  const text = '\ufeff{\r\n  "zero_optimization": {\r\n    "stage": 4\r\n  },\r\n  "train_batch_size": 8\r\n}\r\n';
  const document = docOf(text);
  const diagnostics = validateConfig(parses, document, defaultSettings);
  assert.equal(withCode(diagnostics, 'utf8-bom').length, 1);
  const [stage] = withCode(diagnostics, 'invalid-value');
  assert.equal(textAt(document, stage), '4');
  assert.deepEqual(stage.range.start, { line: 2, character: 13 });
});

test('schema errors: plain messages on the value, with allowed values, types and bounds', () => {
  const text = JSON.stringify(configWith({ zero_optimization: { stage: 5, overlap_comm: 'yes please', offload_optimizer: { device: 'gpu' } }, train_micro_batch_size_per_gpu: 0 }), null, 2);
  const document = docOf(text);
  const diagnostics = validateConfig(parses, document, defaultSettings);
  const byText = new Map(diagnostics.map((d) => [textAt(document, d), d]));
  assert.match(String(byText.get('5')?.message), /"stage" must be one of 0, 1, 2, 3 or "auto"; got 5/);
  assert.match(String(byText.get('"gpu"')?.message), /"device" must be one of "none", "cpu", "nvme"/);
  assert.equal(byText.get('"yes please"')?.code, 'invalid-type');
  assert.match(String(byText.get('"yes please"')?.message), /true or false/);
  assert.equal(byText.get('0')?.code, 'out-of-range');
});

test('bounds DeepSpeed never checks are warnings that say what the value does', () => {
  // Audit 12a: flops_profiler and comet values outside the schema's range run (profiler.py:378, :494-499; comet.py:88).
  const text = '{"train_micro_batch_size_per_gpu": 1, "flops_profiler": {"enabled": true, "profile_step": 0, "top_modules": 0, "module_depth": -2, "recompute_fwd_factor": -1}, "comet": {"enabled": true, "samples_log_interval": 0}}';
  const diagnostics = diagnose(text);
  assert.deepEqual(codesOf(diagnostics), ['out-of-range', 'out-of-range', 'out-of-range', 'out-of-range']);
  assert.ok(diagnostics.every((d) => d.severity === DiagnosticSeverity.Warning));
  assert.equal(diagnostics.find((d) => String(d.message).startsWith('"top_modules"'))?.message, '"top_modules" should be >= 1; got 0. DeepSpeed does not check it: 0 lists no modules in the aggregated profile, and a negative n lists all but the last n of each depth (a slice [:n], profiler.py:495-499).');
});

test('unknown keys: error with did-you-mean in strict (pydantic) sections, warning at the top level', () => {
  const text = JSON.stringify(configWith({ zero_optimization: { stgae: 3 }, gradient_acumulation_steps: 4 }), null, 2);
  const document = docOf(text);
  const diagnostics = validateConfig(parses, document, defaultSettings);
  const [strict] = withCode(diagnostics, 'unknown-key');
  assert.equal(strict.severity, DiagnosticSeverity.Error);
  assert.equal(textAt(document, strict), '"stgae"');
  assert.match(String(strict.message), /DeepSpeed rejects unknown keys in "zero_optimization".*Did you mean "stage"\?/);
  assert.deepEqual((strict.data as { candidates: string[] }).candidates[0], 'stage');
  const [loose] = withCode(diagnostics, 'ignored-key');
  assert.equal(loose.severity, DiagnosticSeverity.Warning);
  assert.match(String(loose.message), /ignored by DeepSpeed.*"gradient_accumulation_steps"/);
});

test('unknown scheduler and optimizer params: keyword arguments of a constructor, which raises a TypeError', () => {
  const diagnostics = diagnose(
    configWith({
      scheduler: { type: 'WarmupLR', params: { warmup_num_step: 100, last_batch_iteration: 'auto' } },
      optimizer: { type: 'AdamW', params: { lr: 1e-3, weight_dacay: 0.1 } },
    }),
  );
  const about = (key: string) => withCode(diagnostics, 'unknown-key').find((d) => String(d.message).startsWith(`Unknown key "${key}"`))!;
  const scheduler = about('warmup_num_step');
  const optimizer = about('weight_dacay');
  assert.equal(scheduler.severity, DiagnosticSeverity.Error);
  assert.match(String(scheduler.message), /^Unknown key "warmup_num_step" in "scheduler\.params": DeepSpeed passes these keys to WarmupLR\(optimizer, \*\*params\) as keyword arguments, and one it does not take stops the run with a TypeError\. Did you mean "warmup_num_steps"\?$/);
  // torch.optim.AdamW (with torch_adam) takes arguments FusedAdam does not: a warning, not an error.
  assert.equal(optimizer.severity, DiagnosticSeverity.Warning);
  assert.match(String(optimizer.message), /^Unknown key "weight_dacay" in "optimizer\.params": DeepSpeed passes these keys to FusedAdam .* TypeError\. Did you mean "weight_decay"\?$/);
  assert.deepEqual(withCode(diagnostics, 'ignored-key'), []);
  // An unfilled "auto" is not dropped as in a pydantic section: the scheduler gets the text.
  assert.deepEqual(withCode(diagnostics, 'auto-dropped'), []);
  assert.match(String(withCode(diagnostics, 'auto-not-filled')[0]?.message), /"last_batch_iteration".*gets the string "auto" and fails/);
  // A "_comment" would reach the constructor too.
  const comment = diagnose(configWith({ optimizer: { type: 'AdamW', params: { lr: 1e-3, _comment: 'tuned' } } }));
  assert.match(String(withCode(comment, 'unknown-key')[0]?.message), /^Unknown key "_comment" in "optimizer\.params": DeepSpeed passes these keys to FusedAdam/);
  // Nor is a fraction a pydantic refusal there: WarmupLR's own isinstance(int) check raises (lr_schedules.py:708-709).
  const [fraction] = withCode(diagnose(configWith({ scheduler: { type: 'WarmupLR', params: { warmup_num_steps: 100.5 } } })), 'integer-fraction');
  assert.equal(fraction.message, '"warmup_num_steps" must be a whole number: DeepSpeed expects a Python int here, and 100.5 is not one.');
  assert.equal(fraction.severity, DiagnosticSeverity.Error);
  assert.match(String(fraction.codeDescription?.href), /\/deepspeed\/runtime\/lr_schedules\.py#L708-L709$/);
});

test('a fraction where a plain-dict reader takes the float as it is: a warning, nothing raises', () => {
  const [fraction] = withCode(diagnose(configWith({ steps_per_print: 10.5 })), 'integer-fraction');
  assert.equal(fraction.severity, DiagnosticSeverity.Warning);
  assert.match(String(fraction.codeDescription?.href), /^https:\/\/www\.deepspeed\.ai\//);
});

test('unknown keys that belong elsewhere say where', () => {
  const [d] = withCode(diagnose(configWith({ offload_optimizer: { device: 'cpu' } })), 'ignored-key');
  assert.match(String(d.message), /belongs in "zero_optimization"/);
});

test('"_comment" keys at loose levels are accepted as annotations', () => {
  assert.deepEqual(codesOf(diagnose(configWith({ _comment: 'ZeRO-2 for 8xA100' }))), []);
});

test('"auto" where HF or accelerate fill it is fine; deprecations and aliases are flagged on the key', () => {
  assert.deepEqual(codesOf(diagnose(configWith({ zero_optimization: { stage: 3, stage3_prefetch_bucket_size: 'auto', stage3_param_persistence_threshold: 'auto', allgather_partitions: undefined, allgather_bucket_size: undefined } }))), []);
  const text = JSON.stringify(configWith({ zero_optimization: { stage: 3, stage3_gather_fp16_weights_on_model_save: true, allgather_partitions: undefined, allgather_bucket_size: undefined } }), null, 2);
  const document = docOf(text);
  const [deprecated] = withCode(validateConfig(parses, document, defaultSettings), 'deprecated-key');
  assert.equal(textAt(document, deprecated), '"stage3_gather_fp16_weights_on_model_save"');
  assert.equal((deprecated.data as { replacement: string }).replacement, 'zero_optimization.stage3_gather_16bit_weights_on_model_save');
});

test('robustness: half-typed JSON at every cut of a real config gets an answer', () => {
  const text = readFileSync(path.join(fixtures, 'presets/swift-zero3_offload.json'), 'utf8');
  for (let cut = 0; cut <= text.length; cut += 7) {
    const diagnostics = diagnose(text.slice(0, cut));
    assert.ok(Array.isArray(diagnostics));
    assert.deepEqual(withCode(diagnostics, 'internal-error'), []);
  }
});

test('robustness: 10 MB file, 10,000 nesting levels and binary bytes answer with a notice, not a crash', () => {
  const huge = diagnose('{"train_batch_size": 8, "x": "' + 'y'.repeat(10 * 1024 * 1024) + '"}');
  assert.deepEqual(codesOf(huge), ['file-too-large']);
  assert.equal(huge[0].severity, DiagnosticSeverity.Information);
  const deep = diagnose('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
  assert.deepEqual(codesOf(deep), ['nesting-too-deep']);
  const binary = diagnose(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256)).toString('latin1'));
  assert.ok(binary.length > 0);
  assert.deepEqual(withCode(binary, 'internal-error'), []);
});

test('robustness: a script saved as .json (a syntax error per token) or 300,000 comments: the first 100 of each and a note', () => {
  // Before the cap, the hundreds of thousands of diagnostics overflowed push(...spread): no answer at all.
  const script = diagnose('deepspeed train.py ' + '--x '.repeat(200_000));
  assert.equal(withCode(script, 'json-syntax').length, 100);
  assert.match(String(withCode(script, 'too-many-problems')[0].message), /first 100 of \d+ syntax errors/);
  const comments = diagnose('{\n' + '// c\n'.repeat(300_000) + '"train_batch_size": 8}');
  assert.equal(withCode(comments, 'jsonc-comment').length, 100);
  assert.match(String(withCode(comments, 'too-many-problems')[0].message), /first 100 of 300000 comments/);
});

test('a top level that is not an object is an error', () => {
  assert.deepEqual(codesOf(diagnose('[1, 2]')), ['config-not-object']);
});

test('did-you-mean: transpositions, case and separators, half-typed long keys; nothing for unrelated words', () => {
  const keys = ['stage', 'offload_param', 'offload_optimizer', 'stage3_prefetch_bucket_size', 'reduce_bucket_size', 'overlap_comm'];
  assert.equal(editDistance('stgae', 'stage'), 1);
  assert.deepEqual(didYouMean('stgae', keys), ['stage']);
  assert.deepEqual(didYouMean('Overlap-Comm', keys), ['overlap_comm']);
  assert.deepEqual(didYouMean('offload_parameters', keys), ['offload_param']);
  assert.deepEqual(didYouMean('stage3_prefetch', keys), ['stage3_prefetch_bucket_size']);
  assert.deepEqual(didYouMean('learning_rate', keys), []);
});

test('the ZeRO stage as DeepSpeed resolves it: legacy booleans, numeric strings, "auto", invalid', () => {
  const stageOf = (value: unknown) => {
    const document = docOf({ zero_optimization: value });
    return new ConfigView(document, parses.parse(document)).stage();
  };
  assert.equal(stageOf({ stage: 3 }), 3);
  assert.equal(stageOf({ stage: '2' }), 2);
  assert.equal(stageOf({ stage: true }), 1);
  assert.equal(stageOf({}), 0);
  assert.equal(stageOf(true), 1);
  assert.equal(stageOf(false), 0);
  assert.equal(stageOf(null), 0);
  assert.equal(stageOf({ stage: 'auto' }), 'auto');
  assert.equal(stageOf({ stage: 4 }), undefined);
});

test('bools as text: pydantic reads its own words, a plain-dict key gets the string, other text is a type error', () => {
  const text = JSON.stringify(configWith({ zero_optimization: { overlap_comm: 'OFF', contiguous_gradients: 'maybe', reduce_scatter: 0 }, wall_clock_breakdown: 'no', dump_state: 2 }), null, 2);
  const document = docOf(text);
  const byText = new Map(validateConfig(parses, document, defaultSettings).map((d) => [textAt(document, d), d]));
  const words = byText.get('"OFF"');
  assert.equal(words?.code, 'boolean-as-string');
  assert.equal(words?.severity, DiagnosticSeverity.Warning);
  assert.match(String(words?.message), /pydantic config reads it as false/);
  assert.deepEqual((words?.data as any).fixes, [{ id: 'set-value', title: 'Write it as false', ops: [{ op: 'set', path: ['zero_optimization', 'overlap_comm'], value: false }], preferred: true }]);
  // pydantic-core's word list has no "maybe": bool_parsing, so the schema's type error stands.
  assert.equal(byText.get('"maybe"')?.code, 'invalid-type');
  assert.equal(byText.get('0')?.code, 'boolean-as-number');
  assert.equal(byText.get('0')?.severity, DiagnosticSeverity.Hint);
  // wall_clock_breakdown's reader tests the string's truth: it misreads "no" as on, but nothing raises.
  const plain = byText.get('"no"');
  assert.equal(plain?.code, 'boolean-as-string');
  assert.equal(plain?.severity, DiagnosticSeverity.Warning);
  assert.match(String(plain?.message), /plain Python value, not through pydantic, so it gets the string itself, not false/);
  assert.equal(byText.get('2')?.code, 'invalid-type');
});

test('bools as text where DeepSpeed asserts a bool: an error citing that line, once the section is read', () => {
  const diagnostics = (enabled: boolean) => {
    const text = JSON.stringify(configWith({ expert_parallel: { enabled, validate_folding_routing: 'true', has_shared_experts: 1 } }), null, 2);
    const document = docOf(text);
    return new Map(validateConfig(parses, document, defaultSettings).map((d) => [textAt(document, d), d]));
  };
  const on = diagnostics(true);
  assert.equal(on.get('"true"')?.code, 'boolean-as-string');
  assert.equal(on.get('"true"')?.severity, DiagnosticSeverity.Error);
  assert.match(String(on.get('"true"')?.codeDescription?.href), /\/deepspeed\/module_inject\/auto_ep_config\.py#L115-L116$/);
  assert.equal(on.get('1')?.code, 'boolean-as-number');
  assert.equal(on.get('1')?.severity, DiagnosticSeverity.Error);
  assert.match(String(on.get('1')?.codeDescription?.href), /auto_ep_config\.py#L212-L213$/);
  // Disabled, the engine never reads the section.
  const off = diagnostics(false);
  assert.equal(off.get('"true"')?.severity, DiagnosticSeverity.Warning);
  assert.equal(off.get('1')?.severity, DiagnosticSeverity.Warning);
});

test('a value outside an enum DeepSpeed falls back from is a warning that names the fallback', () => {
  const scheduler = (warmup_type: unknown) => JSON.stringify(configWith({ scheduler: { type: 'WarmupLR', params: { warmup_num_steps: 10, warmup_type } } }), null, 2);
  const [other] = withCode(diagnose(scheduler('cosine')), 'invalid-value');
  assert.equal(other.severity, DiagnosticSeverity.Warning);
  assert.equal(other.message, '"warmup_type" should be one of "log", "linear"; DeepSpeed does not know the string "cosine" and uses "log" instead.');
  assert.deepEqual((other.data as any).fixes.map((f: any) => f.title), ['Use "log"', 'Use "linear"']);
  const [auto] = withCode(diagnose(scheduler('auto')), 'auto-not-filled');
  assert.equal(auto.severity, DiagnosticSeverity.Warning);
  assert.match(String(auto.message), /DeepSpeed does not know the value and uses "log" instead/);
  // A list cannot be looked up in Python's set of known values: that one still fails.
  const listed = diagnose(scheduler(['log'])).filter((d) => JSON.stringify((d.data as any).path) === '["scheduler","params","warmup_type"]');
  assert.deepEqual(listed.map((d) => d.severity), [DiagnosticSeverity.Error]);
});

test('a value outside an enum offers the allowed values, the one it resembles first and preferred', () => {
  const offload = (device: unknown) => JSON.stringify(configWith({ zero_optimization: { stage: 3, offload_param: { device } } }), null, 2);
  const [cased] = withCode(diagnose(offload('CPU')), 'invalid-value');
  assert.deepEqual((cased.data as any).fixes.map((f: any) => [f.title, f.preferred === true]), [['Use "cpu"', true], ['Use "none"', false], ['Use "nvme"', false]]);
  const [typo] = withCode(diagnose(offload('nvm')), 'invalid-value');
  assert.equal((typo.data as any).fixes[0].title, 'Use "nvme"');
  assert.equal((typo.data as any).fixes[0].preferred, true);
  const [far] = withCode(diagnose(offload('disk')), 'invalid-value');
  assert.ok((far.data as any).fixes.every((f: any) => !f.preferred));
});

test('numbers in quotes: a hint where pydantic parses them, a type error once they are out of range', () => {
  const text = JSON.stringify(configWith({ zero_optimization: { stage: 3, reduce_bucket_size: '-5', offload_optimizer: { device: 'cpu', ratio: '0.25' } }, fp16: { enabled: true, loss_scale: '-1' } }), null, 2);
  const document = docOf(text);
  const byText = new Map(validateConfig(parses, document, defaultSettings).map((d) => [textAt(document, d), d]));
  const ratio = byText.get('"0.25"');
  assert.equal(ratio?.code, 'number-as-string');
  assert.deepEqual((ratio?.data as any).fixes[0].ops, [{ op: 'set', path: ['zero_optimization', 'offload_optimizer', 'ratio'], value: 0.25 }]);
  // DeepSpeed refuses loss_scale < 0 and pydantic reduce_bucket_size < 0: no "clearer as a number" hint there.
  assert.equal(byText.get('"-1"')?.code, 'invalid-type');
  assert.equal(byText.get('"-5"')?.code, 'invalid-type');
});

test('a torch.optim optimizer: its params reach the class as they are, so no key is called unknown or ignored', () => {
  const optimizer = (type: string) => diagnose(configWith({ optimizer: { type, params: { lr: 0.1, momentum: 0.9, nesterov: true } } }));
  for (const type of ['SGD', 'RMSprop', 'MuSGD']) {
    const params = optimizer(type).filter((d) => ((d.data as any).path ?? []).join('.').startsWith('optimizer.params'));
    assert.deepEqual(params.map((d) => d.code), [], type);
  }
  // DeepSpeed's own Adam does not take momentum: still flagged.
  assert.equal(withCode(optimizer('AdamW'), 'unknown-key').length, 2);
});

test('optimizer params are those of the chosen type: Lion takes no eps and Adagrad no betas', () => {
  const params = { lr: 1e-4, betas: [0.9, 0.99], eps: 'auto', weight_decay: 0.01 };
  const unknown = (type: string) => withCode(diagnose(configWith({ optimizer: { type, params } })), 'unknown-key').map((d) => (d.data as any).path.at(-1));
  assert.deepEqual(unknown('Lion'), ['eps']);
  assert.deepEqual(unknown('Adagrad'), ['betas']);
  assert.deepEqual(unknown('AdamW'), []);
});

test('a deprecation message that continues the sentence reads as one', () => {
  const [pin] = withCode(diagnose(configWith({ zero_optimization: { stage: 2, cpu_offload_use_pin_memory: true } })), 'deprecated-key');
  assert.equal(pin.message, '"cpu_offload_use_pin_memory" is deprecated and ignored: set "pin_memory" inside offload_optimizer / offload_param.');
});

test('the walk checks only the last of repeated keys, as DeepSpeed reads them; a config without any checks every key', () => {
  const unknown = (text: string) => withCode(diagnose(text), 'unknown-key').map((d) => readDiagnosticData(d.data)!.path);
  assert.deepEqual(unknown('{"train_batch_size": 8, "fp16": {"bogus_one": 1}, "fp16": {"enabled": true}}'), []);
  assert.deepEqual(unknown('{"train_batch_size": 8, "fp16": {"enabled": true}, "fp16": {"bogus_one": 1}}'), [['fp16', 'bogus_one']]);
  assert.deepEqual(unknown('{"train_batch_size": 8, "fp16": {"bogus_one": 1}, "bf16": {"bogus_two": 1}}'), [['fp16', 'bogus_one'], ['bf16', 'bogus_two']]);
});
