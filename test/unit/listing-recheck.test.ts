import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ListingRecheck, type ListingRecheckHost } from '../../server/src/listingRecheck';
import { NodeWorkspace } from '../../server/src/nodeHost';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A recheck over a fake clock and a listing the test sets; `walks` counts the walks, `told` what was reported. */
function fake(minAgeMs = 1000) {
  let clock = 0;
  const state = { walks: 0, walkMs: 0, next: { appeared: [] as string[], gone: [] as string[] }, told: [] as string[][], failing: false };
  const host: ListingRecheckHost = {
    relist: async () => {
      state.walks++;
      if (state.failing) throw new Error('unreadable');
      return { ...state.next, walkMs: state.walkMs };
    },
    changed: (paths) => state.told.push(paths),
    reportError: () => state.told.push(['error']),
  };
  const recheck = new ListingRecheck(host, minAgeMs, () => clock);
  return { recheck, state, advance: (ms: number) => (clock += ms) };
}

test('the listing is walked again only once it is old, in the background, one walk at a time, and changes are told', async () => {
  const { recheck, state, advance } = fake();
  recheck.touch();
  assert.equal(state.walks, 0, 'a fresh listing is not walked');
  advance(1000);
  state.next = { appeared: ['/w/train.sh'], gone: ['/w/old.sh'] };
  recheck.touch();
  recheck.touch();
  assert.equal(state.walks, 1, 'one walk at a time');
  await settle();
  assert.deepEqual(state.told, [['/w/train.sh', '/w/old.sh']]);
  // The next walk comes a full period after this one ended; a walk that finds nothing new tells nothing.
  state.next = { appeared: [], gone: [] };
  advance(999);
  recheck.touch();
  assert.equal(state.walks, 1);
  advance(1);
  recheck.touch();
  await settle();
  assert.deepEqual([state.walks, state.told.length], [2, 1]);
});

test('a workspace whose walk is slow is walked again less often: 20 times the last walk', async () => {
  const { recheck, state, advance } = fake();
  state.walkMs = 500;
  advance(1000);
  recheck.touch();
  await settle();
  advance(9_999);
  recheck.touch();
  assert.equal(state.walks, 1);
  advance(1);
  recheck.touch();
  assert.equal(state.walks, 2);
});

test('a walk that fails is reported, and the next period walks again', async () => {
  const { recheck, state, advance } = fake();
  state.failing = true;
  advance(1000);
  recheck.touch();
  await settle();
  assert.deepEqual(state.told, [['error']]);
  state.failing = false;
  advance(1000);
  recheck.touch();
  assert.equal(state.walks, 2);
});

test('NodeWorkspace.relist keeps the new listing and says what appeared and went since the last', async () => {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'zero-lens-relist-unit-')));
  try {
    await writeFile(path.join(root, 'old.sh'), 'echo\n');
    const workspace = new NodeWorkspace([root]);
    assert.deepEqual((await workspace.relist()).appeared, [], 'nothing was listed before: nothing to compare');
    await writeFile(path.join(root, 'train.sh'), 'echo\n');
    await rm(path.join(root, 'old.sh'));
    const { appeared, gone } = await workspace.relist();
    assert.deepEqual([appeared, gone], [[path.join(root, 'train.sh')], [path.join(root, 'old.sh')]]);
    assert.deepEqual(await workspace.launchFiles(), [path.join(root, 'train.sh')], 'the new listing is kept');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
