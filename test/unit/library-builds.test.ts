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

// What each left-out module of vscode-languageserver adds: members of the connection's parts, or exports.
const unusedLspMembers = [
  'semanticTokens', 'callHierarchy', 'typeHierarchy', 'moniker', 'inlineValue', 'inlineCompletion', 'textDocumentContent', 'onLinkedEditingRange',
  'showDocument', 'onDidCreateFiles', 'onDidRenameFiles', 'onDidDeleteFiles', 'onWillCreateFiles', 'onWillRenameFiles', 'onWillDeleteFiles',
  'synchronization', 'NotebookDocuments', 'SemanticTokensBuilder', 'SemanticTokensDiff', 'Files',
];
const unusedLspModules = ['notebook', 'semanticTokens', 'callHierarchy', 'typeHierarchy', 'moniker', 'inlineValue', 'linkedEditingRange', 'showDocument', 'fileOperations', 'textDocumentContent', 'inlineCompletion'];

test("the server's LSP connection leaves out vscode-languageserver's features it never calls, and keeps the others", async () => {
  const { inputs, exports } = await bundled(`export { createConnection, TextDocuments, ProposedFeatures } from 'vscode-languageserver/node';`, true);
  const lsp = inputs.filter((input) => input.includes('node_modules/vscode-languageserver/lib/'));
  for (const name of unusedLspModules) assert.ok(!lsp.some((input) => input.endsWith(`/common/${name}.js`)), `${name}.js is bundled`);
  assert.ok(!lsp.some((input) => input.endsWith('/node/files.js')), 'files.js is bundled');
  for (const name of ['server', 'textDocuments', 'configuration', 'workspaceFolder', 'progress', 'diagnostic', 'inlayHint', 'foldingRange']) {
    assert.ok(lsp.some((input) => input.endsWith(`/common/${name}.js`)), `${name}.js is not bundled`);
  }
  // A connection still has every part the server uses.
  const { PassThrough } = require('node:stream') as typeof import('node:stream');
  const createConnection = exports.createConnection as (features: unknown, input: NodeJS.ReadableStream, output: NodeJS.WritableStream) => Record<string, Record<string, unknown>>;
  const connection = createConnection((exports.ProposedFeatures as { all: unknown }).all, new PassThrough(), new PassThrough());
  for (const part of ['diagnostics', 'inlayHint', 'foldingRange']) assert.equal(typeof connection.languages[part], 'object', part);
  assert.equal(typeof connection.workspace.getConfiguration, 'function');
  assert.equal(typeof connection.window.showErrorMessage, 'function');
  assert.equal(typeof connection.client.register, 'function');
});

test('no source calls what the LSP connection leaves out (scripts/lib/libraryBuilds.mjs)', () => {
  const { readdirSync, readFileSync } = require('node:fs') as typeof import('node:fs');
  const sources = (readdirSync(path.join(root, 'server/src'), { recursive: true }) as string[]).filter((file) => file.endsWith('.ts'));
  const members = new RegExp(`\\.(${unusedLspMembers.filter((m) => /^[a-z]/.test(m)).join('|')})\\b`);
  const imported = new RegExp(`import[^;]*\\b(${unusedLspMembers.filter((m) => /^[A-Z]/.test(m)).join('|')})\\b[^;]*from 'vscode-languageserver`);
  const users = sources.filter((file) => /from 'vscode-languageserver(\/node)?'/.test(readFileSync(path.join(root, 'server/src', file), 'utf8')));
  assert.ok(users.includes('server.ts'), users.join(', '));
  for (const file of users) {
    const text = readFileSync(path.join(root, 'server/src', file), 'utf8');
    assert.doesNotMatch(text, imported, `server/src/${file}`);
    const line = text.split('\n').findIndex((l) => members.test(l));
    assert.equal(line, -1, `server/src/${file}:${line + 1} uses a part of vscode-languageserver the build leaves out`);
  }
});
