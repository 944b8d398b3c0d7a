/**
 * An editor that shows only plain text (`hover.contentFormat: ['plaintext']`, `documentationFormat: ['plaintext']`)
 * gets the service's hovers and completion documentation as readable text, through the facade's real path.
 */
import { test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionItem, Hover, MarkupContent } from 'vscode-languageserver-types';
import { getLanguageService, markdownSupportOf, type LanguageServiceParams } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { missing, type FileSystemHost } from '../../server/src/host';
import { inlineCompletion, type CompletionClientSupport } from '../../server/src/completionList';
import { markdownAsPlainText } from '../../server/src/util/plainText';
import { textWidth } from '../../server/src/util/textWidth';

const noDisk: FileSystemHost = {
  readFile: async () => missing,
  readBytes: async () => missing,
  exists: async () => false,
  listDir: async () => undefined,
};
const plainClient: Partial<LanguageServiceParams> = { markupFormats: { hover: ['plaintext'], documentation: ['plaintext'] } };
const config = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 2\n  },\n  "train_micro_batch_size_per_gpu": 4\n}\n';

async function hoverAt(text: string, uri: string, language: string, at: number, options: Partial<LanguageServiceParams>, locale = 'en'): Promise<Hover | null> {
  const document = TextDocument.create(uri, language, 1, text);
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 4, gpuMemoryGiB: 80, language: locale });
  return getLanguageService({ fs: noDisk, ...options }).doHover(document, document.positionAt(at), settings);
}
const configHover = (key: string, options: Partial<LanguageServiceParams>, locale?: string) =>
  hoverAt(config, 'file:///w/ds_config.json', 'ds-config', config.indexOf(key) + 2, options, locale);

/** What Markdown would show as marks, never as text: bold, code, table rules, links. */
function assertNoMarkdown(text: string): void {
  assert.doesNotMatch(text, /\*\*|`|\|[-:]+\||\]\(|\\[#:_*]|\u2060/, text);
}

/** The columns (in terminal cells) where each line of the table ends its first `GiB`: right-aligned, so all the same. */
function sizeColumnEnds(text: string): number[] {
  return text
    .split('\n')
    .filter((line) => /^(▶| ) +ZeRO-\d/.test(line))
    .map((line) => textWidth(line.slice(0, line.indexOf('GiB') + 3)));
}

test('the stage hover in a plain-text editor: the table as aligned columns, the docs without marks', async () => {
  const hover = await configHover('"stage"', plainClient);
  const contents = hover?.contents as MarkupContent;
  assert.equal(contents.kind, 'plaintext');
  assertNoMarkdown(contents.value);
  assert.match(contents.value, /^ZeRO options for Qwen3-8B on 4 GPUs\n\n +Option +Per GPU +Allocated/);
  assert.match(contents.value, /\n▶ +ZeRO-2 +\d+\.\d GiB/);
  const ends = sizeColumnEnds(contents.value);
  assert.equal(ends.length, 8);
  assert.deepEqual(new Set(ends).size, 1, contents.value);
  assert.match(contents.value, /\nzero_optimization\.stage\n\nWhich ZeRO stage to use/);
  assert.match(contents.value, /DeepSpeed docs \(https:\/\/www\.deepspeed\.ai\/docs\/config-json\/#zero-optimizations-for-fp16-training\)/);
  assert.match(contents.value, /Type: integer · Default: 0 · Allowed: 0, 1, 2, 3/);
  assert.match(contents.value, /model Qwen3-8B \(8\.19B params\) \(settings \(zeroLens\.model\)\)/);
  assert.deepEqual(hover?.range, (await configHover('"stage"', {}))?.range);
});

test('the Chinese stage hover stays readable: CJK columns line up by terminal width, no word joiners', async () => {
  const contents = (await configHover('"stage"', plainClient, 'zh-cn'))?.contents as MarkupContent;
  assertNoMarkdown(contents.value);
  assert.match(contents.value, /^Qwen3-8B 的 ZeRO 方案（4 张 GPU）\n/);
  assert.match(contents.value, /ZeRO-3 \+ CPU 卸载（优化器状态、参数） +\d+\.\d GiB/);
  const ends = sizeColumnEnds(contents.value);
  assert.equal(ends.length, 8);
  assert.equal(new Set(ends).size, 1, contents.value);
  assert.match(contents.value, /类型：integer · 默认值：0 · 可选值：0、1、2、3/);
});

test("a key's documentation hover in a plain-text editor", async () => {
  const contents = (await configHover('"train_micro_batch_size_per_gpu"', plainClient))?.contents as MarkupContent;
  assert.equal(contents.kind, 'plaintext');
  assertNoMarkdown(contents.value);
  assert.match(contents.value, /^train_micro_batch_size_per_gpu\n\nSamples each GPU processes in one forward\/backward pass\./);
  assert.match(contents.value, /\nType: integer \| null · Default: null · Range: ≥ 1\n/);
  assert.match(contents.value, /"auto" accepted: filled by the Hugging Face Trainer or accelerate, from TrainingArguments\.per_device_train_batch_size\./);
});

test("a launch flag's hover in a plain-text editor", async () => {
  const script = 'deepspeed --num_gpus 8 train.py --deepspeed ds.json --per_device_train_batch_size 2\n';
  const hover = await hoverAt(script, 'file:///w/run.sh', 'shellscript', script.indexOf('--num_gpus') + 3, plainClient);
  const contents = hover?.contents as MarkupContent;
  assert.equal(contents.kind, 'plaintext');
  assert.equal(contents.value.split('\n')[0], '--num_gpus (deepspeed launcher)');
  assertNoMarkdown(contents.value);
});

test('an editor that shows Markdown gets the hover exactly as before', async () => {
  const markdownClient = await configHover('"stage"', { markupFormats: { hover: ['markdown', 'plaintext'], documentation: ['markdown', 'plaintext'] } });
  const unsaid = await configHover('"stage"', {});
  assert.deepEqual(markdownClient, unsaid);
  assert.equal((markdownClient?.contents as MarkupContent).kind, 'markdown');
  assert.match((markdownClient?.contents as MarkupContent).value, /\| ▶ \| \*\*ZeRO-2\*\* \|/);
});

/** The documentation of the completion item labelled `label` inside `zero_optimization`, listed or resolved. */
async function documentation(options: Partial<LanguageServiceParams>, label: string): Promise<CompletionItem['documentation']> {
  const text = '{\n  "zero_optimization": {\n    "stage": 2,\n    \n  }\n}\n';
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
  const service = getLanguageService({ fs: noDisk, ...options });
  const settings = withDefaults({});
  const list = await service.doComplete(document, { line: 3, character: 4 }, settings);
  const item = list.items.find((i) => i.label === label);
  assert.ok(item, list.items.map((i) => i.label).join(', '));
  const data = item.data ?? list.itemDefaults?.data;
  return item.documentation ?? (await service.resolveCompletion(document, { ...item, data }, settings)).documentation;
}

test('completion documentation, inline or resolved, is plain text for a plain-text editor and Markdown otherwise', async () => {
  const resolving: CompletionClientSupport = { ...inlineCompletion, resolveDocumentation: true, resolveDetail: true, defaultEditRange: true, defaultData: true };
  for (const completion of [undefined, resolving]) {
    const plain = (await documentation({ ...plainClient, completion }, 'contiguous_gradients')) as MarkupContent;
    assert.equal(plain.kind, 'plaintext');
    assertNoMarkdown(plain.value);
    assert.match(plain.value, /^zero_optimization\.contiguous_gradients\n\nCopy gradients/);
    const rich = (await documentation({ completion }, 'contiguous_gradients')) as MarkupContent;
    assert.equal(rich.kind, 'markdown');
    assert.equal(plain.value, markdownAsPlainText(rich.value));
  }
});

test('the conversion: escapes, code spans holding backticks, command links, folded sections, fences, two-column tables', () => {
  const markdown = [
    '## Heading',
    '',
    '<details><summary>What the preset sets</summary>',
    '',
    '| key | value |',
    '|---|--:|',
    '| `a\\|b` | **1** |',
    '',
    'A \\*literal\\* star, `` a`b `` and [run it](command:zeroLens.apply?%5B%5D), _note_ on num_gpus, <https://x.dev>.',
    '',
    '```json',
    '{ "a": "**b**" }',
    '```',
    '</details>',
  ].join('\n');
  assert.equal(
    markdownAsPlainText(markdown),
    ['Heading', '', 'What the preset sets', '', 'key: value', 'a|b: 1', '', 'A *literal* star, a`b and run it, note on num_gpus, https://x.dev.', '', '{ "a": "**b**" }'].join('\n'),
  );
});

test('every hover over the examples, in English and Chinese, reads as plain text', async () => {
  let hovers = 0;
  for (const dir of ['examples/configs', 'examples/scripts']) {
    for (const file of readdirSync(dir)) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      const language = file.endsWith('.json') ? 'ds-config' : file.endsWith('.sh') ? 'shellscript' : 'yaml';
      const document = TextDocument.create(`file:///w/${file}`, language, 1, text);
      const service = getLanguageService({ fs: noDisk, ...plainClient });
      for (const locale of ['en', 'zh-cn']) {
        const settings = withDefaults({ model: 'Qwen/Qwen3-8B', language: locale });
        for (let at = 0; at < text.length; at += 7) {
          const contents = (await service.doHover(document, document.positionAt(at), settings))?.contents as MarkupContent | undefined;
          if (!contents) continue;
          hovers++;
          assert.equal(contents.kind, 'plaintext');
          assertNoMarkdown(contents.value);
          assert.doesNotMatch(contents.value, /<\/?\w+>/, contents.value);
        }
      }
    }
  }
  assert.ok(hovers > 500, `${hovers} hovers`);
});

test('the stage hint\'s tooltip in a plain-text editor is plain text; a Markdown editor keeps its Markdown', async () => {
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, config);
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 4, gpuMemoryGiB: 80 });
  const everything = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };
  const tooltipOf = async (options: Partial<LanguageServiceParams>) => {
    const [hint] = await getLanguageService({ fs: noDisk, ...options }).getInlayHints(document, everything, settings);
    return hint?.tooltip as MarkupContent;
  };
  const rich = await tooltipOf({});
  assert.equal(rich.kind, 'markdown');
  const plain = await tooltipOf(plainClient);
  assert.equal(plain.kind, 'plaintext');
  assert.equal(plain.value, markdownAsPlainText(rich.value));
  assertNoMarkdown(plain.value);
});

test('an editor that lists plain text first gets plain text in hovers, tooltips and documentation (LSP: the order is its preference)', async () => {
  const prefersPlain: Partial<LanguageServiceParams> = { markupFormats: { hover: ['plaintext', 'markdown'], documentation: ['plaintext', 'markdown'] } };
  assert.equal(((await configHover('"stage"', prefersPlain))?.contents as MarkupContent).kind, 'plaintext');
  assert.equal(((await documentation(prefersPlain, 'contiguous_gradients')) as MarkupContent).kind, 'plaintext');
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, config);
  const everything = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };
  const [hint] = await getLanguageService({ fs: noDisk, ...prefersPlain }).getInlayHints(document, everything, withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 4, gpuMemoryGiB: 80 }));
  assert.equal((hint?.tooltip as MarkupContent).kind, 'plaintext');
  // Each surface follows its own list; nothing listed, or no Markdown listed, reads as before.
  assert.deepEqual(markdownSupportOf({ hover: ['markdown', 'plaintext'], documentation: ['plaintext'] }), { hover: true, documentation: false });
  assert.deepEqual(markdownSupportOf({}), { hover: true, documentation: true });
  assert.deepEqual(markdownSupportOf({ hover: [], documentation: ['x-other'] }), { hover: false, documentation: false });
});
