import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCheck } from '../../server/src/cli/check';

/**
 * `zero-lens check examples/scripts` (through the real CLI code and the facade) reports EXACTLY the problems
 * each example lists in its header (`#   line N code …`), and nothing in the clean examples.
 */
const repo = path.resolve(__dirname, '../..');
const folder = path.join(repo, 'examples/scripts');

function planted(file: string): string[] {
  const text = readFileSync(path.join(folder, file), 'utf8');
  return [...text.matchAll(/^#\s+line (\d+)\s+([a-z0-9-]+)/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
}

test('zero-lens check examples/scripts reports exactly the planted problems', async () => {
  let out = '';
  const code = await runCheck(['examples/scripts', '--format', 'json'], { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd: repo });
  const reports = JSON.parse(out) as { file: string; diagnostics: { range: { start: { line: number } }; code: string }[] }[];
  const found = new Map(reports.map((r) => [path.basename(r.file), r.diagnostics.map((d) => `${d.range.start.line + 1} ${d.code}`).sort()]));
  const files = readdirSync(folder).filter((f) => /\.(sh|ya?ml)$/.test(f));
  assert.ok(files.filter((f) => f.startsWith('planted_')).length >= 4);
  assert.ok(files.filter((f) => !f.startsWith('planted_')).length >= 5);
  for (const file of files) {
    const expected = planted(file);
    assert.equal(file.startsWith('planted_'), expected.length > 0, `${file}: planted files (only) list their problems`);
    assert.deepEqual(found.get(file) ?? [], expected, file);
  }
  assert.equal(code, 1, 'errors found → exit status 1');
});
