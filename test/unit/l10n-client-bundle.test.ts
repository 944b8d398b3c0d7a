/**
 * The extension host gets only the client's share of the catalog (dist/l10n, written by the build): every
 * message the client's code uses and nothing else, where package.json's "l10n" tells VS Code to look, and in
 * the VSIX instead of the whole catalog (which the core already bundles for the server and the CLI).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { bundleLocales, clientSourceFiles, readBundle, repoRoot, scan, sourceFiles, writeClientBundles } from '../../scripts/l10n';

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;

test('the client bundle holds exactly the messages of client/src and the shared protocol, with the catalog’s texts', () => {
  // The layer rule (check:layers) lets the client import server/src/protocol/ only: its messages are the client's too.
  const expected = new Set(scan(sourceFiles(['client/src', 'server/src/protocol'])).messages.map((m) => m.key));
  const serverOnly = scan(sourceFiles(['server/src'])).messages.map((m) => m.key).filter((key) => !expected.has(key));
  assert.ok(expected.size > 100 && serverOnly.length > 500, `client ${expected.size}, server only ${serverOnly.length}`);
  assert.ok(expected.has('{0} GPUs'), 'a label of the shared protocol the sidebar shows');

  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-l10n-'));
  try {
    const files = writeClientBundles(dir);
    assert.deepEqual(readdirSync(dir).sort(), bundleLocales().map((locale) => `bundle.l10n.${locale}.json`));
    for (const [i, locale] of bundleLocales().entries()) {
      const bundle = readJson(files[i]);
      const catalog = readBundle(locale);
      assert.deepEqual(Object.keys(bundle).sort(), [...expected].sort(), `${locale}: the client bundle's ids`);
      for (const [key, text] of Object.entries(bundle)) assert.equal(text, catalog[key], `${locale}: ${key}`);
      assert.deepEqual(serverOnly.filter((key) => key in bundle), [], `${locale}: server messages in the client bundle`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the client’s sources are what dist/client.js bundles: client/src and server/src/protocol, no other server code', () => {
  const files = clientSourceFiles().map((file) => path.relative(repoRoot, file).split(path.sep).join('/'));
  assert.ok(files.includes('client/src/extension.ts') && files.includes('client/src/sidebar/viewModel.ts'));
  assert.ok(files.some((file) => file.startsWith('server/src/protocol/')));
  assert.deepEqual(files.filter((file) => !/^(client\/src|server\/src\/protocol)\//.test(file)), []);
});

test('VS Code looks for the client bundle where the build writes it, and the VSIX ships it instead of l10n/', () => {
  const manifest = readJson(path.join(repoRoot, 'package.json'));
  const build = readFileSync(path.join(repoRoot, 'scripts', 'build.mjs'), 'utf8');
  const written = /'client-bundle', '([^']+)'/.exec(build)?.[1];
  assert.equal(manifest.l10n, `./${written}`);
  const ignore = readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8').split('\n');
  assert.ok(ignore.includes('!dist/**'), 'dist/ ships');
  assert.ok(!ignore.some((line) => /^!l10n\b/.test(line)), 'the whole catalog l10n/ does not ship');
});
