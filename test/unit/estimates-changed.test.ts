import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { EstimatesChanged } from '../../server/src/dependentsRefresh';

/** A batch with a 120 ms pause; what it sent is recorded, timers are the test's to move. */
function setUp(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const sent: string[][] = [];
  const batch = new EstimatesChanged(() => 120, (uris) => void sent.push(uris));
  return { batch, sent, pause: (ms = 120) => t.mock.timers.tick(ms) };
}

const config = 'file:///w/ds_config.json';
const script = 'file:///w/train.sh';

test('a burst of changes (a git checkout reports its files in several events) is told once, each document once', (t) => {
  const { batch, sent, pause } = setUp(t);
  batch.add([config]);
  pause(100);
  batch.add([script, config]);
  pause(100);
  assert.deepEqual(sent, [], 'nothing is sent while changes keep coming');
  pause(20);
  assert.deepEqual(sent, [[config, script]]);
  pause(500);
  assert.equal(sent.length, 1, 'sent once');
});

test('no document affected: nothing is sent, and a pending batch is not delayed', (t) => {
  const { batch, sent, pause } = setUp(t);
  batch.add([]);
  pause();
  assert.deepEqual(sent, []);
  batch.add([config]);
  pause(100);
  batch.add([]);
  pause(20);
  assert.deepEqual(sent, [[config]]);
});

test('a change after a batch was sent starts the next one', (t) => {
  const { batch, sent, pause } = setUp(t);
  batch.add([config]);
  pause();
  batch.add([script]);
  pause();
  assert.deepEqual(sent, [[config], [script]]);
});
