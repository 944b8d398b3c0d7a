import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parse, type ParseError } from 'jsonc-parser';
import { findProperty, parseConfigText } from '../../server/src/dsconfig/parse';
import { applyStageSwitch, planStageSwitch } from '../../server/src/estimates/stageSwitch';
import type { ZeroOption as StageTarget } from '../../server/src/protocol';
import type { OffloadDevice, ZeroStage } from '../../server/src/memory/types';
import { withDefaults } from '../../server/src/settings';
import { applyWorkspaceEdit, configDocument, fixtureDir, memoryHosts, estimateFeatures } from '../unit/context-hosts';

type Json = Record<string, unknown>;

const devices: OffloadDevice[] = ['none', 'cpu', 'nvme'];
const allTargets: StageTarget[] = ([0, 1, 2, 3] as ZeroStage[]).flatMap((stage) =>
  devices.flatMap((offloadOptimizer) => devices.map((offloadParam) => ({ stage, offloadOptimizer, offloadParam }))),
);

const presetDir = path.resolve(fixtureDir, '../presets');
const fixtures: [string, string][] = [
  ...readdirSync(fixtureDir).filter((f) => f.endsWith('.json')).map((f) => [f, readFileSync(path.join(fixtureDir, f), 'utf8')] as [string, string]),
  ...readdirSync(presetDir).filter((f) => f.endsWith('.json')).map((f) => [f, readFileSync(path.join(presetDir, f), 'utf8')] as [string, string]),
];

function parseStrict(text: string): { value: unknown; errors: ParseError[] } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return { value, errors };
}

function has(value: unknown, p: (string | number)[]): boolean {
  let node = value;
  for (const segment of p) {
    if (!node || typeof node !== 'object' || !(String(segment) in (node as Json))) return false;
    node = (node as Json)[String(segment)];
  }
  return true;
}

function get(value: unknown, p: (string | number)[]): unknown {
  return p.reduce<unknown>((node, segment) => (node as Json | undefined)?.[String(segment)], value);
}

function remove(value: unknown, p: (string | number)[]): void {
  const parent = get(value, p.slice(0, -1));
  if (parent && typeof parent === 'object') delete (parent as Json)[String(p[p.length - 1])];
}

/**
 * The property: the result parses without errors; the planned paths hold the planned values (or are gone);
 * every other value is unchanged; every comment outside a removed property is still in the text.
 */
function checkSwitch(text: string, target: StageTarget): void {
  const before = parseConfigText(text);
  const switched = applyStageSwitch(text, before.value, target);
  assert.ok(switched, `the switch to ${JSON.stringify(target)} applies`);
  const after = switched.text;
  const parsedAfter = parseStrict(after);
  assert.deepEqual(parsedAfter.errors, [], `valid JSONC after switching to ${JSON.stringify(target)}:\n${after}`);
  if (text.includes('\r\n')) assert.doesNotMatch(after, /(^|[^\r])\n/, 'CRLF files stay CRLF');
  const plan = planStageSwitch(before.value, target);
  const expectedBefore = structuredClone(before.value);
  const actualAfter = structuredClone(parsedAfter.value);
  for (const change of plan.changes) {
    if (change.renameTo) {
      // The legacy key becomes the block in its place: gone under its old name, the value under the new one.
      const renamed = [...change.path.slice(0, -1), change.renameTo];
      assert.ok(!has(parsedAfter.value, change.path), `${change.path.join('.')} renamed`);
      assert.deepEqual(get(parsedAfter.value, renamed), change.value, `${renamed.join('.')} set`);
      remove(expectedBefore, change.path);
      remove(actualAfter, renamed);
      remove(expectedBefore, renamed);
      continue;
    }
    if (change.value === undefined) assert.ok(!has(parsedAfter.value, change.path), `${change.path.join('.')} removed`);
    else assert.deepEqual(get(parsedAfter.value, change.path), change.value, `${change.path.join('.')} set`);
    // Compare everything else: drop the changed path, or the outermost part of it that did not exist before.
    const created = change.path.findIndex((_, i) => !has(before.value, change.path.slice(0, i + 1)));
    const prune = created >= 0 ? change.path.slice(0, created + 1) : change.path;
    remove(expectedBefore, prune);
    remove(actualAfter, prune);
  }
  assert.deepEqual(actualAfter, expectedBefore, 'only the intended keys changed');

  const removedSpans = plan.changes
    .filter((c) => c.value === undefined)
    .map((c) => findProperty(before.root, c.path))
    .filter((n) => !!n)
    .map((n) => {
      const lineEnd = text.indexOf('\n', n!.offset + n!.length);
      return [n!.offset, lineEnd < 0 ? text.length : lineEnd];
    });
  for (const comment of before.comments) {
    if (removedSpans.some(([s, e]) => comment.offset >= s && comment.offset < e)) continue;
    const body = text.slice(comment.offset, comment.offset + comment.length);
    assert.ok(after.includes(body), `comment ${body} survives`);
  }
}

test('every option applied to every fixture: valid JSONC, only intended keys changed, comments kept', () => {
  for (const [name, text] of fixtures) {
    for (const target of allTargets) {
      try {
        checkSwitch(text, target);
      } catch (error) {
        throw new Error(`${name} → ${JSON.stringify(target)}: ${(error as Error).message}`);
      }
    }
  }
});

test('the offered quick fixes on every fixture produce valid JSONC', async () => {
  const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 80 });
  let applied = 0;
  for (const [name, text] of fixtures) {
    const features = estimateFeatures(memoryHosts({ [name]: text }));
    const document = configDocument(name, text);
    const line = text.split('\n').findIndex((l) => l.includes('"stage"'));
    if (line < 0) continue;
    const actions = await features.codeActions!(document, { start: { line, character: 0 }, end: { line, character: 0 } }, { diagnostics: [] }, settings);
    for (const action of actions.filter((a) => a.edit)) {
      const after = applyWorkspaceEdit(document, action.edit as Parameters<typeof applyWorkspaceEdit>[1]);
      assert.deepEqual(parseStrict(after).errors, [], `${name}: ${action.title}`);
      applied++;
    }
  }
  assert.ok(applied > 20, `fixes were offered and applied (${applied})`);
});

/** Generated configs: random ZeRO sections, stage-3 keys, offload blocks, indentation, comments, trailing commas. */
const zeroSection = fc.record(
  {
    stage: fc.constantFrom(0, 1, 2, 3),
    overlap_comm: fc.boolean(),
    reduce_bucket_size: fc.oneof(fc.constant('auto'), fc.integer({ min: 1, max: 1e9 })),
    stage3_max_live_parameters: fc.integer({ min: 1, max: 1e9 }),
    max_reuse_distance: fc.integer({ min: 1, max: 1e9 }),
    sub_group_size: fc.integer({ min: 1, max: 1e9 }),
    cpu_offload: fc.boolean(),
    offload_optimizer: fc.oneof(
      fc.constant(null),
      fc.record({ device: fc.constantFrom('none', 'cpu', 'nvme'), pin_memory: fc.boolean(), ratio: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: ['device'] }),
    ),
    offload_param: fc.record({ device: fc.constantFrom('none', 'cpu', 'nvme'), nvme_path: fc.constant('/nvme') }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

const config = fc.record(
  {
    train_micro_batch_size_per_gpu: fc.oneof(fc.constant('auto'), fc.integer({ min: 1, max: 64 })),
    bf16: fc.record({ enabled: fc.oneof(fc.boolean(), fc.constant('auto')) }),
    zero_optimization: zeroSection,
    steps_per_print: fc.integer({ min: 1, max: 1000 }),
  },
  { requiredKeys: [] },
);

/** JSON text with the given indentation, a comment after some lines and, optionally, trailing commas. */
function render(value: unknown, indent: string, commentEvery: number, trailing: boolean, inline: boolean): string {
  if (inline) return JSON.stringify(value, null, 0).replace(/,"/g, ', "').replace(/":/g, '": ');
  let lines = JSON.stringify(value, null, indent).split('\n');
  if (trailing) lines = lines.map((l, i) => (/[\d"el]$/.test(l) && /^\s*[}\]]/.test(lines[i + 1] ?? '') ? l + ',' : l));
  return lines.map((l, i) => (commentEvery > 0 && i % commentEvery === 1 && !l.trim().startsWith('}') ? `${l} // note ${i}` : l)).join('\n') + '\n';
}

test('property: any option applied to any generated config keeps it valid and changes only the intended keys', () => {
  fc.assert(
    fc.property(
      config,
      fc.constantFrom('  ', '    ', '\t'),
      fc.integer({ min: 0, max: 4 }),
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom(...allTargets),
      fc.boolean(),
      (value, indent, commentEvery, trailing, inline, target, crlf) => {
        const text = render(value, indent, commentEvery, trailing, inline);
        checkSwitch(crlf ? text.replace(/\n/g, '\r\n') : text, target);
      },
    ),
    { numRuns: 400 },
  );
});
