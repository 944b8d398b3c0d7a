import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DependentsRefresh } from '../../server/src/dependentsRefresh';

/** A refresh whose service says `dependents[uri]` read `uri`; what it did is recorded, timers are the test's to move. */
function setUp(t: TestContext, dependents: Record<string, string[]>, failing = false) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const did = { revalidated: [] as string[], changed: [] as string[][], hintRefreshes: 0 };
  const errors: unknown[] = [];
  const refresh = new DependentsRefresh({
    delayMs: () => 120,
    changed: (uris) => {
      if (failing) throw new Error('service unavailable');
      did.changed.push(uris);
      return uris.flatMap((u) => dependents[u] ?? []);
    },
    revalidate: (uri) => void did.revalidated.push(uri),
    refreshInlayHints: () => void did.hintRefreshes++,
    reportError: (error) => void errors.push(error),
  });
  /** Lets the delay pass and the refresh's own awaits settle. */
  const pause = async (ms = 120) => {
    t.mock.timers.tick(ms);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { refresh, did, errors, pause };
}

const config = 'file:///w/ds_config.json';
const script = 'file:///w/train.sh';
const yaml = 'file:///w/accelerate.yaml';
const other = 'file:///w/other_config.json';

test('an edited config is forgotten at once; the scripts that read it are re-checked once typing pauses', async (t) => {
  const { refresh, did, pause } = setUp(t, { [config]: [script, yaml] });
  refresh.touched(config);
  assert.deepEqual(did.changed, [[config]], 'the cache is dropped immediately, not after the pause');
  await pause(100);
  refresh.touched(config); // the next keystroke starts the wait again
  await pause(100);
  assert.deepEqual(did.revalidated, []);
  await pause(20);
  assert.deepEqual(did.revalidated, [script, yaml]);
  assert.equal(did.hintRefreshes, 1);
});

test('only the documents that read the changed file are re-checked, never the others', async (t) => {
  const { refresh, did, pause } = setUp(t, { [script]: [config] });
  refresh.touched(script);
  await pause();
  assert.deepEqual(did.revalidated, [config]);
  assert.ok(!did.revalidated.includes(other));
});

test('a file nobody read (a trainer log) re-checks nothing and refreshes no hints', async (t) => {
  const { refresh, did, pause } = setUp(t, {});
  refresh.touched('file:///w/output/trainer_state.json');
  await pause();
  assert.deepEqual(did.revalidated, []);
  assert.equal(did.hintRefreshes, 0);
});

test('a document that changed alone is not re-checked by the refresh (its own validation runs); two that feed each other both are', async (t) => {
  const { refresh, did, pause } = setUp(t, { [config]: [script, config], [script]: [config] });
  refresh.touched(config);
  await pause();
  assert.deepEqual(did.revalidated, [script]);
  did.revalidated.length = 0;
  refresh.touched(config);
  refresh.touched(script);
  await pause();
  assert.deepEqual(did.revalidated.sort(), [config, script].sort());
});

test('a failing service is reported and changes nothing', async (t) => {
  const { refresh, did, errors, pause } = setUp(t, {}, true);
  refresh.touched(config);
  await pause();
  assert.equal(errors.length, 1);
  assert.deepEqual(did.revalidated, []);
});
