import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DependentsRefresh } from '../../server/src/dependentsRefresh';
import type { DocumentKind } from '../../server/src/feature';

/** Stands for open documents whose kinds cannot be read. */
const unreadable: { uri: string; kind: DocumentKind | null }[] = [];

const open: { uri: string; kind: DocumentKind | null }[] = [
  { uri: 'file:///w/ds_config.json', kind: 'ds-config' },
  { uri: 'file:///w/other_config.json', kind: 'ds-config' },
  { uri: 'file:///w/train.sh', kind: 'launch-script' },
  { uri: 'file:///w/accelerate.yaml', kind: 'launch-yaml' },
  { uri: 'file:///w/notes.json', kind: null },
];

/** A refresh over `documents`, with what it did recorded; timers are the test's to move. */
function setUp(t: TestContext, documents = open) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const did = { revalidated: [] as string[], cachesDropped: 0, hintRefreshes: 0 };
  const errors: unknown[] = [];
  const refresh = new DependentsRefresh({
    delayMs: () => 120,
    openDocuments: async () => {
      if (documents === unreadable) throw new Error('settings unavailable');
      return documents;
    },
    dropWorkspaceCaches: () => void did.cachesDropped++,
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

test('an edited config re-checks the open launch files once typing pauses, and keeps the caches', async (t) => {
  const { refresh, did, pause } = setUp(t);
  refresh.touched('file:///w/ds_config.json', 'ds-config');
  await pause(100);
  refresh.touched('file:///w/ds_config.json', 'ds-config'); // the next keystroke starts the wait again
  await pause(100);
  assert.deepEqual(did.revalidated, []);
  await pause(20);
  assert.deepEqual(did.revalidated, ['file:///w/train.sh', 'file:///w/accelerate.yaml']);
  assert.equal(did.cachesDropped, 0);
  assert.equal(did.hintRefreshes, 1);
});

test('an edited script drops what was read from scripts and re-checks every other open document', async (t) => {
  const { refresh, did, pause } = setUp(t);
  refresh.touched('file:///w/train.sh', 'launch-script');
  await pause();
  assert.deepEqual(did.revalidated, ['file:///w/ds_config.json', 'file:///w/other_config.json', 'file:///w/accelerate.yaml', 'file:///w/notes.json']);
  assert.equal(did.cachesDropped, 1);
  assert.equal(did.hintRefreshes, 1);
});

test('a script and a config edited within one pause: one refresh, caches dropped, both checked again', async (t) => {
  const { refresh, did, pause } = setUp(t);
  refresh.touched('file:///w/train.sh', 'launch-script');
  await pause(50);
  refresh.touched('file:///w/ds_config.json', 'ds-config');
  await pause();
  assert.deepEqual(did.revalidated, open.map((d) => d.uri));
  assert.equal(did.cachesDropped, 1);
  assert.equal(did.hintRefreshes, 1);
});

test('files that are neither configs nor launch files change nothing', async (t) => {
  const { refresh, did, pause } = setUp(t);
  refresh.touched('file:///w/notes.json', null);
  await pause();
  assert.deepEqual(did, { revalidated: [], cachesDropped: 0, hintRefreshes: 0 });
});

test('with no launch file open, an edited config changes nothing else', async (t) => {
  const { refresh, did, pause } = setUp(t, open.filter((d) => d.kind === 'ds-config'));
  refresh.touched('file:///w/ds_config.json', 'ds-config');
  await pause();
  assert.deepEqual(did, { revalidated: [], cachesDropped: 0, hintRefreshes: 0 });
});

test('a refresh that fails is reported, and the next change refreshes again', async (t) => {
  const { refresh, did, errors, pause } = setUp(t, unreadable);
  refresh.touched('file:///w/train.sh', 'launch-script');
  await pause();
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /settings unavailable/);
  refresh.touched('file:///w/train.sh', 'launch-script');
  await pause();
  assert.equal(errors.length, 2, 'the failed refresh left nothing pending that would swallow the next');
  assert.equal(did.cachesDropped, 2);
});
