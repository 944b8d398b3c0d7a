import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { diagnosticRegistry, isCodeOf, type DiagnosticCode } from '../../server/src/diagnostics/registry';
import { ACCELERATE, BASH, DS, LLAMA_FACTORY, SWIFT, TRANSFORMERS, isCitation, upstreamLink } from '../../server/src/diagnostics/upstream';
import { makeDiagnostic } from '../../server/src/diagnostics/makeDiagnostic';
import { getLanguageService } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

const sources = path.resolve(__dirname, '../../server/src');
const fixtures = path.resolve(__dirname, '../fixtures');

function filesBelow(folder: string, keep: (file: string) => boolean): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    return statSync(file).isDirectory() ? filesBelow(file, keep) : keep(file) ? [file] : [];
  });
}

const sourceFiles = filesBelow(sources, (f) => f.endsWith('.ts')).map((file) => ({ file: path.relative(sources, file), text: readFileSync(file, 'utf8') }));
const registered = Object.keys(diagnosticRegistry) as DiagnosticCode[];

test('registry: every entry has a domain, a severity and an https docs link', () => {
  assert.ok(registered.length > 100, `${registered.length} codes`);
  for (const code of registered) {
    const info = diagnosticRegistry[code];
    assert.match(code, /^[a-z0-9]+(-[a-z0-9]+)*$/, code);
    assert.ok(['ds-config', 'launch', 'memory', 'file'].includes(info.domain), code);
    assert.ok(Object.values(DiagnosticSeverity).includes(info.severity), code);
    assert.equal(new URL(info.href).protocol, 'https:', `${code}: ${info.href}`);
  }
  assert.ok(isCodeOf('duplicate-key', 'ds-config'));
  assert.ok(!isCodeOf('zero-optimization-required', 'ds-config'), 'the launch rule is not a ds_config fix');
  assert.ok(!isCodeOf('toString', 'ds-config'), 'not a key of Object.prototype');
});

test('registry: only makeDiagnostic builds a zero-lens diagnostic, so the type system checks every code', () => {
  const builders = sourceFiles.filter((s) => /source:\s*'zero-lens'|codeDescription\s*:/.test(s.text)).map((s) => s.file);
  assert.deepEqual(builders, [path.join('diagnostics', 'makeDiagnostic.ts')]);
});

test('registry: every registered code is emitted somewhere in the sources', () => {
  const elsewhere = sourceFiles.filter((s) => !s.file.startsWith('diagnostics' + path.sep));
  const unused = registered.filter((code) => !elsewhere.some((s) => s.text.includes(`'${code}'`)));
  assert.deepEqual(unused, []);
});

test('registry: what the checks emit on every fixture is registered and links to https', async () => {
  const files = filesBelow(fixtures, (f) => /\.(json|sh|ya?ml)$/.test(f));
  const byName = Object.fromEntries(files.map((f) => [path.relative(fixtures, f), readFileSync(f, 'utf8')]));
  const ls = getLanguageService(memoryHosts(byName));
  const settings = withDefaults({ gpuMemoryGiB: 8, model: 'Qwen/Qwen3-8B', gpusPerNode: 2 });
  const seen = new Set<string>();
  for (const [name, text] of Object.entries(byName)) {
    const languageId = name.endsWith('.sh') ? 'shellscript' : name.endsWith('.json') ? 'json' : 'yaml';
    const document = TextDocument.create(URI.file(path.join(workspaceRoot, name)).toString(), languageId, 1, text);
    for (const d of await ls.doValidation(document, settings)) {
      assert.ok(Object.prototype.hasOwnProperty.call(diagnosticRegistry, String(d.code)), `${name}: ${String(d.code)} is not registered`);
      assert.equal(new URL(d.codeDescription!.href).protocol, 'https:', `${name}: ${String(d.code)}`);
      seen.add(String(d.code));
    }
  }
  assert.ok(seen.size >= 10, `codes seen: ${[...seen].join(', ')}`);
});

/**
 * Codes some check raises to error severity although it fails nowhere upstream, each with the reason. Nothing
 * else may be an error without citing the line that raises.
 */
const errorsWithoutRaise: Partial<Record<DiagnosticCode, string>> = {
  'torchrun-invalid-value':
    "torchrun raises on it (torch/distributed/run.py: determine_local_world_size's ValueError \"Unsupported nproc_per_node value\", parse_min_max_nnodes' RuntimeError), but PyTorch's repository is too large to fetch here, so no line is pinned",
  'estimate-exceeds-gpu-memory': 'an error only under `zero-lens check --gpu-memory`: the verdict is against the capacity the user gives, not a line upstream',
  'estimate-exceeds-cpu-memory': 'an error only under `zero-lens check --cpu-memory`: the verdict is against the capacity the user gives, not a line upstream',
};

/** Codes a check emits at error severity although the registry gives a weaker one (`diagnostic('x', 'error'` or `? 'error'`). */
function codesRaisedToError(): DiagnosticCode[] {
  const found = new Set<string>();
  for (const { text } of sourceFiles) {
    for (const m of text.matchAll(/diagnostic\(\s*'([a-z0-9-]+)',\s*([^,]*'error'[^,]*),/g)) found.add(m[1]);
    // The CLI's verdicts: codes it turns into errors by name.
    for (const m of text.matchAll(/verdicts = new Set\(\[([^\n]*)\]\)/g)) for (const c of m[1].matchAll(/'([a-z0-9-]+)'/g)) found.add(c[1]);
  }
  return [...found].filter((c) => diagnosticRegistry[c as DiagnosticCode]?.severity !== DiagnosticSeverity.Error) as DiagnosticCode[];
}

test('every error cites the upstream line that raises, a well-formed owner/repo@commit:path#L', () => {
  const errors = registered.filter((code) => diagnosticRegistry[code].severity === DiagnosticSeverity.Error);
  const raised = codesRaisedToError();
  assert.ok(errors.length >= 80, `${errors.length} error codes`);
  assert.ok(raised.includes('out-of-range') && raised.includes('invalid-value') && raised.includes('estimate-exceeds-gpu-memory'), `the scan finds per-case errors: ${raised.join(', ')}`);
  const uncited = [...errors, ...raised].filter((code) => !('raises' in diagnosticRegistry[code]) && !errorsWithoutRaise[code]);
  assert.deepEqual(uncited, [], 'error codes without a citation');
  for (const code of [...errors, ...raised]) {
    const raises = (diagnosticRegistry[code] as { raises?: string }).raises;
    if (raises === undefined) continue;
    assert.ok(isCitation(raises), `${code}: ${raises}`);
    // A commit, or the release tag whose published package the lines were read from (transformers v4.57.6).
    assert.match(upstreamLink(raises), /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/([0-9a-f]{8,40}|v\d+\.\d+\.\d+)\/[\w./-]+#L\d+(-L\d+)?$/, code);
  }
  // An exception is a real one: the code is an error somewhere and has no citation.
  for (const code of Object.keys(errorsWithoutRaise) as DiagnosticCode[]) {
    assert.ok(raised.includes(code) || errors.includes(code), `${code} is never an error`);
    assert.ok(!('raises' in diagnosticRegistry[code]), `${code} is cited after all`);
  }
});

test('the lines a check cites per case are well-formed citations too', () => {
  const pinned: Record<string, string> = { DS, ACCELERATE, LLAMA_FACTORY, SWIFT, TRANSFORMERS, BASH };
  let count = 0;
  for (const { file, text } of sourceFiles) {
    for (const m of text.matchAll(/`\$\{(DS|ACCELERATE|LLAMA_FACTORY|SWIFT|TRANSFORMERS|BASH)\}:([^`$]*)(\$\{[^}]*\})?`/g)) {
      if (m[3]) continue; // a line picked per case: the pieces are checked where they are listed
      count++;
      // A file the check completes with a line per case (`${scheduler}${scheduleReads[type]}`) has none yet.
      const line = m[2].includes('#') ? '' : '#L1';
      assert.ok(isCitation(`${pinned[m[1]]}:${m[2]}${line}`), `${file}: ${m[0]}`);
    }
  }
  assert.ok(count >= 90, `${count} citations`);
  assert.ok(!isCitation(`${DS}:deepspeed/runtime/engine.py#L12-3`), 'a range runs forward');
  assert.ok(!isCitation(`${DS}:deepspeed/runtime/engine.py`), 'a citation names its line');
});

test('an error links to the line that raises; the same code at a weaker severity links to the docs', () => {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const error = makeDiagnostic('batch-size-missing', range, 'm', { version: 1, textLength: 1, fixes: [] });
  assert.equal(error.codeDescription?.href, 'https://github.com/deepspeedai/DeepSpeed/blob/edaa7221267243c7be7fb49c5d5f5c4fb97b4641/deepspeed/runtime/config.py#L985');
  const weaker = makeDiagnostic('batch-size-missing', range, 'm', { version: 1, textLength: 1, fixes: [] }, { severity: 2 });
  assert.match(String(weaker.codeDescription?.href), /^https:\/\/www\.deepspeed\.ai\//);
  // A check that knows this case fails at another of the code's sites links there.
  const elsewhere = makeDiagnostic('missing-key', range, 'm', { version: 1, textLength: 1, fixes: [] }, { raises: `${DS}:deepspeed/elasticity/config.py#L51-58` });
  assert.equal(elsewhere.codeDescription?.href, 'https://github.com/deepspeedai/DeepSpeed/blob/edaa7221267243c7be7fb49c5d5f5c4fb97b4641/deepspeed/elasticity/config.py#L51-L58');
});
