/**
 * Code spans hold identifiers, keys and values, which stay as written in every language: a Chinese schema text keeps
 * its Chinese outside the backticks (`DeepSpeedPlugin.zero_stage`（accelerate 配置）, not one span around both), both
 * as written in the schemas and as the hover shows who fills "auto".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver-types';
import { autoFiller } from '../../server/src/dsconfig/hover/describe';
import { hover } from '../../server/src/dsconfig/hover/hover';
import { ConfigParses } from '../../server/src/dsconfig/parse';
import type { DeepSpeedMeta } from '../../server/src/dsconfig/schemaIndex';
import { translator } from '../../server/src/l10n';
import { withDefaults } from '../../server/src/settings';
import { withCursor } from './dsconfig-completion-cursor';

const schemas = path.resolve(__dirname, '../../schemas');
/** CJK ideographs and the full-width punctuation that comes with them. */
const cjk = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
const spansWithCjk = (text: string) => [...text.matchAll(/`([^`]*)`/g)].map((m) => m[0]).filter((span) => cjk.test(span));

function walk(node: unknown, visit: (key: string, value: unknown, owner: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) for (const item of node) walk(item, visit);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value, node as Record<string, unknown>);
      walk(value, visit);
    }
  }
}

test('no zh-cn text of a schema has Chinese inside a code span', () => {
  const found: string[] = [];
  for (const file of readdirSync(schemas).filter((f) => f.endsWith('.schema.json'))) {
    walk(JSON.parse(readFileSync(path.join(schemas, file), 'utf8')), (key, value) => {
      if (!key.endsWith('-zh-cn')) return;
      for (const text of Array.isArray(value) ? value : [value]) if (typeof text === 'string') found.push(...spansWithCjk(text).map((s) => `${file} ${key}: ${s}`));
    });
  }
  assert.deepEqual(found, []);
});

test('who fills "auto", in Chinese: every schema entry keeps the Chinese outside the code spans', () => {
  const zh = translator('zh-cn');
  const found: string[] = [];
  let fillers = 0;
  walk(JSON.parse(readFileSync(path.join(schemas, 'ds_config.schema.json'), 'utf8')), (key, value) => {
    if (key !== 'x-deepspeed' || !(value as DeepSpeedMeta).auto) return;
    fillers++;
    const text = autoFiller((value as DeepSpeedMeta).auto!, zh, 'zh-cn');
    found.push(...spansWithCjk(text).map((s) => `${text} → ${s}`));
  });
  assert.ok(fillers > 20, `${fillers} "auto" fillers`);
  assert.deepEqual(found, []);
});

test('the hover on zero_optimization.stage in Chinese: `DeepSpeedPlugin.zero_stage`（accelerate 配置）', async () => {
  const { document, position } = withCursor('{\n  "zero_optimization": {\n    "st|age": 3\n  }\n}');
  const result = await hover(new ConfigParses(), document, position, withDefaults({ language: 'zh-cn' }));
  const markdown = (result?.contents as MarkupContent).value;
  assert.match(markdown, /取自 `DeepSpeedPlugin\.zero_stage`（accelerate 配置）/, markdown);
  assert.deepEqual(spansWithCjk(markdown), []);
});
