/** README's command-line examples run as written from the repository root (in this process, through the CLI's main). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from './cli-helpers';

const root = path.resolve(__dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## The command line'));
const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const examples = block
  .split('\n')
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line.startsWith('node dist/cli.js '));

test('README lists command-line examples', () => assert.ok(examples.length >= 5, block));

for (const example of examples) {
  test(`README: ${example}`, async () => {
    const args = example.slice('node dist/cli.js '.length).split(/\s+/);
    const r = await runCli(args, root);
    // 0: fine, 1: problems found (what check is for); 2 would be a usage error or a file that is not there.
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.err}`);
    assert.ok(r.out.length > 0);
  });
}
