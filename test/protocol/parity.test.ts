/**
 * One training pipeline, five faces: for every example and fixture config, script and launcher YAML, the inline
 * hint, the hover table's selected row, the sidebar's view model, the language status and `zero-lens estimate
 * <file>` must say the same per-GPU total for the same stage, from the same sources.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { parse } from 'jsonc-parser';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Hover, InlayHint, MarkupContent } from 'vscode-languageserver-types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { EstimateViewRequest, formatGiB, type EstimateView } from '../../server/src/protocol';
import { classifyDocument } from '../../server/src/classify';
import { parseConfigText } from '../../server/src/dsconfig/parse';
import { withDefaults } from '../../server/src/settings';
import { buildViewModel, statusSummary } from '../../client/src/sidebar/viewModel';
import { runCli } from '../unit/cli-helpers';
import { fileUri, startServer, type TestServer } from './lspClient';

const repo = path.resolve(__dirname, '../..');

/** Each workspace the parity is checked in, with the zeroLens.* settings of its .vscode/settings.json. */
const workspaces: { folder: string; settings: Record<string, unknown> }[] = [
  // Carries its own .vscode/settings.json (model, 4 GPUs, 80 GiB).
  { folder: 'examples', settings: {} },
  { folder: 'test/fixtures/parity/swift_yaml', settings: { gpuMemoryGiB: 80 } },
  { folder: 'test/fixtures/parity/accelerate', settings: { gpuMemoryGiB: 80 } },
  { folder: 'test/fixtures/context', settings: { gpuMemoryGiB: 80 } },
  { folder: 'test/e2e/fixtures', settings: { gpuMemoryGiB: 80 } },
  { folder: 'test/fixtures/launch/shapes', settings: { gpuMemoryGiB: 80 } },
  { folder: 'test/fixtures/memory', settings: { gpuMemoryGiB: 24, model: 'Qwen/Qwen2.5-7B', gpusPerNode: 2 } },
  { folder: 'test/fixtures/dsconfig', settings: { model: 'meta-llama/Llama-3.1-8B', gpusPerNode: 8 } },
  { folder: 'test/fixtures/presets', settings: { model: 'Qwen/Qwen3-4B', gpusPerNode: 4, gpuMemoryGiB: 40 } },
];

function filesIn(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => {
      const full = path.join(folder, name);
      return statSync(full).isDirectory() ? filesIn(full) : [full];
    })
    .sort();
}

function languageOf(file: string): string {
  if (/\.(sh|bash)$/.test(file)) return 'shellscript';
  if (/\.ya?ml$/.test(file)) return 'yaml';
  return 'json';
}

/** A copy of the workspace whose .vscode/settings.json holds `settings` (merged over its own), for the CLI. */
function copyWorkspace(folder: string, settings: Record<string, unknown>): { root: string; settings: Record<string, unknown> } {
  const root = mkdtempSync(path.join(tmpdir(), 'zero-lens-parity-'));
  cpSync(path.join(repo, folder), root, { recursive: true });
  const own = path.join(root, '.vscode', 'settings.json');
  let merged = { ...settings };
  try {
    const parsed = parse(readFileSync(own, 'utf8')) as Record<string, unknown>;
    const fromFile = Object.fromEntries(Object.entries(parsed).filter(([k]) => k.startsWith('zeroLens.')).map(([k, v]) => [k.slice('zeroLens.'.length), v]));
    merged = { ...fromFile, ...settings };
  } catch {
    // no settings file of its own
  }
  mkdirSync(path.dirname(own), { recursive: true });
  writeFileSync(own, JSON.stringify(Object.fromEntries(Object.entries(merged).map(([k, v]) => [`zeroLens.${k}`, v])), null, 2));
  return { root, settings: merged };
}

/** "≈ 19.2 GiB/GPU …" → "19.2 GiB". */
function sizeIn(text: string): string | undefined {
  return /≈ ([\d.,]+ GiB)\/GPU/.exec(text)?.[1] ?? /\*\*([\d.,]+)\u00a0GiB\*\*/.exec(text)?.[1]?.concat(' GiB');
}

/** The hint the document's primary estimate shows: after "stage" in a config, the first one in a script. */
async function primaryHint(server: TestServer, uri: string, text: string, kind: string): Promise<string | undefined> {
  const lines = text.split('\n').length + 1;
  const hints = (await server.connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } } })) ?? [];
  const labels = hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')));
  if (kind !== 'ds-config') return labels.find((l) => l.startsWith('≈'));
  const stageLine = text.split('\n').findIndex((l) => /"stage"\s*:/.test(l));
  const at = hints.findIndex((h) => h.position.line === stageLine);
  return at >= 0 ? labels[at] : undefined;
}

/** The hover's selected row (▶) of the stage table, at "stage" or at the script's first hint. */
async function selectedRow(server: TestServer, uri: string, text: string, kind: string): Promise<string | undefined> {
  let position: { line: number; character: number } | undefined;
  if (kind === 'ds-config') {
    const line = text.split('\n').findIndex((l) => /"stage"\s*:/.test(l));
    if (line >= 0) position = { line, character: text.split('\n')[line].indexOf('"stage"') + 2 };
  } else {
    const hints = (await server.connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } } })) ?? [];
    const first = hints.find((h) => (typeof h.label === 'string' ? h.label : '').startsWith('≈'));
    if (first) position = { line: first.position.line, character: Math.max(0, first.position.character - 1) };
  }
  if (!position) return undefined;
  const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
  const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
  return value.split('\n').find((l) => l.startsWith('| ▶ |'));
}

for (const { folder, settings: extra } of workspaces) {
  test(`parity of hint, hover, sidebar, status and CLI: ${folder}`, async (t) => {
    const { root, settings } = copyWorkspace(folder, extra);
    const server = await startServer({ rootPath: root, settings, initializationOptions: { validationDelayMs: 0 } });
    let checked = 0;
    let withNumbers = 0;
    try {
      for (const file of filesIn(root)) {
        const text = readFileSync(file, 'utf8');
        const uri = fileUri(file);
        const kind = classifyDocument(TextDocument.create(uri, languageOf(file), 1, text), withDefaults(settings));
        if (!kind) continue;
        checked++;
        const name = `${folder}/${path.relative(root, file)}`;
        await server.open(uri, languageOf(file), text);
        const view = await server.connection.sendRequest<EstimateView | null>(EstimateViewRequest.method, { uri });
        if (kind === 'fsdp-config') {
          // A config file alone names no run: no view, and the CLI says what to estimate instead.
          assert.equal(view, null, `${name}: an FSDP config file has no estimate view`);
          const cli = await runCli(['estimate', path.relative(root, file)], root);
          assert.equal(cli.code, 2, `${name}: the CLI refuses to estimate an FSDP config file alone`);
          assert.match(cli.err, /is an FSDP config file: it names no model or GPUs/);
          continue;
        }
        assert.ok(view, `${name}: the sidebar gets a view`);
        const vm = buildViewModel({ kind: 'ready', view });
        const current = vm.bars.find((b) => b.current);
        const cli = await runCli(['estimate', path.relative(root, file), '--format', 'json'], root);
        if (kind === 'ds-config' && parseConfigText(text).syntaxErrors.length > 0) {
          // DeepSpeed cannot load it: the CLI refuses to estimate and says where; the editor keeps showing what it
          // recovered while the user types (a config is broken between keystrokes all the time).
          assert.equal(cli.code, 2, `${name}: the CLI refuses a config with syntax errors`);
          assert.match(cli.err, /is not a valid ds_config: line \d+, column \d+/);
          continue;
        }
        const running = view.alternatives?.find((a) => a.current);
        if (running) {
          // An FSDP or Megatron run: the server's view, the CLI, the hint, the sidebar's current row and the language
          // status give the run's own total; the ZeRO bars are the comparison.
          withNumbers++;
          assert.equal(cli.code, 0, `${name}: ${cli.err}`);
          const json = JSON.parse(cli.out);
          const total = formatGiB(running.result.perGpu.total);
          assert.equal(formatGiB(json.perGpu.total), total, `${name}: CLI total`);
          assert.deepEqual(json.alternatives.find((a: { current: boolean }) => a.current)?.label, running.label, `${name}: the same run`);
          const hints = (await server.connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } } })) ?? [];
          assert.ok(hints.some((h) => String(h.label).startsWith(`${running.label} ≈ ${total}/GPU`)), `${name}: inline hint`);
          assert.equal(view.current, null, `${name}: no ZeRO option is the run's`);
          assert.equal(vm.alternatives.find((a) => a.current)?.total, total, `${name}: the sidebar's current row`);
          assert.ok(statusSummary(vm)?.text.startsWith(`≈ ${total}/GPU`), `${name}: language status ${statusSummary(vm)?.text}`);
          assert.deepEqual(json.context, JSON.parse(JSON.stringify(view.context)), `${name}: the same values from the same sources`);
          continue;
        }
        if (!current) {
          // No numbers (no model, no GPU count or no readable config): no surface invents one.
          assert.equal(cli.code, 2, `${name}: the CLI gives no estimate either (${cli.out.slice(0, 200)})`);
          assert.equal(sizeIn((await primaryHint(server, uri, text, kind)) ?? ''), undefined, `${name}: no number in the hint`);
          continue;
        }
        withNumbers++;
        assert.equal(cli.code, 0, `${name}: ${cli.err}`);
        const json = JSON.parse(cli.out);
        const total = formatGiB(current.totalBytes);
        assert.equal(formatGiB(json.perGpu.total), total, `${name}: CLI total`);
        assert.equal(sizeIn((await primaryHint(server, uri, text, kind)) ?? ''), total, `${name}: inline hint`);
        const row = await selectedRow(server, uri, text, kind);
        assert.ok(row?.includes(`**${total.replace(' ', '\u00a0')}**`), `${name}: hover's selected row ${row}`);
        assert.ok(statusSummary(vm)?.text.startsWith(`≈ ${total}/GPU`), `${name}: language status ${statusSummary(vm)?.text}`);
        assert.deepEqual(json.current, view.current, `${name}: the same option`);
        assert.deepEqual(json.context, JSON.parse(JSON.stringify(view.context)), `${name}: the same values from the same sources`);
      }
    } finally {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
    t.diagnostic(`${checked} files checked, ${withNumbers} with an estimate`);
    assert.ok(checked > 0, `${folder}: files were checked`);
    if (folder.startsWith('test/fixtures/parity') || folder === 'examples') assert.ok(withNumbers > 0, `${folder}: some files have numbers`);
  });
}
