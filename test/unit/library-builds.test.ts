/**
 * The builds of libraries the production bundles take in place of the packages' entry points
 * (scripts/lib/libraryBuilds.mjs): each is what the bundle imports from the package, and behaves as the package does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { libraryBuilds } from '../../scripts/lib/libraryBuilds.mjs';

const root = path.resolve(__dirname, '../..');

/** `source` bundled as scripts/build.mjs bundles the core (with or without the library builds), loaded. */
async function bundled(source: string, withLibraryBuilds: boolean): Promise<{ exports: Record<string, unknown>; inputs: string[] }> {
  const { outputFiles, metafile } = await esbuild.build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    plugins: withLibraryBuilds ? [libraryBuilds] : [],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', outputFiles[0].text)(module, module.exports, require);
  return { exports: module.exports, inputs: Object.keys(metafile.inputs) };
}

const uriUses = `
import { URI } from 'vscode-uri';
export const uses = (paths: string[], uris: string[]) => ({
  files: paths.map((p) => URI.file(p).toString()),
  fsPaths: uris.map((u) => URI.parse(u).fsPath),
  parsed: uris.map((u) => { const x = URI.parse(u); return [x.scheme, x.authority, x.path, x.query, x.fragment, x.toString()]; }),
});
`;
const paths = ['/home/me/ds_config.json', '/data/my configs/zero 3#.json', '/tmp/100%/a?b.json', '/home/用户/配置.json', 'C:\\Users\\me\\ds.json', '\\\\server\\share\\ds.json', 'relative/ds.json'];
const uris = [
  'file:///home/me/ds_config.json',
  'file:///c%3A/Users/me/ds.json',
  'file:///C:/Users/me/ds.json',
  'file://server/share/ds.json',
  'file:///data/my%20configs/zero%203%23.json',
  'file:///home/%E7%94%A8%E6%88%B7/%E9%85%8D%E7%BD%AE.json',
  'untitled:Untitled-1',
  'vscode-remote://ssh-remote%2Bhost/home/me/x.sh',
  'https://www.deepspeed.ai/docs/config-json/#zero-optimizations-for-fp16-training',
];

test("the core takes vscode-uri's URI module alone, not the package's whole ES module build", async () => {
  const { inputs } = await bundled(uriUses, true);
  const uri = inputs.filter((input) => input.includes('vscode-uri'));
  assert.ok(uri.some((input) => input.endsWith('vscode-uri/lib/umd/uri.js')), uri.join(', '));
  assert.ok(!uri.some((input) => input.endsWith('.mjs')), uri.join(', '));
});

test('vscode-uri\'s URI module answers as the package\'s ES module build did, for every use of the core', async () => {
  const before = (await bundled(uriUses, false)).exports as { uses: (p: string[], u: string[]) => unknown };
  const after = (await bundled(uriUses, true)).exports as { uses: (p: string[], u: string[]) => unknown };
  assert.deepEqual(after.uses(paths, uris), before.uses(paths, uris));
});
