/**
 * One terminology everywhere (docs/glossary.md): where an English text uses a glossary term, its Chinese uses the
 * glossary's Chinese term. Checked over every catalog: the client/server/CLI bundle, package.nls and the schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readBundle, repoRoot, scan, schemaTexts } from '../../scripts/l10n';

interface Term {
  english: string[];
  chinese: string[];
}

/** The rows of the glossary's table: `| English forms / … | 中文 / … | notes |`. */
export function glossary(): Term[] {
  const text = readFileSync(path.join(repoRoot, 'docs/glossary.md'), 'utf8');
  const table = text.slice(text.indexOf('## Terms'));
  const rows: Term[] = [];
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || cells[1] === 'English' || /^-+$/.test(cells[1])) continue;
    rows.push({ english: cells[1].split('/').map((s) => s.trim()).filter(Boolean), chinese: cells[2].split('/').map((s) => s.trim()).filter(Boolean) });
  }
  return rows;
}

/** What a text says in words: no code, URLs, link targets, placeholders, file names, dotted or snake_case identifiers, names. */
function prose(text: string): string {
  return text
    .replace(/`[^`]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\{[^}\s]*\}/g, ' ')
    .replace(/\b[\w-]+(?:[._/][\w*-]+)+\b/g, ' ')
    .replace(/\bzero-lens (check|estimate)\b/g, ' ')
    .replace(/\b(ZeRO-Offload|ZeRO-Infinity|ZeRO\+\+|ZeRO Lens|DeepSpeed-Chat)\b/g, ' ');
}

/** The glossary terms an English text uses, longest first, each span counted once. */
export function termsIn(english: string, terms: Term[]): Term[] {
  const text = prose(english);
  const forms = terms
    .flatMap((term) => term.english.map((form) => ({ term, form })))
    .sort((a, b) => b.form.length - a.form.length);
  const taken: [number, number][] = [];
  const found = new Set<Term>();
  for (const { term, form } of forms) {
    const pattern = new RegExp(`(?<![\\w-])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[- ]/g, '[- ]')}(?![\\w-])`, 'gi');
    for (const match of text.matchAll(pattern)) {
      const start = match.index!;
      const end = start + match[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      taken.push([start, end]);
      found.add(term);
    }
  }
  return [...found];
}

function pairs(): { where: string; english: string; chinese: string }[] {
  const out: { where: string; english: string; chinese: string }[] = [];
  const bundle = readBundle('zh-cn');
  for (const message of scan().messages) if (bundle[message.key]) out.push({ where: `${message.file}:${message.line}`, english: message.message, chinese: bundle[message.key] });
  const english = JSON.parse(readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const chinese = JSON.parse(readFileSync(path.join(repoRoot, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
  for (const key of Object.keys(english)) out.push({ where: `package.nls ${key}`, english: english[key], chinese: chinese[key] ?? '' });
  for (const text of schemaTexts()) {
    if (text.chinese === undefined) continue;
    const en = Array.isArray(text.english) ? text.english : [text.english];
    const zh = (Array.isArray(text.chinese) ? text.chinese : [text.chinese]) as string[];
    en.forEach((e, i) => out.push({ where: `schema ${text.where} ${text.field}`, english: e, chinese: zh[i] ?? '' }));
  }
  return out;
}

test('the glossary is a table of English forms and Chinese terms', () => {
  const terms = glossary();
  assert.ok(terms.length >= 40, `${terms.length} terms`);
  const byName = (name: string) => terms.find((t) => t.english.includes(name))?.chinese[0];
  assert.equal(byName('GPU memory'), '显存');
  assert.equal(byName('optimizer states'), '优化器状态');
  assert.equal(byName('gradients'), '梯度');
  assert.equal(byName('parameters'), '参数');
  assert.equal(byName('activations'), '激活值');
  assert.equal(byName('sharded'), '分片');
  assert.equal(byName('offload'), '卸载');
  assert.equal(byName('mixed precision'), '混合精度');
  assert.equal(byName('gradient checkpointing'), '梯度检查点');
  assert.equal(byName('micro-batch'), '微批次');
  assert.equal(byName('gradient accumulation'), '梯度累积');
  assert.deepEqual(termsIn('Offload optimizer states to `cpu` with gradient checkpointing', terms).map((t) => t.chinese[0]).sort(), ['优化器状态', '卸载', '梯度检查点'].sort());
  assert.deepEqual(termsIn('see `zero_optimization.offload_param` and ds_config.json', terms), [], 'code and file names are not prose');
});

test('where an English text uses a glossary term, its Chinese uses the glossary\'s Chinese term', () => {
  const terms = glossary();
  const all = pairs();
  assert.ok(all.length > 1000, `${all.length} texts checked`);
  const wrong: string[] = [];
  for (const { where, english, chinese } of all) {
    for (const term of termsIn(english, terms)) {
      if (!term.chinese.some((word) => chinese.includes(word))) wrong.push(`${where}: "${term.english[0]}" → ${term.chinese.join(' / ')}\n    ${english}\n    ${chinese}`);
    }
  }
  assert.equal(wrong.length, 0, `texts that do not use the glossary's Chinese term:\n${wrong.join('\n')}`);
});
