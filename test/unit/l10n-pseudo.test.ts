/**
 * The pseudo-locale run: every text is asked for in `qps-ploc`, where the catalog accents every letter, so any
 * plain English word left on screen did not go through the catalog. Every surface must show none: the client,
 * the sidebar and its webview strings, the language status, the CLI's own texts, ds_config hovers and completion
 * (phase 1); the estimate surfaces (inline hints and their tooltips, the estimate diagnostics and quick-fix titles,
 * over l10n-estimates-surfaces.ts; phase 2); the diagnostics and fix titles of every ds_config rule, the launch
 * diagnostics and fix titles, the flag hovers and the completion documentation (over l10n-rule-surfaces.ts;
 * phase 3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, InlayHint, MarkupContent } from 'vscode-languageserver-types';
import { translator } from '../../server/src/l10n';
import { defaultSettings } from '../../server/src/settings';
import { getLanguageService } from '../../server/src/languageService';
import { nodeFileSystem } from '../../server/src/nodeHost';
import { main } from '../../server/src/cli/main';
import { buildViewModel, statusSummary } from '../../client/src/sidebar/viewModel';
import { webviewStrings } from '../../client/src/sidebar/webviewStrings';
import { buildSidebarHtml } from '../../client/src/sidebar/html';
import { fsdpView } from '../fixtures/sidebar/estimateView';
import { estimateSurfaces } from './l10n-estimates-surfaces';
import { configRuleSurfaces, launchSurfaces, ruleCodes } from './l10n-rule-surfaces';

const pseudo = translator('qps-ploc');

/**
 * Words people read that stayed in plain English: not code, links, names, identifiers, flags, numbers, units, nor
 * JSON's types and literals (`integer`, `true`), which stay as they are in every language.
 */
const kept = new Set(
  'ZeRO Lens DeepSpeed NVMe GiB MiB KiB GPU GPUs CPU CUDA LoRA QLoRA Qwen Llama Hugging Face ModelScope YAML JSON Adam AdamW Trainer accelerate true false null boolean integer number string object array any'.split(' '),
);
export function englishWords(text: string): string[] {
  // Nested [ … ] (a JSON shape in a help) go from the inside out.
  let bare = text;
  for (let previous = ''; previous !== bare; ) [previous, bare] = [bare, bare.replace(/\[[^[\]]*\]/g, ' ')];
  const tokens = bare
    .replace(/`[^`]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\$\([a-z0-9~-]+\)/g, ' ')
    .replace(/<[^<>]*>|\[[^[\]]*\]/g, ' ')
    .split(/[\s\u3000-\u303f\uff00-\uffef]+/);
  const words = tokens
    .map((token) => token.replace(/^[("'“‘*]+|[)"'”’*.,;:!?…]+$/g, ''))
    .filter((word) => /^[A-Za-z]{2,}$/.test(word) && !kept.has(word) && /[a-z]/.test(word));
  return [...new Set(words)];
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.entries(value).forEach(([key, v]) => (/^(key|role|colorVar|pattern|uri|status|short|fit|option|missing|raw|family)$/.test(key) ? undefined : strings(v, out)));
  return out;
}

function leftovers(texts: string[]): string[] {
  return [...new Set(texts.flatMap(englishWords))].sort();
}

test('the sidebar, its webview strings and the language status have no English left in qps-ploc', () => {
  // A view with the FSDP rows beside the ZeRO options, one of them the run's: both groups are drawn.
  const view = fsdpView();
  // The server's own texts inside the view (option labels, notes) are its part: give them pseudo text too.
  const own = <O extends { label: string; result: { notes: string[] } }>(o: O): O => ({ ...o, label: pseudo(o.label), result: { ...o.result, notes: [] } });
  const ready = buildViewModel({ kind: 'ready', view: { ...view, options: view.options.map(own), alternatives: view.alternatives!.map(own) } }, pseudo);
  const states = [
    ready,
    buildViewModel({ kind: 'no-document' }, pseudo),
    buildViewModel({ kind: 'loading', uri: 'file:///w/ds_config.json' }, pseudo),
    buildViewModel({ kind: 'not-claimed', uri: 'file:///w/package.json' }, pseudo),
    buildViewModel({ kind: 'ready', view: { ...view, options: [], alternatives: [], missing: ['model', 'gpuMemoryGiB'] } }, pseudo),
  ];
  const texts = [...states.flatMap((vm) => strings(vm)), ...strings(statusSummary(ready, pseudo)), ...strings(webviewStrings(pseudo))];
  const html = buildSidebarHtml({ cspSource: 'x', nonce: 'n', scriptUri: 's', styleUri: 'c', codiconUri: 'i', t: pseudo, lang: 'qps-ploc' });
  texts.push(...[...html.matchAll(/<(title|p)[^>]*>([^<]*)</g)].map((m) => m[2]));
  assert.deepEqual(leftovers(texts), []);
});

async function cli(args: string[]): Promise<{ out: string; err: string }> {
  let out = '';
  let err = '';
  await main([...args, '--lang', 'qps-ploc'], { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd: process.cwd() });
  return { out, err };
}

test('the CLI\'s own texts (help, usage errors, the check summary) have no English left in qps-ploc', async () => {
  const texts: string[] = [];
  // A help's left column (commands, flags and their values) is written as is: only the descriptions are read.
  const described = (help: string) =>
    help.split('\n').map((line) => (/^\s+(-|zero-lens)/.test(line) ? (/\S\s{2,}(\S.*)$/.exec(line)?.[1] ?? '') : line));
  texts.push(...described((await cli(['--help'])).out));
  texts.push(...described((await cli(['check', '--help'])).out));
  texts.push(...described((await cli(['estimate', '--help'])).out).filter((line) => !/\badamw\b/.test(line)));
  texts.push((await cli(['check', 'no/such.json'])).err.split('\n')[0]);
  texts.push((await cli(['bogus'])).err.split('\n')[0]);
  texts.push((await cli(['check', 'examples/configs'])).out.trim().split('\n').pop()!);
  assert.deepEqual(leftovers(texts.map((text) => text.replace(/zero-lens( check| estimate)?/g, ' ').replace(/'[^']*'/g, ' '))), []);
});

interface Surface {
  name: string;
  texts: string[];
}

async function serverSurfaces(): Promise<Surface[]> {
  const service = getLanguageService({ fs: nodeFileSystem });
  const settings = { ...defaultSettings, locale: 'qps-ploc' as const, model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 };
  const text = '{\n  "train_micro_batch_size_per_gpu": 4,\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 3,\n    "offload_optimizer": { "device": "cpu" },\n    "stage4_typo": 1,\n    "reduce_bucket_size": 5e8\n  }\n}\n';
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
  const hover = async (line: number, character: number) => ((await service.doHover(document, { line, character }, settings))?.contents as MarkupContent | undefined)?.value ?? '';
  const keyDocs = [await hover(5, 8), await hover(7, 8), await hover(1, 6), await hover(7, 29), await hover(5, 37)];
  const completion = await service.doComplete(document, { line: 4, character: 15 }, settings);
  const completionTexts = completion.items.flatMap((item) => [item.detail ?? '', (item.documentation as MarkupContent | undefined)?.value ?? '']);
  const stageHover = (await hover(4, 8)).split('\n---\n');
  const diagnostics: Diagnostic[] = await service.doValidation(document, settings);
  const actions: CodeAction[] = await service.getCodeActions(document, { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } }, { diagnostics }, settings);
  const hints: InlayHint[] = await service.getInlayHints(document, { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } }, settings);
  const hintTexts = hints.flatMap((h) => [typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''), typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? '')]);
  return [
    { name: 'ds_config key and value hovers', texts: [...keyDocs, stageHover[stageHover.length - 1]] },
    { name: 'ds_config completion details and documentation', texts: completionTexts },
    { name: 'estimate hover table', texts: stageHover.slice(0, -1) },
    { name: 'diagnostics and related information', texts: diagnostics.flatMap((d) => [typeof d.message === 'string' ? d.message : d.message.value, ...(d.relatedInformation ?? []).map((r) => r.message)]) },
    { name: 'quick-fix titles', texts: actions.map((a) => a.title) },
    { name: 'inline hints and tooltips', texts: hintTexts },
  ];
}

test('server texts in qps-ploc: ds_config hovers, completion, diagnostics, quick-fix titles and hints show no English', async () => {
  const surfaces = await serverSurfaces();
  for (const surface of surfaces) {
    assert.ok(surface.texts.some((text) => text.trim()), `${surface.name}: something to look at`);
    assert.deepEqual(leftovers(surface.texts), [], surface.name);
  }
});

/**
 * What a message names as written, which qps-ploc leaves plain because it arrives as an argument: quoted keys and
 * values ("gram", 'swift infer', accelerate's own error text), CamelCase class and product names (FusedAdam,
 * DeepCompile, TrainingArguments), a flag hover's heading (`**--flag** (swift sft)`, the program), and the values
 * and subcommands a message lists (none | cpu | nvme; sft, pt and rlhf; --quant_method bnb; theta 0.5).
 */
const namedValues = new Set('Apex none cpu nvme auto gpu xpu no sft pt rlhf bnb theta gamma'.split(' '));
function proseLeftovers(texts: string[]): string[] {
  const prose = texts.map((text) => text.replace(/^\*\*[^*]+\*\*( \([^)]*\))?$/m, ' ').replace(/"[^"]*"|'[^']*'/g, ' '));
  return leftovers(prose).filter((word) => /^[A-Z]?[a-z]+$/.test(word) && !namedValues.has(word));
}

test('every ds_config rule in qps-ploc: its diagnostics and their quick-fix titles show no English', async () => {
  const { surfaces, codes } = await configRuleSurfaces('qps-ploc');
  assert.deepEqual(ruleCodes.filter((code) => !codes.has(code)), [], 'the configs reach every rule');
  for (const surface of surfaces) {
    assert.ok(surface.texts.length > 50, `${surface.name}: ${surface.texts.length} texts`);
    assert.deepEqual(proseLeftovers(surface.texts), [], surface.name);
  }
});

test('launch scripts and YAML in qps-ploc: diagnostics, fix titles, flag hovers and completion documentation show no English', async () => {
  for (const surface of await launchSurfaces('qps-ploc')) {
    assert.ok(surface.texts.filter((text) => text.trim()).length > 10, `${surface.name}: ${surface.texts.length} texts`);
    assert.deepEqual(proseLeftovers(surface.texts), [], surface.name);
  }
});

test('the estimate surfaces in qps-ploc: hover tables with their notes, hints and tooltips, estimate diagnostics and their quick-fix titles show no English', async () => {
  for (const surface of await estimateSurfaces('qps-ploc')) {
    assert.ok(surface.texts.some((text) => text.trim()), `${surface.name}: something to look at`);
    // "zero1 (ms-swift preset)" names a config as its path would (launch/referencedConfig.ts): data, not prose.
    assert.deepEqual(leftovers(surface.texts.map((text) => text.replace(/\S+ \(ms-swift preset\)/g, ' '))), [], surface.name);
  }
});

test('zero-lens estimate in qps-ploc: the text report, its stage table and its notes show no English', async () => {
  const texts: string[] = [];
  const runs = [
    ['estimate', 'examples/scripts/worked_8b_5gpus.sh', '--gpu-memory', '24'],
    // A size read off the name, optimizer offload with accumulation, LoRA, a 16-bit DDP run and RLHF extras: every note.
    ['estimate', '--model', 'acme/Foo-13B-A2B', '--gpus-per-node', '4', '--stage', '2', '--offload-optimizer', 'cpu', '--grad-accum', '4'],
    ['estimate', '--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8', '--lora-rank', '16', '--qlora', '--use-liger-kernel', '--sequence-parallel', '2', '--optimizer', 'paged_adamw_8bit'],
    ['estimate', '--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '2', '--ddp', '--torch-dtype', 'fp32', '--dtype', 'bf16'],
    ['estimate', '--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '8', '--rlhf', 'grpo', '--ref-model', 'Qwen/Qwen3-8B', '--vllm-gpu-memory-utilization', '0.4', '--attn-impl', 'eager', '--packing'],
    ['estimate', '--params', '7B', '--gpus-per-node', '8', '--stage', '3', '--offload-param', 'nvme', '--offload-optimizer', 'nvme', '--gpu-memory', '80'],
  ];
  for (const args of runs) {
    const { out, err } = await cli(args);
    assert.equal(err, '', args.join(' '));
    texts.push(out);
  }
  // Option labels of the legend and the table's GiB header are written as is; model names and flags are names.
  const words = leftovers(texts.map((text) => text.replace(/Qwen3-8B|Llama-3\.1-8B|Foo-13B-A2B|worked_8b_5gpus\.sh|adamw|bf16|fp32|paged_adamw_8bit|flash|eager|liger/g, ' ')));
  assert.deepEqual(words, []);
});
