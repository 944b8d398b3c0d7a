/**
 * Figures and lists the docs quote, checked against what they quote: the webview bundle, the settings'
 * definitions, the bench run README.md cites and the corpus manifest. A change that moves one of them fails here
 * until the docs say the new figure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { missing, type FileSystemHost } from '../../server/src/host';
import { withDefaults } from '../../server/src/settings';
import { typicalConfig } from '../../bench/documents';
import { settingDefinitions } from '../../server/src/protocol/settings';
import { diagnose } from './dsconfig-validation-helpers';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');
const readmeZh = read('README.zh-CN.md');
const KiB = 1024;
const noDisk: FileSystemHost = { readFile: async () => missing, readBytes: async () => missing, exists: async () => false, listDir: async () => undefined };
const settings = withDefaults({});

test("the READMEs' size of the sidebar's script is the size the build gives it", async () => {
  // The webview build of scripts/build.mjs, in memory.
  const { outputFiles } = await esbuild.build({
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
    entryPoints: [path.join(root, 'client/src/sidebar/webview/main.ts')],
    outdir: path.join(root, 'dist'),
    write: false,
  });
  const script = outputFiles.find((f) => f.path.endsWith('.js'))!.contents;
  const size = script.length / KiB;
  const gzipped = gzipSync(script).length / KiB;
  for (const [name, text, pattern] of [
    ['README.md', readme, /its script weighs (\d+) KiB \((\d+) KiB gzipped\)/],
    ['README.zh-CN.md', readmeZh, /脚本大小为 (\d+) KiB（gzip 后 (\d+) KiB）/],
  ] as const) {
    const quoted = pattern.exec(text);
    assert.ok(quoted, `${name} quotes the script's size`);
    assert.ok(Math.abs(Number(quoted[1]) - size) < 1, `${name}: ${quoted[1]} KiB, the build ${size.toFixed(1)} KiB`);
    assert.ok(Math.abs(Number(quoted[2]) - gzipped) < 1, `${name}: ${quoted[2]} KiB gzipped, the build ${gzipped.toFixed(1)} KiB`);
  }
});

test("README.md's settings table lists every setting, and the settings it says are not per resource are the window-scoped ones", () => {
  const table = readme.slice(readme.indexOf('## Settings'), readme.indexOf('## Using the server'));
  const listed = new Set([...table.matchAll(/^\| (`zeroLens\.[^|]+)\|/gm)].flatMap(([, cell]) => [...cell.matchAll(/`zeroLens\.([\w.]+)`/g)].map((m) => m[1])));
  assert.deepEqual([...listed].sort(), Object.keys(settingDefinitions).sort());
  // The default column: a value in code spans is the definition's default, "—" a setting without one.
  for (const [, cell, shown] of table.matchAll(/^\| (`zeroLens\.[^|]+)\| ([^|]+) \|/gm)) {
    for (const [, key] of cell.matchAll(/`zeroLens\.([\w.]+)`/g)) {
      const definition = settingDefinitions[key as keyof typeof settingDefinitions] as { default?: unknown };
      const value = /^`(.*)`$/.exec(shown.trim())?.[1];
      if (value === undefined) assert.ok(shown.startsWith('—') && definition.default === undefined, `${key}: ${shown}`);
      else assert.deepEqual(JSON.parse(/^[\[\d]|^(true|false)$/.test(value) ? value : JSON.stringify(value)), definition.default, key);
    }
  }
  const exceptions = /Every setting but (.+?) is per resource/.exec(table);
  assert.ok(exceptions, 'README.md says which settings are per resource');
  const named = [...exceptions[1].matchAll(/`zeroLens\.([\w.]+)`/g)].map((m) => m[1]).sort();
  const windowScoped = Object.entries(settingDefinitions)
    .filter(([, definition]) => definition.scope === 'window')
    .map(([key]) => key)
    .sort();
  assert.deepEqual(named, windowScoped);
});

test("README.md's start-up CPU figures are the cold-start CPU medians of the bench run it quotes", () => {
  const results = read('bench/RESULTS.md');
  const cpuOf = (server: string) => Number(new RegExp(`^\\| ${server} \\| [^|]+\\| [^|]+\\| [^|]+\\| ([\\d.]+) \\|$`, 'm').exec(results)?.[1]);
  const quoted = /start-up CPU to the first diagnostics (\d+) ms against (\d+) without it/.exec(readme);
  assert.ok(quoted, 'README.md quotes the start-up CPU');
  assert.equal(Number(quoted[1]), Math.round(cpuOf('ZeRO Lens')));
  assert.equal(Number(quoted[2]), Math.round(cpuOf('ZeRO Lens, first start')));
});

test("test/corpus/README.md's holdout repositories are the manifest's", () => {
  const manifest = JSON.parse(read('test/corpus/manifest.json')) as { repo: string; split: string }[];
  const holdout = [...new Set(manifest.filter((e) => e.split === 'holdout').map((e) => e.repo))].sort();
  // microsoft/DeepSpeedExamples is the old name of deepspeedai/DeepSpeedExamples: one repository.
  const repositories = new Set(manifest.map((e) => e.repo.replace(/^microsoft\/DeepSpeedExamples$/, 'deepspeedai/DeepSpeedExamples'))).size;
  const text = read('test/corpus/README.md');
  const split = /`holdout` \((\d+) of the (\d+) repositories[^)]*\):\s*([^.]+)\./.exec(text);
  assert.ok(split, 'the README names the holdout repositories');
  const named = split[3].split(/,\s*/).map((s) => s.trim()).sort();
  assert.deepEqual(named, holdout);
  assert.equal(Number(split[1]), holdout.length);
  assert.equal(Number(split[2]), repositories);
  assert.match(text, new RegExp(`^${manifest.length} files from ${repositories} public repositories`, 'm'));
});

/** The text between fences, comments after `#` dropped: what a reader would run or paste. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map(([, lang, body]) =>
    lang === 'sh' ? body.split('\n').map((line) => line.replace(/\s+#.*$/, '').trimEnd()).join('\n') : body,
  );
}

const headings = (markdown: string, level: string) => markdown.replace(/```[\s\S]*?```/g, '').match(new RegExp(`^${level} `, 'gm'))?.length ?? 0;

test('README.zh-CN.md has every section, command, picture, setting, diagnostic code and figure of README.md', () => {
  assert.equal(headings(readmeZh, '##'), headings(readme, '##'), 'sections');
  assert.equal(headings(readmeZh, '###'), headings(readme, '###'), 'subsections');
  assert.deepEqual(codeBlocks(readmeZh), codeBlocks(readme), 'commands and editor configurations');
  const pictures = (m: string) => [...m.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((p) => p[1]);
  assert.deepEqual(pictures(readmeZh), pictures(readme), 'pictures');
  const settingsTable = (m: string) => [...m.matchAll(/^\| (`zeroLens\.[^|]+)\|/gm)].map(([, cell]) => [...cell.matchAll(/`(zeroLens\.[\w.]+)`/g)].map((x) => x[1]).join());
  assert.deepEqual(settingsTable(readmeZh), settingsTable(readme), 'settings table');
  // Identifiers stay as they are in both: diagnostic codes, flags, settings, npm scripts.
  const identifiers = (m: string) =>
    new Set([...m.matchAll(/`([^`]+)`/g)].map(([, code]) => code).filter((code) => /^(--[\w-]+|zeroLens\.[\w.]+|npm (run )?[\w:]+|[a-z0-9]+(-[a-z0-9]+)+)$/.test(code)));
  const zh = identifiers(readmeZh);
  assert.deepEqual([...identifiers(readme)].filter((code) => !zh.has(code)), [], 'identifiers README.md names');
  // The speed table's figures, row by row, from the ZeRO Lens column on.
  const speedTable = (m: string) => m.match(/^\|[^\n]*\b(ms|MiB|KiB) \|[^\n]*$/gm) ?? [];
  const figures = (m: string) => speedTable(m).map((row) => row.split('|').slice(4).join('|').match(/-?\d[\d,.]*/g)!.join(' '));
  assert.ok(figures(readme).length > 10, 'the speed table is found');
  assert.deepEqual(figures(readmeZh), figures(readme), 'speed table');
});

test("README.md's words on quoted bools and on \"stage\": \"auto\" are what the checks report", () => {
  const plain = diagnose({ train_micro_batch_size_per_gpu: 1, wall_clock_breakdown: 'false' }).find((d) => d.code === 'boolean-as-string');
  assert.equal(plain?.severity, DiagnosticSeverity.Warning, 'a plain-dict key that only tests the string');
  const asserted = diagnose({ train_micro_batch_size_per_gpu: 1, expert_parallel: { enabled: true, validate_folding_routing: 'true' } }).find((d) => d.code === 'boolean-as-string');
  assert.equal(asserted?.severity, DiagnosticSeverity.Error, 'a key DeepSpeed asserts is a bool');
  assert.match(readme, /in a plain-dict section `"false"` is a\s+non-empty string, which DeepSpeed takes as true: a warning, and an error where DeepSpeed asserts a bool/);

  const auto = diagnose({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 'auto' } }).find((d) => d.code === 'stage-auto');
  assert.match(String(auto?.message), /fills it with its zero_stage[\s\S]*runs without ZeRO \(stage 0\)/);
  assert.match(readme, /`"stage": "auto"` \(accelerate's zero_stage under the Trainer, silently stage 0 under plain\s+`deepspeed\.initialize`\)/);
});

test("CHANGELOG.md's completion list sizes are the median over the bench's typical config, lean and complete", async () => {
  const text = typicalConfig();
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
  const complete = getLanguageService({ fs: noDisk });
  // What VS Code announces: documentation and detail on resolve, item defaults, snippets.
  const lean = getLanguageService({ fs: noDisk, completion: { resolveDocumentation: true, resolveDetail: true, defaultEditRange: true, defaultData: true, defaultInsertTextFormat: true, snippets: true } });
  const sizes: { complete: number[]; lean: number[] } = { complete: [], lean: [] };
  for (const key of text.matchAll(/\n\s+"\w+":/g)) {
    const position = document.positionAt(key.index + key[0].indexOf('"') + 2);
    sizes.complete.push(JSON.stringify(await complete.doComplete(document, position, settings)).length);
    sizes.lean.push(JSON.stringify(await lean.doComplete(document, position, settings)).length);
  }
  const medianKB = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] / 1000;
  const quoted = /the median list of the bench's typical config is ([\d.]+) KB\s+instead of ([\d.]+) KB/.exec(read('CHANGELOG.md'));
  assert.ok(quoted, 'CHANGELOG.md quotes the list sizes');
  assert.equal(Number(quoted[1]), Number(medianKB(sizes.lean).toFixed(1)));
  assert.equal(Number(quoted[2]), Number(medianKB(sizes.complete).toFixed(1)));
});

test("docs/ARCHITECTURE.md's size of the README's pictures is what docs/images holds", () => {
  const images = readdirSync(path.join(root, 'docs/images')).filter((name) => name.endsWith('.webp'));
  const total = images.reduce((sum, name) => sum + statSync(path.join(root, 'docs/images', name)).size, 0) / KiB;
  const quoted = /(\d+) KiB where the PNGs were/.exec(read('docs/ARCHITECTURE.md'));
  assert.ok(quoted, 'the architecture quotes the pictures');
  assert.equal(Number(quoted[1]), Math.round(total), `${images.join(', ')}: ${total.toFixed(1)} KiB`);
});

test("docs/ARCHITECTURE.md's margin of the core's size budget is the one scripts/lib/sizeBudget.mjs gives", () => {
  const budget = /a margin: about (\d+) KiB for the core/.exec(read('scripts/lib/sizeBudget.mjs'));
  const quoted = /plus a margin \(about (\d+) KiB for the core/.exec(read('docs/ARCHITECTURE.md'));
  assert.ok(budget && quoted);
  assert.equal(quoted[1], budget[1]);
});

test('the number of published measurements `npm run bench:accuracy` compares with is the calibration runs it reads', () => {
  // bench/accuracy.ts reads runs.json and fsdp-tp-runs.json (`const runs = ['runs.json', 'fsdp-tp-runs.json'].flatMap(…)`).
  const runs = ['runs.json', 'fsdp-tp-runs.json'].flatMap((file) => JSON.parse(read(`bench/calibration/${file}`)) as unknown[]).length;
  assert.match(read('bench/accuracy.ts'), /\['runs\.json', 'fsdp-tp-runs\.json'\]/);
  assert.equal(Number(/compares the estimate with (\d+) published measurements/.exec(readme)?.[1]), runs, 'README.md');
  assert.equal(Number(/把估算与 (\d+) 个公开的实测结果对比/.exec(readmeZh)?.[1]), runs, 'README.zh-CN.md');
  assert.equal(Number(/compares the estimate with\s+(\d+) published measured runs/.exec(read('CHANGELOG.md'))?.[1]), runs, 'CHANGELOG.md');
});
