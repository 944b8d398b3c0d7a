/**
 * The message catalog's mechanism: VS Code's `l10n.t` semantics, which language a reader gets (editor, setting,
 * CLI flag, environment), and that the ds_config hover, completion and the CLI speak it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionItem, MarkupContent } from 'vscode-languageserver-types';
import { bundleTranslator, english, formatMessage, messageKey } from '../../server/src/protocol/l10n';
import { environmentLocale, normalizeLocale, pseudoLocalize, resolveLocale, translator } from '../../server/src/l10n';
import { defaultSettings, withDefaults } from '../../server/src/settings';
import { getLanguageService } from '../../server/src/languageService';
import { main } from '../../server/src/cli/main';
import { takeLangOption } from '../../server/src/cli/locale';
import { describeSource, optionLabel } from '../../server/src/protocol';
import { nodeFileSystem } from '../../server/src/nodeHost';

test('t() reads as vscode.l10n.t does: the English text is the key, {0} and {name} are filled, a comment makes another key', () => {
  const t = bundleTranslator({ 'Saved {0} to {1}.': '已把 {0} 保存到{1}。', 'Hello {name}': '你好 {name}', 'Current/button': '当前' });
  assert.equal(t('Saved {0} to {1}.', 'zeroLens.model', '工作区设置'), '已把 zeroLens.model 保存到工作区设置。');
  assert.equal(t('Hello {name}', { name: 'DeepSpeed' }), '你好 DeepSpeed');
  assert.equal(t({ message: 'Current', comment: 'button' }), '当前');
  assert.equal(t({ message: 'Current', comment: 'badge' }), 'Current', 'another comment is another key');
  assert.equal(t('Not in the bundle {0}', 3), 'Not in the bundle 3', 'a missing entry reads in English');
  assert.equal(messageKey({ message: 'a', comment: ['b', 'c'] }), 'a/bc');
  assert.equal(formatMessage('{0} of {1} and {2}', [1, 2]), '1 of 2 and {2}', 'a placeholder without a value stays');
  assert.equal(formatMessage('JSON { "a": 1 }', ['x']), 'JSON { "a": 1 }', 'braces that are not placeholders stay');
  assert.equal(english('{0} GPUs', 8), '8 GPUs');
});

test('locales: BCP 47 tags and POSIX locales; simplified Chinese reads zh-cn, every other language English', () => {
  for (const tag of ['zh-cn', 'zh-CN', 'zh_CN.UTF-8', 'zh_CN.utf8@pinyin', 'zh', 'zh-Hans', 'zh-SG']) assert.equal(normalizeLocale(tag), 'zh-cn', tag);
  for (const tag of ['en', 'en-US', 'en_GB.UTF-8', 'C', 'POSIX', 'C.UTF-8', 'fr', 'ja', 'zh-TW', 'zh_HK.UTF-8', 'zh-Hant']) assert.equal(normalizeLocale(tag), 'en', tag);
  assert.equal(normalizeLocale('qps-ploc'), 'qps-ploc');
  assert.equal(normalizeLocale(''), undefined);
  assert.equal(normalizeLocale(undefined), undefined);
});

test('the language of a server instance or CLI run: explicit (not auto) first, then the display languages in order', () => {
  assert.equal(resolveLocale(['auto'], ['zh-cn']), 'zh-cn');
  assert.equal(resolveLocale(['en'], ['zh-cn']), 'en');
  assert.equal(resolveLocale([undefined, 'zh-cn'], ['en']), 'zh-cn');
  assert.equal(resolveLocale([], [undefined, '', 'zh_CN.UTF-8']), 'zh-cn', 'empty variables are skipped');
  assert.equal(resolveLocale([], ['C', 'zh_CN.UTF-8']), 'en', 'a set LC_ALL wins, whatever it says');
  assert.equal(resolveLocale([], []), 'en');
  assert.deepEqual(environmentLocale({ LANG: 'c', LC_MESSAGES: 'b', LC_ALL: 'a' }), ['a', 'b', 'c']);
  // zeroLens.language resolves against the editor's display language in the settings of every request.
  assert.equal(withDefaults({}, 'zh-cn').locale, 'zh-cn');
  assert.equal(withDefaults({ language: 'en' }, 'zh-cn').locale, 'en');
  assert.equal(withDefaults({ language: 'zh-cn' }, 'en').locale, 'zh-cn');
  assert.equal(withDefaults({ language: 'klingon' }, 'zh-cn').language, 'auto', 'an unknown value is auto');
  assert.equal(withDefaults({ locale: 'zh-cn' }).locale, 'en', 'a client cannot set the resolved locale directly');
  assert.equal(defaultSettings.locale, 'en');
});

test('the pseudo-locale accents every letter of a catalog text and keeps placeholders, code, links and codicons', () => {
  const out = pseudoLocalize('Use `zero_optimization` and {0}: see [docs](https://www.deepspeed.ai/docs/) $(check)');
  assert.match(out, /^［.*］$/);
  assert.ok(out.includes('`zero_optimization`') && out.includes('{0}') && out.includes('(https://www.deepspeed.ai/docs/)') && out.includes('$(check)'), out);
  assert.ok(!/Use|and|see/.test(out), out);
  assert.equal(translator('qps-ploc')('{0} GPUs', 8).includes('8'), true);
});

test('the shared protocol words a source and an option in the reader\'s language; English by default', () => {
  const zh = translator('zh-cn');
  assert.equal(describeSource({ kind: 'script', file: '/w/train.sh', line: 6 }), 'train.sh line 6');
  assert.equal(describeSource({ kind: 'script', file: '/w/train.sh', line: 6 }, zh), 'train.sh 第 6 行');
  assert.equal(describeSource({ kind: 'setting', name: 'gpusPerNode' }, zh), '设置（zeroLens.gpusPerNode）');
  const option = { stage: 3, offloadOptimizer: 'cpu', offloadParam: 'cpu' } as const;
  assert.equal(optionLabel(option), 'ZeRO-3 + CPU offload (optimizer, params)');
  assert.equal(optionLabel(option, zh), 'ZeRO-3 + CPU 卸载（优化器状态、参数）');
  assert.equal(optionLabel({ stage: 2, offloadOptimizer: 'none', offloadParam: 'none' }, zh), 'ZeRO-2');
});

test('ds_config hover and completion documentation come in the locale of the settings: the schema\'s Chinese and the catalog\'s words', async () => {
  const service = getLanguageService({ fs: nodeFileSystem });
  const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, '{\n  "zero_optimization": {\n    "stage": 3,\n    \n  }\n}\n');
  const zh = { ...defaultSettings, locale: 'zh-cn' as const };
  const hover = await service.doHover(document, { line: 2, character: 6 }, zh);
  // The key's documentation, after the estimate table that comes first on "stage".
  const markdown = (hover!.contents as MarkupContent).value.split('\n---\n').pop()!;
  assert.match(markdown, /类型：/);
  assert.match(markdown, /\[DeepSpeed 文档\]\(https:\/\/www\.deepspeed\.ai/);
  assert.match(markdown, /分片/, markdown);
  const english = (await service.doHover(document, { line: 2, character: 6 }, defaultSettings))!.contents as MarkupContent;
  assert.match(english.value, /Type: /);
  const list = await service.doComplete(document, { line: 3, character: 4 }, zh);
  const offload = list.items.find((item: CompletionItem) => item.label === 'offload_optimizer');
  const documentation = offload?.documentation as MarkupContent | undefined;
  assert.match(documentation?.value ?? '', /卸载/, documentation?.value);
});

test('the CLI: --lang anywhere, else LC_ALL, LC_MESSAGES, LANG; its help, usage errors and summary in that language', async () => {
  const run = async (args: string[], env: Record<string, string> = {}) => {
    let out = '';
    let err = '';
    const code = await main(args, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd: process.cwd(), env });
    return { code, out, err };
  };
  assert.match((await run(['--help'], { LANG: 'zh_CN.UTF-8' })).out, /^用法：/);
  assert.match((await run(['--help'], { LANG: 'zh_CN.UTF-8', LC_ALL: 'C' })).out, /^Usage:/);
  assert.match((await run(['--help'], { LANG: 'en_US.UTF-8', LC_MESSAGES: 'zh_CN.UTF-8' })).out, /^用法：/);
  assert.match((await run(['check', '--lang', 'zh-cn', '--help'])).out, /^用法：zero-lens check/);
  assert.match((await run(['--lang=en', 'check', '--help'], { LANG: 'zh_CN.UTF-8' })).out, /^Usage: zero-lens check/);
  assert.match((await run(['estimate', '--help', '--lang', 'zh-cn'])).out, /每卡微批次大小/);
  const missing = await run(['check', 'no/such.json', '--lang', 'zh-cn']);
  assert.equal(missing.code, 2);
  assert.equal(missing.err, "zero-lens check: 无法读取 'no/such.json'：文件或目录不存在。\n");
  const ok = await run(['check', 'examples/configs/ds_config_zero2.json'], { LANG: 'zh_CN.UTF-8' });
  assert.match(ok.out, /1 个文件中没有发现问题。\n$|1 个文件中有 /, ok.out);
  const bad = await run(['--lang']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--lang needs a language/);
  assert.deepEqual(takeLangOption(['check', '--', '--lang', 'x']), { args: ['check', '--', '--lang', 'x'], lang: undefined, invalid: undefined });
});
