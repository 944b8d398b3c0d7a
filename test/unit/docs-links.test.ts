/**
 * Links in the docs and in diagnostics lead somewhere: every relative link and anchor of the repository's
 * Markdown resolves, and every `#anchor` a diagnostic links to on a documentation page is a heading of that page
 * as upstream writes it (the headings below are read from the page's source at the commit named beside it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as links from '../../server/src/diagnostics/docsLinks';
import { diagnosticRegistry } from '../../server/src/diagnostics/registry';

const root = path.resolve(__dirname, '../..');

const markdownFiles = [
  'README.md',
  'README.zh-CN.md',
  'CHANGELOG.md',
  'docs/ARCHITECTURE.md',
  'docs/memory-model.md',
  'docs/worked-cases.md',
  'docs/worked-cases.zh-CN.md',
  'docs/glossary.md',
  'examples/README.md',
  'bench/README.md',
  'test/corpus/README.md',
  'scripts/catalog/README.md',
  'server/src/launch/README.md',
];

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
function githubSlug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = githubSlug(heading);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

for (const file of markdownFiles) {
  test(`${file}: every relative link and anchor resolves`, () => {
    const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, href] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(href)) continue;
      const [target, anchor] = href.split('#');
      const resolved = target ? path.join(root, path.dirname(file), decodeURIComponent(target)) : path.join(root, file);
      if (!existsSync(resolved)) {
        broken.push(`${href}: no such file`);
        continue;
      }
      if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${href}: no such heading`);
      }
    }
    assert.deepEqual(broken, []);
  });
}

/**
 * The anchors of the documentation pages diagnostics link into, read from each page's source. A page missing
 * here fails the last test below, so a new anchored link cannot go unchecked.
 */
const pageAnchors: Record<string, { source: string; anchors: string[] }> = {
  // kramdown ids of the "###" headings of docs/_pages/config-json.md (L7, L40, L196, L221, L253, L340, L387, L452,
  // L636, L687, L781, L1134, L1155, L1318, L1529, L1720, L2167, L2262)
  'https://www.deepspeed.ai/docs/config-json/': {
    source: 'deepspeedai/DeepSpeed@edaa7221:docs/_pages/config-json.md',
    anchors: [
      'batch-size-related-parameters',
      'optimizer-parameters',
      'scheduler-parameters',
      'communication-options',
      'fp16-training-options',
      'bfloat16-training-options',
      'automatic-mixed-precision-amp-training-options',
      'zero-optimizations-for-fp16-training',
      'parameter-offloading',
      'optimizer-offloading',
      'tensor-parallel-autotp',
      'logging',
      'autotuning',
      'activation-checkpointing',
      'curriculum-learning',
      'elastic-training-config-v01-and-v02',
      'checkpoint-options',
      'data-type-options',
    ],
  },
  // "## Resource Configuration (multi-node)", docs/_tutorials/getting-started.md L173
  'https://www.deepspeed.ai/getting-started/': {
    source: 'deepspeedai/DeepSpeed@edaa7221:docs/_tutorials/getting-started.md',
    anchors: ['resource-configuration-multi-node'],
  },
  // hf-doc-builder ids of docs/source/en/deepspeed.md's headings, e.g. "## DeepSpeed configuration file" (L111) and
  // "### DeepSpeed and Trainer parameters" (L150); the page links its own "### ZeRO configuration" as #zero-configuration
  'https://huggingface.co/docs/transformers/main/en/deepspeed': {
    source: 'huggingface/transformers@83b507b7:docs/source/en/deepspeed.md',
    anchors: [
      'installation',
      'memory-requirements',
      'select-a-zero-stage',
      'deepspeed-configuration-file',
      'deepspeed-and-trainer-parameters',
      'zero-configuration',
      'nvme-configuration',
      'deepspeed-features',
      'batch-size',
      'gradient-accumulation',
      'gradient-clipping',
    ],
  },
};

const anchored = [...new Set(Object.values(links)
  .flatMap((group) => Object.values(group as Record<string, string>))
  .concat(Object.values(diagnosticRegistry).map((info) => info.href))
  .filter((href) => href.includes('#') && !href.startsWith('https://github.com/')))];

test('every anchor a diagnostic links to on a DeepSpeed or Hugging Face page is a heading of that page', () => {
  const broken = anchored.flatMap((href) => {
    const [page, anchor] = href.split('#');
    const known = pageAnchors[page];
    if (!known) return [];
    return known.anchors.includes(anchor) ? [] : [`${href} (not a heading of ${known.source})`];
  });
  assert.deepEqual(broken, []);
});

test('every anchored docs link on deepspeed.ai or huggingface.co is on a page whose headings are recorded here', () => {
  const unknown = anchored.filter((href) => /^https:\/\/(www\.deepspeed\.ai|huggingface\.co)\//.test(href) && !pageAnchors[href.split('#')[0]]);
  assert.deepEqual(unknown, []);
});
