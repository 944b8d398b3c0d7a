/** The server's watch on model folders (modelFolderWatch.ts): registered once, unregistered when no longer wanted, no flapping. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelFolderWatch } from '../../server/src/modelFolderWatch';

function watchOver(wanted: string[]) {
  const log: string[] = [];
  const watch = new ModelFolderWatch(
    {
      wanted: () => wanted,
      register: async (folder) => (log.push(`+${folder}`), { dispose: () => void log.push(`-${folder}`) }),
    },
    10,
  );
  return { watch, log, set: (next: string[]) => wanted.splice(0, wanted.length, ...next) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

test('folders newly wanted are registered once; those no longer wanted are unregistered', async () => {
  const { watch, log, set } = watchOver(['/m/a']);
  watch.sync();
  watch.sync();
  set(['/m/a', '/m/b']);
  watch.sync();
  set(['/m/b']);
  watch.sync();
  await settle();
  assert.deepEqual(log, ['+/m/a', '+/m/b', '-/m/a']);
  assert.deepEqual(watch.folders(), ['/m/b']);
});

test('a set that empties and fills again before the delay is over changes no registration', async () => {
  const { watch, log, set } = watchOver(['/m/a']);
  watch.sync();
  set([]);
  watch.schedule();
  set(['/m/a']);
  watch.schedule();
  await settle();
  assert.deepEqual(log, ['+/m/a']);
});

test('a registration the editor refused (undefined) is dropped without error when no longer wanted', async () => {
  const wanted = ['/m/a'];
  const watch = new ModelFolderWatch({ wanted: () => wanted, register: async () => undefined }, 10);
  watch.sync();
  wanted.pop();
  watch.sync();
  await settle();
  assert.deepEqual(watch.folders(), []);
});
