/**
 * Every code action ZeRO Lens offers on a ds_config, on 2,000 generated configs (misspelled, deprecated and
 * legacy keys, wrong types, stage-only keys at other stages, offload blocks, duplicates, comments on and
 * between lines, trailing commas, tabs, CRLF): each action offered for each diagnostic, and the stage moves
 * offered on "stage", is checked by fixCheck.ts (named keys only, comments kept, no placeholders).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { missing, type FileSystemHost } from '../../server/src/host';
import { checkConfigAction } from './fixCheck';

/** One entry of an object as written: a key (maybe repeated), a value, and the comments around it. */
interface Entry {
  key: string;
  value: Value;
  commentAbove?: string;
  commentAfter?: string;
}
type Value = string | number | boolean | null | Entry[] | unknown[];

const comment = fc.constantFrom('// why', '// old key', '/* tuned */', '// keep: see wiki', undefined, undefined, undefined);

const device = fc.constantFrom('none', 'cpu', 'nvme', 'CPU', 'gpu');
const offloadBlock = fc
  .record(
    { device, pin_memory: fc.constantFrom(true, false, 'true'), nvme_path: fc.constantFrom('/nvme', '/local_nvme'), ratio: fc.constantFrom(0.3, 1) },
    { requiredKeys: ['device'] },
  )
  .map((r) => Object.entries(r).map(([key, value]) => ({ key, value: value as Value })));

const zeroKey: fc.Arbitrary<[string, fc.Arbitrary<Value>]> = fc.constantFrom<[string, fc.Arbitrary<Value>]>(
  ['stage', fc.constantFrom(0, 1, 2, 3, '2', 4, 2.0)],
  ['offload_optimizer', offloadBlock],
  ['offload_param', offloadBlock],
  ['cpu_offload', fc.boolean()],
  ['cpu_offload_param', fc.boolean()],
  ['overlap_comm', fc.constantFrom(true, false, 'true', 1)],
  ['overlap_com', fc.boolean()],
  ['contiguous_gradients', fc.boolean()],
  ['reduce_bucket_size', fc.constantFrom(5e8, 'auto', '5e8', 1.5)],
  ['allgather_bucket_size', fc.constantFrom(2e8, 'auto')],
  ['stage3_prefetch_bucket_size', fc.constantFrom('auto', 5e8)],
  ['stage3_max_live_parameters', fc.constantFrom(1e9)],
  ['max_live_parameters', fc.constantFrom(1e9)],
  ['stage3_gather_16bit_weights_on_model_save', fc.boolean()],
  ['sub_group_size', fc.constantFrom(1e9)],
  ['round_robin_gradients', fc.boolean()],
  ['legacy_stage1', fc.boolean()],
  ['elastic_checkpoint', fc.boolean()],
  ['zero_quantized_weights', fc.boolean()],
);

const topKey: fc.Arbitrary<[string, fc.Arbitrary<Value>]> = fc.constantFrom<[string, fc.Arbitrary<Value>]>(
  ['train_batch_size', fc.constantFrom(32, 'auto', 30, '32')],
  ['train_micro_batch_size_per_gpu', fc.constantFrom(4, 'auto', 0)],
  ['gradient_accumulation_steps', fc.constantFrom(1, 'auto', 8)],
  ['gradient_clipping', fc.constantFrom(1.0, 'auto')],
  ['fp16', fc.constantFrom<Value>([{ key: 'enabled', value: true }], [{ key: 'enabled', value: 'auto' }], [{ key: 'enabled', value: false }, { key: 'loss_scale', value: 128 }])],
  ['bf16', fc.constantFrom<Value>([{ key: 'enabled', value: true }], [{ key: 'enabled', value: 'true' }])],
  ['optimizer', fc.constantFrom<Value>([{ key: 'type', value: 'AdamW' }, { key: 'params', value: [{ key: 'lr', value: 'auto' }] }], [{ key: 'type', value: 'Lamb' }], [{ key: 'type', value: 'adam' }, { key: 'params', value: [{ key: 'amsgrad', value: true }] }])],
  ['scheduler', fc.constantFrom<Value>([{ key: 'type', value: 'WarmupLR' }, { key: 'params', value: [{ key: 'warmup_num_steps', value: 'auto' }] }])],
  ['steps_per_print', fc.constantFrom(100, '100')],
  ['wall_clock_breakdown', fc.constantFrom(false, 'no')],
  ['train_batch_sise', fc.constantFrom(16)],
  ['zero_allow_untested_optimizer', fc.boolean()],
  ['activation_checkpointing', fc.constantFrom<Value>([{ key: 'contiguous_memory_optimization', value: true }])],
);

function entries(keys: fc.Arbitrary<[string, fc.Arbitrary<Value>]>, max: number): fc.Arbitrary<Entry[]> {
  return fc.array(
    keys.chain(([key, value]) => fc.record({ key: fc.constant(key), value, commentAbove: comment, commentAfter: comment })),
    { maxLength: max },
  );
}

const config = fc
  .tuple(entries(topKey, 7), entries(zeroKey, 8), fc.boolean(), comment)
  .map(([top, zero, withZero, zeroComment]) => (withZero ? [...top, { key: 'zero_optimization', value: zero as Value, commentAbove: zeroComment }] : top));

const style = fc.record({ indent: fc.constantFrom('  ', '    ', '\t'), trailing: fc.boolean(), crlf: fc.boolean(), inline: fc.boolean() });

function isEntries(value: Value): value is Entry[] {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === 'object' && value[0] !== null && 'key' in (value[0] as object);
}

/** JSONC text of entries, in a given style; objects inside one-line objects stay on that line. */
function render(items: Entry[], s: { indent: string; trailing: boolean; inline: boolean }, depth = 0): string {
  if (items.length === 0) return '{}';
  if (s.inline && depth > 0) return `{${items.map((e) => `"${e.key}": ${renderValue(e.value, s, depth + 1)}`).join(', ')}}`;
  const pad = s.indent.repeat(depth + 1);
  const lines: string[] = [];
  items.forEach((e, i) => {
    if (e.commentAbove) lines.push(`${pad}${e.commentAbove}`);
    const comma = i < items.length - 1 || s.trailing ? ',' : '';
    lines.push(`${pad}"${e.key}": ${renderValue(e.value, s, depth + 1)}${comma}${e.commentAfter ? ` ${e.commentAfter}` : ''}`);
  });
  return `{\n${lines.join('\n')}\n${s.indent.repeat(depth)}}`;
}

function renderValue(value: Value, s: { indent: string; trailing: boolean; inline: boolean }, depth: number): string {
  if (isEntries(value)) return render(value, s, depth);
  if (Array.isArray(value) && value.length === 0) return '{}';
  return JSON.stringify(value);
}

const fs: FileSystemHost = { readFile: async () => missing, readBytes: async () => missing, exists: async () => false, listDir: async () => undefined };
// As VS Code: snippet edits are applied (a value to fill in is then offered as a tab stop).
const service = getLanguageService({ fs, snippetEdits: true });
const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 24 });
const runs = Number(process.env.PROPERTY_RUNS ?? 2000);

test(`every code action on ${runs} generated configs does exactly what its title says`, { timeout: 600_000 }, async () => {
  let documents = 0;
  let actions = 0;
  await fc.assert(
    fc.asyncProperty(config, style, async (items, s) => {
      let text = render(items, s) + '\n';
      if (s.crlf) text = text.replace(/\n/g, '\r\n');
      const document = TextDocument.create(URI.file(path.resolve(`/w/ds_config_${documents++}.json`)).toString(), 'ds-config', 1, text);
      const diagnostics = await service.doValidation(document, settings);
      for (const diagnostic of diagnostics) {
        for (const action of await service.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic], only: ['quickfix'] }, settings)) {
          if (!action.edit) continue;
          actions++;
          checkConfigAction(document, action, action.diagnostics?.includes(diagnostic) ? diagnostic : undefined);
        }
      }
      // The stage moves, offered on the "stage" line without a diagnostic.
      const stageLine = text.split(/\r?\n/).findIndex((l) => l.includes('"stage"'));
      if (stageLine >= 0) {
        const at = { line: stageLine, character: 0 };
        for (const action of await service.getCodeActions(document, { start: at, end: at }, { diagnostics: [], only: ['quickfix'] }, settings)) {
          if (!action.edit) continue;
          actions++;
          checkConfigAction(document, action, undefined);
        }
      }
    }),
    { numRuns: runs, verbose: 1 },
  );
  assert.equal(documents >= runs, true);
  assert.ok(actions > runs, `${actions} actions checked on ${documents} configs`);
  console.log(`checked ${actions} code actions on ${documents} generated configs`);
});
