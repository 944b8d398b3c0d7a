import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LaunchParses } from '../../server/src/launch/parses';
import { analyzeDocument } from '../../server/src/launch/analysis';
import { Cancelled, type Budget } from '../../server/src/util/budget';
import { yieldToEventLoop } from '../../server/src/util/pacer';
import { doc } from './launch-helpers';

/** A script of about `bytes` bytes: variables and `deepspeed` launches that use them (as a generated sweep would be). */
function hugeScript(bytes: number, batch = 2): string {
  const lines = ['#!/bin/bash'];
  for (let i = 0; lines.join('\n').length < bytes; i++) {
    lines.push(`export OUT_${i}=out_${i}`, `deepspeed --num_gpus 8 train.py --deepspeed ds_${i % 7}.json --per_device_train_batch_size ${batch} --output_dir $OUT_${i}`);
  }
  return lines.join('\n') + '\n';
}

/** A budget that yields at every checkpoint, counts them and runs `between` there. */
function countingBudget(between: () => void = () => {}) {
  let checkpoints = 0;
  const budget: Budget = {
    async checkpoint() {
      checkpoints++;
      await yieldToEventLoop();
      between();
    },
  };
  return { budget, checkpoints: () => checkpoints };
}

const text = hugeScript(300_000);

test("a huge script's validation makes its analysis in slices, the same analysis as in one go", async () => {
  const parses = new LaunchParses(() => []);
  const document = doc('train.sh', text);
  const { budget, checkpoints } = countingBudget();
  const sliced = await parses.forValidation(document, budget);
  assert.ok(checkpoints() > 1, `it yielded ${checkpoints()} times`);
  assert.equal(sliced.kind, 'script');
  const whole = analyzeDocument(doc('train.sh', text));
  assert.equal(whole.kind, 'script');
  if (sliced.kind !== 'script' || whole.kind !== 'script') return;
  assert.equal(sliced.commands.length, whole.commands.length);
  assert.equal(sliced.script.commands.length, whole.script.commands.length);
  assert.deepEqual(sliced.commands.map((c) => c.facts.microBatch?.value), whole.commands.map((c) => c.facts.microBatch?.value));
  assert.equal(parses.get(document), sliced, 'the per-version cache holds it: features reuse it');
});

test('a request that needs the analysis between two slices finishes it, and the validation goes on with that one', async () => {
  const parses = new LaunchParses(() => []);
  const document = doc('train.sh', text);
  let asked: ReturnType<LaunchParses['get']> | undefined;
  const { budget, checkpoints } = countingBudget(() => (asked ??= parses.get(document)));
  const validated = await parses.forValidation(document, budget);
  assert.equal(checkpoints(), 1, 'no slice after the request finished it');
  assert.equal(validated, asked);
});

test("a new version's sliced analysis starts after the stale one is let go (said with its length); a stale validation stops", async () => {
  const events: string[] = [];
  const parses = new LaunchParses(() => [], (length) => events.push(`dropped ${length}`));
  const document = doc('train.sh', text);
  parses.get(document);
  TextDocument.update(document, [{ text: hugeScript(300_000, 4) }], 2);
  const stopped: Budget = {
    async checkpoint() {
      events.push('checkpoint');
      throw new Cancelled('cancelled');
    },
  };
  await assert.rejects(parses.forValidation(document, stopped), Cancelled);
  assert.deepEqual(events, [`dropped ${text.length}`, 'checkpoint']);
  const analysis = parses.get(document);
  assert.ok(analysis.kind === 'script' && analysis.commands.every((c) => c.facts.microBatch?.value === 4), 'the pending job of this version is finished by the next caller');
});

test('a usual script is analysed in one go, without a yield', async () => {
  const parses = new LaunchParses(() => []);
  const { budget, checkpoints } = countingBudget();
  const analysis = await parses.forValidation(doc('train.sh', 'deepspeed train.py --deepspeed ds.json\n'), budget);
  assert.equal(checkpoints(), 0);
  assert.equal(analysis.kind === 'script' && analysis.commands.length, 1);
});
