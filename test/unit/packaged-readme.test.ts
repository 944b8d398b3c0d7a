import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { packagedReadme } from '../../scripts/lib/packagedReadme.mjs';

test('the packaged README embeds its pictures and turns links to repository files into their names', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'zero-lens-readme-'));
  mkdirSync(path.join(root, 'docs/images'), { recursive: true });
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  writeFileSync(path.join(root, 'docs/images/a.png'), png);
  const markdown = [
    'English · [简体中文](README.zh-CN.md)',
    '![The sidebar](docs/images/a.png)',
    'See [docs/memory-model.md](docs/memory-model.md) and [the settings](#settings).',
    'Upstream: [DeepSpeed](https://github.com/deepspeedai/DeepSpeed), ![badge](https://example.com/b.svg).',
  ].join('\n');
  assert.equal(
    (packagedReadme as (m: string, r: string) => string)(markdown, root),
    [
      'English · 简体中文 (`README.zh-CN.md`)',
      `![The sidebar](data:image/png;base64,${png.toString('base64')})`,
      'See `docs/memory-model.md` and [the settings](#settings).',
      'Upstream: [DeepSpeed](https://github.com/deepspeedai/DeepSpeed), ![badge](https://example.com/b.svg).',
    ].join('\n'),
  );
});

test('the real README packs with every picture found', () => {
  const root = path.resolve(__dirname, '../..');
  const packed = (packagedReadme as (m: string, r: string) => string)(readFileSync(path.join(root, 'README.md'), 'utf8'), root);
  assert.equal(/\]\((?!https?:|#|data:)[^)]+\)/.test(packed), false, 'no relative link is left');
  assert.ok((packed.match(/!\[[^\]]*\]\(data:image\/webp;base64,/g) ?? []).length >= 2);
});
