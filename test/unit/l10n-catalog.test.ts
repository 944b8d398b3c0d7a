/**
 * The catalogs are complete and the code uses nothing outside them: every message id the code uses has its
 * Chinese, no bundle keeps an id the code no longer uses, package.json's contributions and every schema text
 * exist in both languages, and no user-visible English literal sits outside the catalogs where the lint fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { bundleLocales, lintMode, lintModes, looksLikeEnglish, readBundle, repoRoot, scan, schemaTexts } from '../../scripts/l10n';

const result = scan();
const usedKeys = new Set(result.messages.map((m) => m.key));

/** Placeholders `{0}`, `{name}` and code spans, which every translation must keep as they are. */
function kept(text: string): string[] {
  return [...(text.match(/\{[^}\s]+\}/g) ?? []), ...(text.match(/`[^`]+`/g) ?? [])].sort();
}

test('every message the code uses has a text in every bundle, and every bundle id is used', () => {
  assert.ok(result.messages.length > 200, `messages found: ${result.messages.length}`);
  assert.deepEqual(bundleLocales(), ['zh-cn']);
  for (const locale of bundleLocales()) {
    const bundle = readBundle(locale);
    const missing = [...usedKeys].filter((key) => !bundle[key]?.trim());
    assert.deepEqual(missing, [], `${locale}: messages without a translation (node --import tsx scripts/l10n.ts missing)`);
    const unused = Object.keys(bundle).filter((key) => !usedKeys.has(key));
    assert.deepEqual(unused, [], `${locale}: ids the code no longer uses`);
  }
});

test('every translation keeps the placeholders and code spans of its English text', () => {
  for (const locale of bundleLocales()) {
    const bundle = readBundle(locale);
    for (const [key, text] of Object.entries(bundle)) {
      const english = result.messages.find((m) => m.key === key)?.message ?? key;
      assert.deepEqual(kept(text), kept(english), `${locale}: ${JSON.stringify(key)} → ${JSON.stringify(text)}`);
    }
  }
});

test('translation calls name their message with a literal, so the checks can see it', () => {
  assert.deepEqual(result.dynamic, []);
});

test('no user-visible English literal outside the catalogs where the lint fails; the rest is reported', (t) => {
  const failing = result.literals.filter((finding) => lintMode(finding.file) === 'fail');
  assert.deepEqual(
    failing.map((f) => `${f.file}:${f.line}: ${f.text}`),
    [],
    'wrap these in t()/vscode.l10n.t() or, if no person reads them, mark the line // l10n-ignore: why',
  );
  const reported = result.literals.filter((finding) => lintMode(finding.file) === 'report');
  const byFolder = new Map<string, number>();
  for (const finding of reported) {
    const folder = finding.file.split('/').slice(0, 3).join('/');
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  t.diagnostic(`not yet in the catalog (report mode, phase 2): ${reported.length} literals: ${[...byFolder].map(([f, n]) => `${f} ${n}`).join(', ')}`);
  assert.ok(lintModes.some(([, mode]) => mode === 'fail'));
});

test('the lint tells English for people from identifiers, keys, flags, markup and command syntax', () => {
  for (const text of ['Apply', 'Folder…', 'no such file or folder', 'Saved to workspace settings.', 'Memory per option, in GiB']) assert.ok(looksLikeEnglish(text), text);
  for (const text of ['ready', 'zl-option zl-fit-fits', 'codicon codicon-file', '--format text|json', 'ds_config.json', 'zero-lens check <paths…> [--format text|json]', '<html lang="en">', 'ZeRO-3', 'A100 80GB', 'GiB', 'vscode-button', "default-src 'none'", '$(check) {0}']) {
    assert.ok(!looksLikeEnglish(text), text);
  }
});

const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as unknown;
const nls = (suffix: string) => JSON.parse(readFileSync(path.join(repoRoot, `package.nls${suffix}.json`), 'utf8')) as Record<string, string>;

function nlsReferences(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    const match = /^%(.+)%$/.exec(value);
    if (match) out.push(match[1]);
  } else if (Array.isArray(value)) value.forEach((v) => nlsReferences(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => nlsReferences(v, out));
  return out;
}

/** Texts of package.json that people read: they must all be %references%. */
function contributedTexts(value: unknown, key = '', out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (/^(description|markdownDescription|title|name|label|enumDescriptions|markdownEnumDescriptions|aliases)$/.test(key) && !/^%.+%$/.test(value) && looksLikeEnglish(value)) out.push(`${key}: ${value}`);
  } else if (Array.isArray(value)) value.forEach((v) => contributedTexts(v, key, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) contributedTexts(v, k, out);
  return out;
}

test('package.json: every contributed text is a %reference% with its English and Chinese in package.nls*.json', () => {
  const contributes = (packageJson as { contributes: unknown }).contributes;
  assert.deepEqual(contributedTexts(contributes), [], 'contributed texts not in package.nls.json');
  const references = nlsReferences(packageJson).sort();
  const english = nls('');
  const chinese = nls('.zh-cn');
  assert.deepEqual(Object.keys(english).sort(), references, 'package.nls.json has exactly the referenced keys');
  assert.deepEqual(Object.keys(chinese).sort(), references, 'package.nls.zh-cn.json has exactly the referenced keys');
  for (const key of references) {
    assert.ok(chinese[key].trim() && chinese[key] !== english[key], `${key} is translated`);
    assert.deepEqual(kept(chinese[key]), kept(english[key]), key);
  }
  assert.equal((packageJson as { l10n?: string }).l10n, './dist/l10n', 'VS Code finds the client bundle (written by the build) through "l10n"');
});

test('the schema: every key\'s documentation and every other text people read exists in English and Chinese, side by side', () => {
  const texts = schemaTexts();
  assert.ok(texts.filter((t) => t.field === 'markdownDescription').length > 650, 'the key docs are walked');
  assert.deepEqual(texts.filter((t) => t.english === '').map((t) => `${t.where} ${t.field}`), [], 'a Chinese text without its English');
  const missing: string[] = [];
  for (const { where, field, english, chinese } of texts) {
    const needs = Array.isArray(english) ? english.some(looksLikeEnglish) : looksLikeEnglish(english);
    if (chinese === undefined) {
      if (needs) missing.push(`${where} ${field}`);
      continue;
    }
    if (Array.isArray(english)) {
      assert.ok(Array.isArray(chinese) && chinese.length === english.length, `${where} ${field}-zh-cn: one text per value`);
      english.forEach((text, i) => assert.deepEqual(kept((chinese as string[])[i]), kept(text), `${where} ${field}[${i}]`));
    } else {
      assert.equal(typeof chinese, 'string', `${where} ${field}-zh-cn`);
      // The docs link is added by the hover in the reader's language; everything else in code spans stays.
      const englishBody = english.replace(/ ?\[DeepSpeed docs\]\([^)]*\)$/, '');
      assert.deepEqual(kept(chinese as string), kept(englishBody), `${where} ${field}: ${chinese as string}`);
      assert.ok(!/\[DeepSpeed docs\]/.test(chinese as string), `${where}: the link is worded by the hover`);
      assert.ok(/[\u4e00-\u9fff]/.test(chinese as string) || !needs, `${where} ${field}: ${chinese as string}`);
    }
  }
  assert.deepEqual(missing, [], 'schema texts without their Chinese (<field>-zh-cn beside the English)');
});
