import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missing, textOf, withOpenDocuments, type FileSystemHost } from '../../server/src/host';

const disk: FileSystemHost = {
  readFile: async (file) => (file === '/w/train.sh' ? { text: 'on disk' } : file === '/w/other.sh' ? { text: 'other on disk' } : missing),
  readBytes: async () => missing,
  exists: async (file) => file.startsWith('/w/'),
  listDir: async () => ['train.sh', 'other.sh'],
  homeDir: '/home/me',
  env: { HF_HOME: '/hf' },
};

test('a file open in the editor reads as its editor text; other files, and everything else, come from the base host', async () => {
  const open = new Map([['/w/train.sh', 'unsaved text']]);
  const fs = withOpenDocuments(disk, (file) => open.get(file));
  assert.equal(textOf(await fs.readFile('/w/train.sh', 'script')), 'unsaved text');
  assert.equal(textOf(await fs.readFile('/w/other.sh', 'script')), 'other on disk');
  assert.equal(textOf(await fs.readFile('/w/missing.sh', 'script')), undefined);
  assert.equal(await fs.exists('/w/other.sh'), true);
  assert.deepEqual(await fs.listDir('/w'), ['train.sh', 'other.sh']);
  assert.equal(fs.homeDir, '/home/me');
  assert.deepEqual(fs.env, { HF_HOME: '/hf' });
  open.delete('/w/train.sh'); // closed without saving
  assert.equal(textOf(await fs.readFile('/w/train.sh', 'script')), 'on disk');
});

test('an open document that is empty reads as empty, not as the file on disk', async () => {
  const fs = withOpenDocuments(disk, (file) => (file === '/w/train.sh' ? '' : undefined));
  assert.equal(textOf(await fs.readFile('/w/train.sh', 'script')), '');
});
