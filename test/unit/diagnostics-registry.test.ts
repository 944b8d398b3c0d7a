import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { diagnosticRegistry, isCodeOf, upstreamLink, type DiagnosticCode } from '../../server/src/diagnostics/registry';
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

test('errors cite the upstream line that raises: a well-formed citation becomes the link of an error', async () => {
  const cited = Object.entries(diagnosticRegistry).filter(([, info]) => 'raises' in info && info.raises);
  assert.ok(cited.length >= 20, `${cited.length} cited`);
  for (const [code, info] of cited) {
    // A commit, or the release tag whose published package the lines were read from (transformers v4.57.6).
    assert.match(upstreamLink((info as { raises: string }).raises), /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/([0-9a-f]{8,40}|v\d+\.\d+\.\d+)\/[\w./-]+#L\d+(-L\d+)?$/, code);
  }
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const error = makeDiagnostic('batch-size-missing', range, 'm', { version: 1, textLength: 1, fixes: [] });
  assert.equal(error.codeDescription?.href, 'https://github.com/deepspeedai/DeepSpeed/blob/edaa7221267243c7be7fb49c5d5f5c4fb97b4641/deepspeed/runtime/config.py#L985');
  // The same code at a weaker severity (its consumer unknown) links to the docs.
  const weaker = makeDiagnostic('batch-size-missing', range, 'm', { version: 1, textLength: 1, fixes: [] }, { severity: 2 });
  assert.match(String(weaker.codeDescription?.href), /^https:\/\/www\.deepspeed\.ai\//);
});
