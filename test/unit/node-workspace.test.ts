import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NodeWorkspace } from '../../server/src/nodeHost';

test('launch files over 256 KiB (logs, data sets named .yaml or .sh) are not listed: every estimate would read them', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'zero-lens-workspace-'));
  writeFileSync(path.join(root, 'train.sh'), 'deepspeed train.py --deepspeed ds_config.json\n');
  writeFileSync(path.join(root, 'dataset.yaml'), '- text: hello\n'.repeat(20_000));
  writeFileSync(path.join(root, 'ds_config.json'), '{}');
  const workspace = new NodeWorkspace([root]);
  assert.deepEqual(await workspace.launchFiles(), [path.join(root, 'train.sh')]);
  assert.deepEqual(await workspace.jsonFiles(), [path.join(root, 'ds_config.json')]);
});
