/**
 * What the user is told when a file is not read (a named pipe, a file over its cap, restricted mode), and
 * that text from files reaches Markdown as text, never as a link, an image or a command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { InlayHint, MarkupContent } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { missing, type FileSystemHost, type ReadResult, type WorkspaceHost } from '../../server/src/host';
import { cjkWordsWhole, markdownCode, markdownText, unbrokenCell, visibleText } from '../../server/src/util/markdown';
import { injectedModel, zero2Config } from '../reliability/hostileWorkspace';

const root = path.resolve('/ws');
const at = (name: string): string => path.join(root, name);

/** A workspace of in-memory files; some paths read as a given refusal instead of text. */
function hostsWith(files: Record<string, string>, refused: Record<string, ReadResult> = {}, restricted = false) {
  const fs: FileSystemHost = {
    readFile: async (file) => refused[file] ?? (files[file] !== undefined ? { text: files[file] } : missing),
    readBytes: async (file) => (refused[file] as never) ?? missing,
    exists: async (file) => file in files || file in refused || Object.keys(files).some((f) => f.startsWith(file + path.sep)),
    listDir: async () => undefined,
    restricted: () => restricted,
  };
  const workspace: WorkspaceHost = {
    folders: () => [root],
    launchFiles: async () => Object.keys(files).filter((f) => f.endsWith('.sh')),
    jsonFiles: async () => Object.keys(files).filter((f) => f.endsWith('.json')),
  };
  return { fs, workspace };
}

const settings = withDefaults({ gpusPerNode: 8, gpuMemoryGiB: 80 });

async function stageHover(files: Record<string, string>, config: string, refused: Record<string, ReadResult> = {}, restricted = false): Promise<string> {
  const service = getLanguageService(hostsWith(files, refused, restricted));
  const text = files[config];
  const document = TextDocument.create(URI.file(config).toString(), 'ds-config', 1, text);
  const hover = await service.doHover(document, document.positionAt(text.indexOf('"stage"') + 2), settings);
  return (hover?.contents as MarkupContent).value;
}

test('a --deepspeed config that is a named pipe gets a diagnostic saying it was not read and why', async () => {
  const script = 'deepspeed --num_gpus 8 train.py --deepspeed pipe.json --model_name_or_path Qwen/Qwen3-8B\n';
  const service = getLanguageService(hostsWith({ [at('train.sh')]: script }, { [at('pipe.json')]: { unread: { reason: 'not-a-file', what: 'named pipe' } } }));
  const document = TextDocument.create(URI.file(at('train.sh')).toString(), 'shellscript', 1, script);
  const diagnostics = await service.doValidation(document, settings);
  const notRead = diagnostics.find((d) => d.code === 'file-not-read');
  assert.ok(notRead, JSON.stringify(diagnostics.map((d) => d.code)));
  assert.equal(notRead.message, "ZeRO Lens did not read 'pipe.json': it is a named pipe, not a regular file. Its settings are not checked and not estimated.");
  assert.equal(document.getText(notRead.range), 'pipe.json');
});

test('a model folder whose config.json is over its cap: the stage hover says which file was not read and why', async () => {
  const files = {
    [at('ds_config.json')]: zero2Config,
    [at('train.sh')]: 'deepspeed --num_gpus 8 train.py --deepspeed ds_config.json --model_name_or_path ./big_model\n',
    [at('big_model/README.md')]: '',
  };
  const markdown = await stageHover(files, at('ds_config.json'), { [at('big_model/config.json')]: { unread: { reason: 'too-large', size: 600 * 1024 * 1024, limit: 1024 * 1024 } } });
  assert.ok(markdown.includes(markdownText(`ZeRO Lens did not size the model "./big_model"`)), markdown);
  assert.ok(markdown.includes(markdownText(`ZeRO Lens did not read ${at('big_model/config.json')}: it is 600 MiB, over the 1.0 MiB ZeRO Lens reads of such a file`)), markdown);
});

test('restricted mode: a model folder is not read and the hover says why the model has no size', async () => {
  const files = {
    [at('ds_config.json')]: zero2Config,
    [at('train.sh')]: 'deepspeed --num_gpus 8 train.py --deepspeed ds_config.json --model_name_or_path /outside/secret-model\n',
  };
  const markdown = await stageHover(files, at('ds_config.json'), {}, true);
  assert.match(markdown, /this workspace is not trusted, and in restricted mode ZeRO Lens reads no model folder or cache/);
  assert.doesNotMatch(markdown, /ZeRO options for/);
});

test('a model name written as Markdown shows as text in the stage hover and the hint tooltip: no link, no image, no command', async () => {
  const files = {
    [at('ds_config.json')]: zero2Config,
    [at('train.sh')]: `deepspeed --num_gpus 8 train.py --deepspeed ds_config.json --model_name_or_path '${injectedModel}'\n`,
  };
  const markdown = await stageHover(files, at('ds_config.json'));
  assert.ok(markdown.includes(markdownText(injectedModel)), markdown);
  assertNoInjectedMarkdown(markdown);
  // Our own command link is still there, built by the server.
  assert.match(markdown, /\[Set model and GPUs…\]\(command:zeroLens\.setTrainingContext\?/);

  const service = getLanguageService(hostsWith(files));
  const document = TextDocument.create(URI.file(at('ds_config.json')).toString(), 'ds-config', 1, zero2Config);
  const hints: InlayHint[] = await service.getInlayHints(document, { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } }, settings);
  for (const hint of hints) {
    const tooltips = [hint.tooltip, ...(Array.isArray(hint.label) ? hint.label.map((p) => p.tooltip) : [])];
    for (const tooltip of tooltips) if (tooltip && typeof tooltip !== 'string') assertNoInjectedMarkdown(tooltip.value);
  }
});

test('a script hover and a flag hover show names from the file as text', async () => {
  const script = `swift sft --model Qwen/Qwen3-8B --deepspeed '${'`'}](command:x)' --num_train_epochs 1\n`;
  const service = getLanguageService(hostsWith({ [at('train.sh')]: script }));
  const document = TextDocument.create(URI.file(at('train.sh')).toString(), 'shellscript', 1, script);
  const hover = await service.doHover(document, document.positionAt(script.indexOf('](command') + 1), settings);
  const markdown = (hover?.contents as MarkupContent | undefined)?.value ?? '';
  // Inside a code span that no backtick of the value can close, the link syntax is text.
  assert.ok(markdown.startsWith(`${markdownCode("`](command:x)")} is not a DeepSpeed preset`), markdown);
});

/** Markdown that renders the injected name as a link, an image or a command would contain these unescaped. */
function assertNoInjectedMarkdown(markdown: string): void {
  assert.doesNotMatch(markdown, /(^|[^\\])\[click me(\\)?\]\(/, 'no link from the file');
  assert.doesNotMatch(markdown, /(^|[^\\])!\[b(\\)?\]/, 'no image from the file');
  assert.doesNotMatch(markdown, /(^|[^\\])\]\(command:zeroLens\.switchStage/, 'no command link from the file');
  assert.doesNotMatch(markdown, /(^|[^\\])\(https:\/\/example\.invalid/, 'no remote URL from the file');
}

test('the escape helpers: punctuation that starts Markdown escaped, identifiers left readable, controls made visible', () => {
  assert.equal(markdownText('[a](command:x)'), '\\[a\\](command\\:x)');
  assert.equal(markdownText('![i](https://h/p.png) <b> *e* `c` | www.x.org a@b'), '!\\[i\\](https\\://h/p.png) \\<b\\> \\*e\\* \\`c\\` \\| www\\.x.org a\\@b');
  assert.equal(markdownText('num_gpus _x_ Qwen2.5-7B'), 'num_gpus \\_x\\_ Qwen2.5-7B');
  assert.equal(markdownText('line\nbreak'), 'line break');
  assert.equal(visibleText('a\u202eb\u0007'), 'a\\u{202e}b\\u{0007}');
  assert.equal(markdownCode('a`b``c'), '```a`b``c```');
  assert.equal(markdownCode('`x'), '`` `x ``');
  // Plain text (a key, a path) takes the short way; anything else still the careful one.
  assert.equal(markdownCode('zero_optimization.stage'), '`zero_optimization.stage`');
  assert.equal(markdownCode(''), '``');
  assert.equal(markdownCode('a\tb\nc\u202ed'), '`a\tb c\\u{202e}d`');
});

test('table cells: a size or "2Ψ (1×)" on one line; Chinese words whole, still wrapping at spaces', () => {
  assert.equal(unbrokenCell('101.6 GiB'), '101.6\u00a0GiB');
  assert.equal(unbrokenCell('2Ψ (1×)'), '2Ψ\u00a0(1×)');
  assert.equal(cjkWordsWhole('优化器更新'), '优\u2060化\u2060器\u2060更\u2060新');
  assert.equal(cjkWordsWhole('前向 + 反向'), '前\u2060向 + 反\u2060向');
  assert.equal(cjkWordsWhole('ZeRO-1 + CPU 卸载（优化器状态）'), 'ZeRO-1 + CPU 卸\u2060载\u2060（\u2060优\u2060化\u2060器\u2060状\u2060态\u2060）');
  assert.equal(cjkWordsWhole('optimizer step'), 'optimizer step');
});
